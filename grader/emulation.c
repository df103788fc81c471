#include "emulation.h"

#include "harness_buffers.h"

double mw_emulation_work(const mw_chapter *ch, const mw_case *c, size_t workspace_floats)
{
    double read = 0, write = 0, flops = 0;
    ch->model(c, &read, &write, &flops);
    return flops + (double)mw_case_bytes(ch, c) / 4 + (double)workspace_floats;
}

double mw_emulation_budget(const mw_chapter *ch)
{
    return ch->emulation_budget > 0 ? ch->emulation_budget : MW_EMULATION_BUDGET;
}
