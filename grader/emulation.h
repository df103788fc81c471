/* emulation.h: which of a chapter's cases the CPU emulation of CUDA
 * (grader/sim/) runs. Every kernel thread is a fiber and every load and
 * store a call, so the emulation runs the small cases (seconds each) and
 * leaves the rest to a GPU, saying so. */
#ifndef MW_EMULATION_H
#define MW_EMULATION_H

#include "mw.h"

/* The budget of a chapter that sets none: 2^23 units of work, a case of a
 * few seconds on one core. */
#define MW_EMULATION_BUDGET 8388608.0

/* A case's work in the emulation's units: the model's FLOPs plus the
 * elements (4 bytes) of its buffers and of `workspace_floats`. c is the
 * case as a version runs it (its op set). */
double mw_emulation_work(const mw_chapter *ch, const mw_case *c, size_t workspace_floats);
/* The chapter's budget: its emulation_budget, or MW_EMULATION_BUDGET. */
double mw_emulation_budget(const mw_chapter *ch);

#endif
