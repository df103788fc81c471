/* impls.c: the implementations a bench or traffic run loads and runs:
 * the student's and the reference's versions from their .so files, the
 * chapter's library calls and its roof; their byte and FLOP models, their
 * workspaces, and the names of their rows. */
#define _GNU_SOURCE
#include "impls.h"

#include "cuda_check.h"
#include "roofs.h"
#include "skip_marker.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void add_versions(const mw_chapter *ch, const char *dir, const char *kind,
                         mw_impl *impls, int *count)
{
    if (!dir)
        return;
    for (int vi = 0; vi < ch->nversions && *count < MW_MAX_IMPLS; vi++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.so", dir, ch->versions[vi].file);
        if (access(path, R_OK) != 0) {
            char why[512];
            if (mw_skip_marker(dir, ch->versions[vi].file, why, sizeof why))
                fprintf(stderr, "bench: %s/%s left out: %s\n", kind, ch->versions[vi].file, why);
            continue;
        }
        mw_impl *im = &impls[(*count)++];
        memset(im, 0, sizeof *im);
        snprintf(im->name, sizeof im->name, "%s/%s", kind, ch->versions[vi].file);
        im->kind = kind;
        im->op = ch->versions[vi].op;
        im->loaded = mw_load_version(dir, &ch->versions[vi], &im->lib) == 0;
        if (!im->loaded)
            fprintf(stderr, "bench: %s: %s\n", im->name, im->lib.error);
    }
}

int mw_impls_load(const mw_chapter *ch, const mw_bench_opts *o, mw_impl *impls)
{
    int count = 0;
    add_versions(ch, o->student_dir, "student", impls, &count);
    add_versions(ch, o->reference_dir, "reference", impls, &count);
#ifdef MW_SIM
    /* The chapters leave their cuBLAS and cuDNN rows out of the emulation. */
    fprintf(stderr, "bench: the library baselines (cuBLAS, cuDNN) need a GPU: none in the CPU "
                    "emulation\n");
#endif
    for (int li = 0; li < ch->nlibraries && count < MW_MAX_IMPLS; li++) {
        const mw_library *lib = &ch->libraries[li];
        mw_impl *im = &impls[count];
        memset(im, 0, sizeof *im);
        snprintf(im->name, sizeof im->name, "%s/%s", lib->kind, lib->name);
        im->kind = lib->kind;
        im->library = lib;
        im->op = lib->op;
        if (lib->setup(&im->state) != 0) {
            fprintf(stderr, "bench: %s is not available; left out\n", im->name);
            continue;
        }
        im->loaded = 1;
        count++;
    }
    return count;
}

void mw_impls_free(mw_impl *impls, int count)
{
    for (int i = 0; i < count; i++)
        if (impls[i].library && impls[i].loaded && impls[i].library->teardown)
            impls[i].library->teardown(impls[i].state);
}

cudaError_t mw_impl_run(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                        mw_views *v, cudaStream_t s)
{
    mw_case cc = mw_case_for(c, im->op);
    if (im->library)
        return im->library->run(im->state, &cc, v->view, s);
    return ch->launch(im->lib.fn, &cc, v->view, s);
}

/* The minimum bytes of the operation it computes, not of how it computes it:
 * an unfused chain is charged the fused minimum, so its GB/s is the
 * effective bandwidth and its extra traffic shows in traffic.csv. */
void mw_impl_model(const mw_chapter *ch, const mw_impl *im, const mw_case *c, double *read,
                   double *write, double *flops)
{
    mw_case cc = mw_case_for(c, im->op);
    if (im->library && im->library->model)
        im->library->model(&cc, read, write, flops);
    else
        ch->model(&cc, read, write, flops);
}

/* The outputs an implementation does not compute (a library composition
 * without the logsumexp), left out of its checks. */
unsigned mw_impl_skips(const mw_impl *im)
{
    return im->library ? im->library->skips_outputs : 0;
}

size_t mw_impl_workspace(const mw_chapter *ch, const mw_impl *im, const mw_case *c)
{
    mw_case cc = mw_case_for(c, im->op);
    if (im->library)
        return im->library->workspace ? im->library->workspace(&cc) : 0;
    (void)ch;
    return im->lib.version && im->lib.version->workspace ? im->lib.version->workspace(&cc) : 0;
}

/* Allocates the implementation's workspace for case c; returns 0, or -1
 * after printing how much it needed when the GPU cannot hold it. */
int mw_impl_workspace_alloc(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                            mw_views *v, const char *who)
{
    size_t floats = mw_impl_workspace(ch, im, c), free_b = 0, total_b = 0;
    mw_views_free_workspace(v);
    if (floats == 0)
        return 0;
    mw_gpu_query_memory(&free_b, &total_b);
    size_t need = mw_workspace_bytes(floats);
    cudaError_t err = need + ((size_t)256 << 20) <= free_b ? mw_views_alloc_workspace(v, floats, 0)
                                                         : cudaErrorMemoryAllocation;
    if (err == cudaSuccess)
        return 0;
    mw_gpu_take_error(); /* a failed allocation leaves its error behind */
    char shape[160];
    ch->describe(c, shape, sizeof shape);
    fprintf(stderr, "%s: %s cannot run at %s: its workspace needs %.1f GB, the GPU has %.1f GB "
                    "free\n",
            who, im->name, shape, need / 1e9, free_b / 1e9);
    return -1;
}

cudaError_t mw_impl_views(const mw_chapter *ch, const mw_impl *im, int index, uint64_t seed,
                          mw_case *c, mw_inputs *in, mw_views *v, int *have)
{
    *c = mw_case_for(&ch->bench_cases[index], im->op);
    *in = mw_case_inputs_for(ch, c, index, seed);
    cudaError_t err = mw_views_refit(ch, c, v, have);
    return err == cudaSuccess ? mw_views_fill(v, in, 0) : err;
}

/* The roof a kernel library names for the case's series (impls.h). */
const char *mw_impl_case_roof(const mw_impl *im, const mw_case *c)
{
    if (im->library || !im->lib.handle)
        return NULL;
    const char *(*roof_of)(const char *) = (const char *(*)(const char *))dlsym(
        im->lib.handle, "mw_version_roof");
    const char *name = roof_of ? roof_of(c->series ? c->series : "") : NULL;
    if (name && !mw_roof_find(&mw_roofs, name)) {
        fprintf(stderr, "bench: %s names roof '%s' for series '%s', which roofs.c does not have: "
                        "its own roof is kept\n",
                im->name, name, c->series ? c->series : "");
        return NULL;
    }
    return name;
}

/* The row's name: the implementation's, plus the case's series, plus the
 * op's suffix where the implementation computes the case's op. */
const char *mw_impl_row_name(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                             char *text, size_t len)
{
    const char *suffix = mw_op_from_case(im->op) && ch->op_suffix && c->op >= 0 &&
                                 c->op < ch->nops && ch->op_suffix[c->op]
                             ? ch->op_suffix[c->op]
                             : "";
    snprintf(text, len, "%s%s%s", im->name, c->series ? c->series : "", suffix);
    return text;
}
