/* verdict_results.h: a chapter's verdict finds its rows among the bench's
 * results (mw_chapter.verdict) by implementation and size. Pure C. */
#ifndef MW_VERDICT_RESULTS_H
#define MW_VERDICT_RESULTS_H

#include "mw.h"

/* The timed result named impl at the largest size, or NULL when absent or
 * not timed; mw_result_at: at a given size. */
const mw_result *mw_result_find(const mw_result *r, int count, const char *impl);
const mw_result *mw_result_at(const mw_result *r, int count, const char *impl, double size);

#endif
