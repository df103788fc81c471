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

/* A case run on a sample of its blocks checks fewer outputs than a GPU:
 * sample_edge consecutive elements at each end and around 2^31,
 * 2^32 and 2^33 at most MW_EMULATION_SAMPLE_EDGE, and at most
 * MW_EMULATION_SAMPLE_RANDOM of the random ones (the first of the GPU's):
 * each random element costs a block of its own, and a block of 256 threads
 * costs the emulation about what 256 elements of a small case do. */
#define MW_EMULATION_SAMPLE_EDGE 1024
#define MW_EMULATION_SAMPLE_RANDOM 512
/* The first and last few blocks of every grid run as well: the edges of a
 * kernel's own layout (a head or a tail done by the first threads); a
 * chapter may take fewer (mw_chapter.emulation_sample_ends). */
#define MW_EMULATION_SAMPLE_ENDS 4
/* What a thread costs the emulation beyond its loads and FLOPs, in units of
 * work: its fiber, its barriers and warp collectives. A block of 1024
 * threads of chapter 04 took about as long as 2^14 elements of chapter 01. */
#define MW_EMULATION_THREAD_WORK 16.0

/* A case's work in the emulation's units: the model's FLOPs plus the
 * elements (4 bytes) of its buffers and of `workspace_floats`. c is the
 * case as a version runs it (its op set). */
double mw_emulation_work(const mw_chapter *ch, const mw_case *c, size_t workspace_floats);
/* The chapter's budget: its emulation_budget, or MW_EMULATION_BUDGET. */
double mw_emulation_budget(const mw_chapter *ch);

/* The rate at which a case's time limit grows with its work on the
 * emulation (mw_emulation_seconds), a tenth of what chapter 05's reference
 * ran its sample of 9 heads of N = 16384 at on one core (2.3e8 units in
 * 9 to 11 s): room for a right kernel that costs the emulation
 * several times the model's work, on a core slower or shared with other
 * work. A kernel that never ends still stops the version after three
 * timeouts in a row. */
#define MW_EMULATION_UNITS_PER_S 2.5e6
/* The most work a sample's blocks may cost: the chapter's
 * emulation_sample_budget, else its budget. */
double mw_emulation_sample_budget(const mw_chapter *ch);
/* The seconds case c (as a version runs it) may take on the emulation
 * beyond the check's TIMEOUT: its work, or for a case on a sample the
 * sample budget its blocks may cost, at MW_EMULATION_UNITS_PER_S. */
double mw_emulation_seconds(const mw_chapter *ch, const mw_case *c, size_t workspace_floats);
/* 1 when the emulation runs case c (as a version runs it) on a sample of
 * its blocks: a case past the budget, in a chapter that says which blocks
 * write which outputs (mw_chapter.emulation_blocks), that the chapter
 * names (mw_chapter.emulation_samples), or a sampled case where it names
 * none. */
int mw_emulation_on_sample(const mw_chapter *ch, const mw_case *c, size_t workspace_floats);

/* The sample a case runs on: its checked outputs (flat indices, sorted);
 * then, as mw_emulation_pick leaves them, the last grid it picked for, its
 * blocks and the blocks picked (sorted; free with mw_emulation_sample_free). */
typedef struct mw_emulation_sample {
    const mw_chapter *ch;
    const mw_case *c;
    const size_t *idx;
    size_t count;
    unsigned grid[3], block[3];
    uint64_t *picked;
    size_t npicked;
    /* Set by mw_emulation_pick when a grid cannot run on a sample for
     * another reason than a grid too small: why, a phrase for the skip. */
    char why[200];
} mw_emulation_sample;
void mw_emulation_sample_free(mw_emulation_sample *s);

/* An mw_gpu_block_pick (gpu.h) for arg, an mw_emulation_sample: the
 * blocks that write its outputs under the chapter's mappings, and the
 * first and last MW_EMULATION_SAMPLE_ENDS (or the chapter's
 * emulation_sample_ends); MW_GPU_GRID_TOO_SMALL when an output has no
 * block of its own in the grid, and, with s->why said, when the chapter
 * cannot name the grid's blocks (mw_chapter.emulation_layout) or the
 * picked blocks alone cost more than the budget (the chapter's
 * emulation_sample_budget, or its emulation budget): the case's work in
 * the share of its blocks picked, plus MW_EMULATION_THREAD_WORK for each
 * of their threads. */
size_t mw_emulation_pick(void *arg, const unsigned grid[3], const unsigned block[3],
                         uint64_t **blocks);

/* After a run on a sample: 1 when a page the kernel touched of an output
 * view (count elements of elem bytes, flat index flat_first of its first;
 * the view index of each touched page's first element in firsts[0..n), as
 * mw_gpu_sample_touched gives them) holds no element of a picked block
 * under the chapter's mappings; else 0; -1: no memory. The blocks that
 * ran were picked for the sampled outputs under the reference's layouts; a
 * kernel of another layout, right or not, writes elsewhere, and a sampled
 * output it left unwritten tells nothing: which block writes it, the
 * sample cannot say. */
int mw_emulation_strays(const mw_emulation_sample *s, const size_t *firsts, size_t n,
                        size_t count, size_t elem, size_t flat_first);

#endif
