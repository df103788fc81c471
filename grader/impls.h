/* impls.h: the implementations a bench or traffic run loads and runs
 * (impls.c), and the options that say where they come from. */
#ifndef MW_IMPLS_H
#define MW_IMPLS_H

#include "harness.h"

typedef struct mw_bench_opts {
    const char *student_dir;   /* build/exercises/<chapter>, or NULL */
    const char *reference_dir; /* build/solutions/<chapter>, or NULL */
    const char *results_root;  /* "results" */
    const char *self;          /* this program's path (traffic runs it under ncu) */
    uint64_t seed;
    int force_roofs;
} mw_bench_opts;

/* One implementation: a kernel version from a .so, or a library call. */
typedef struct mw_impl {
    char name[96];            /* "student/01_naive", "library/cublasSgeam" */
    const char *kind;         /* student, reference, library, roof */
    mw_loaded lib;            /* kernel versions */
    const mw_library *library;
    void *state;
    int op;                   /* the chapter operation it computes */
    int loaded;               /* 0: could not load; see lib.error */
} mw_impl;

#define MW_MAX_IMPLS 24

int mw_impls_load(const mw_chapter *ch, const mw_bench_opts *o, mw_impl *impls);
void mw_impls_free(mw_impl *impls, int count);
cudaError_t mw_impl_run(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                        mw_views *v, cudaStream_t s);
void mw_impl_model(const mw_chapter *ch, const mw_impl *im, const mw_case *c, double *read,
                   double *write, double *flops);
/* The roof its row at case c is measured against where its kernel library
 * names one: a version whose instruction depends on the series (05.2's
 * reference runs d = 128 on TF32 wgmma where built for sm_90a) exports
 *     extern "C" const char *mw_version_roof(const char *series);
 * given the case's series ("" for the main one), it returns a roof of
 * roofs.c's table, or NULL for the version's own. NULL here too when the
 * library exports none; an unknown name is refused with a line on stderr. */
const char *mw_impl_case_roof(const mw_impl *im, const mw_case *c);
/* The name of its bench.csv rows at case c: its own, plus the chapter's
 * suffix for the case's op where it computes the case's op ("-causal"). */
const char *mw_impl_row_name(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                             char *text, size_t len);
/* The outputs it does not compute, as a mask of buffer indices (its
 * library's skips_outputs): left out of its validation. */
unsigned mw_impl_skips(const mw_impl *im);
/* Floats of workspace it needs at case c (0: none). */
size_t mw_impl_workspace(const mw_chapter *ch, const mw_impl *im, const mw_case *c);
/* Puts that workspace in v's workspace slot; -1 after saying (prefixed by
 * `who`) how many bytes it needed when the GPU cannot hold it. */
int mw_impl_workspace_alloc(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                            mw_views *v, const char *who);
/* Bench case `index` as im runs it (*c: its op applied, so chapter 05's
 * bf16 rows take bf16 buffers), its inputs for `seed` (*in, rounded to
 * those buffers' types) and views v filled with them: kept from the last
 * call when their buffers fit (*have, as mw_views_refit), else made anew. */
cudaError_t mw_impl_views(const mw_chapter *ch, const mw_impl *im, int index, uint64_t seed,
                          mw_case *c, mw_inputs *in, mw_views *v, int *have);

#endif
