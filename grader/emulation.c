#include "emulation.h"

#include "harness_buffers.h"

double mw_emulation_work(const mw_chapter *ch, const mw_case *c, size_t workspace_floats)
{
    double read = 0, write = 0, flops = 0;
    ch->model(c, &read, &write, &flops);
    double extra = ch->emulation_work ? ch->emulation_work(c) : 0;
    return flops + (double)mw_case_bytes(ch, c) / 4 + (double)workspace_floats + extra;
}

double mw_emulation_budget(const mw_chapter *ch)
{
    return ch->emulation_budget > 0 ? ch->emulation_budget : MW_EMULATION_BUDGET;
}
