/* bench.c: the bench command.
 *
 * Every implementation is validated against the reference before it is
 * timed (a wrong kernel gets a row flagged "wrong" and no time), then timed
 * by timing.c on the same inputs, same GPU, same run. bench.csv gets one row
 * per implementation and size, written when the run ends with the facts
 * facts.c decides from the run (timed, vs library, roof values); the
 * terminal gets the largest size, from the same facts, and the chapter's
 * verdict. */
#define _GNU_SOURCE
#include "bench.h"

#include "facts.h"
#include "cuda_check.h"
#include "csv.h"
#include "devinfo.h"
#include "roofs_cache.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Does this implementation's output get checked? (A copy is not an add.) */
static int validates(const mw_impl *im)
{
    return !im->library || im->library->computes_output;
}

typedef struct timed_call {
    const mw_chapter *ch;
    const mw_impl *im;
    const mw_case *c;
    mw_views *v;
} timed_call;

static cudaError_t call_impl(void *ctx, cudaStream_t s)
{
    timed_call *t = ctx;
    return mw_impl_run(t->ch, t->im, t->c, t->v, s);
}

/* The case as its check sees it: the implementation's operation, and
 * sampled when the output is too large to check whole (past 2^22 elements,
 * or the chapter's own threshold when its reference is costly). */
static mw_case checked_case(const mw_chapter *ch, const mw_case *c, const mw_impl *im,
                            const mw_views *v)
{
    mw_case checked = mw_case_for(c, im->op);
    size_t above = ch->sample_above ? ch->sample_above : (size_t)1 << 22;
    checked.sampled = v->out_total > above;
    return checked;
}

/* Runs once and checks the answer (sampled when large). Returns "" when
 * right, else the flag for the CSV; a CUDA error ends the bench. */
static const char *validate(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                            const mw_inputs *in, mw_views *v)
{
    if (!validates(im))
        return "";
    mw_case sampled = checked_case(ch, c, im, v);
    cudaError_t err = mw_views_poison_output(v, 0);
    cudaError_t ran = err == cudaSuccess ? mw_impl_run(ch, im, c, v, 0) : err;
    if (ran == MW_NOT_IMPLEMENTED)
        return "not-implemented";
    if (ran == cudaSuccess)
        ran = mw_gpu_sync();
    if (ran != cudaSuccess) {
        char text[1024];
        mw_format_cuda_error(text, sizeof text, im->name, ran);
        fprintf(stderr, "bench: %s\nbench: run `make check` on it first; stopping\n", text);
        exit(2);
    }
    mw_checked m;
    MW_CUDA(mw_check_output(ch, &sampled, in, v, mw_impl_skips(im), &m, NULL, NULL));
    if (m.wrong == 0)
        return "";
    char shape[160];
    ch->describe(c, shape, sizeof shape);
    fprintf(stderr, "bench: %s gives wrong answers (%zu of %zu checked) at %s; not timed\n",
            im->name, m.wrong, m.checked, shape);
    return "wrong";
}

static const char *bench_header =
    "chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,"
    "gbps,gflops,roof,pct_roof,pct_peak,flag,op," MW_FACTS_COLUMNS;

/* One implementation at one bench case, kept until the run ends: its
 * facts (facts.h) depend on rows timed after it (the libraries come last). */
typedef struct row {
    const mw_impl *im;
    char name[160], shape[160];
    double size, bytes, flops, pct, pct_peak;
    const char *roof; /* the roof pct is of (impl_roof) */
    int op;
    int measured; /* t holds a timing */
    mw_timing t;
    const char *flag;
} row;

/* The rows of a run, in the order bench.csv lists them. */
typedef struct run {
    row *rows;
    int n;
} run;

/* The roof an implementation is measured against: the chapter's, or its
 * version's own (the roof of the instruction it uses: "bf16_mma" for a
 * kernel of mma.sync bf16). A library is a measured point, not held to one
 * instruction: it is measured against the peak of its roof's precision
 * (cuBLAS TF32 issues wgmma on sm_90a, above the mma.sync roof it names).
 * A version's row keeps its roof even when its .so did not load: mw_loaded
 * holds the version either way. */
static const char *impl_roof(const mw_chapter *ch, const mw_impl *im,
                             const mw_roof_values *roof_values)
{
    const mw_version *v = im->lib.version;
    const char *own = im->library ? im->library->roof : v ? v->roof : NULL;
    if (!own)
        own = ch->roof;
    return im->library ? mw_roof_peak_name(&mw_roofs, roof_values, own) : own;
}

/* The row as the facts see it: its median as bench.csv holds it, so that
 * build/tools/mw-facts decides the same from the file. The rates are for
 * the terminal, which prints them at full precision. */
static mw_bench_row bench_row(const row *r)
{
    double ms = r->measured ? r->t.time_ms : NAN;
    return (mw_bench_row){.impl = r->name,
                          .kind = r->im->kind,
                          .size = r->size,
                          .op = r->op,
                          .median_ms = mw_csv_rounded(ms, 6),
                          .gbps = r->bytes / (ms * 1e-3) / 1e9,
                          .gflops = r->flops / (ms * 1e-3) / 1e9,
                          .flag = r->flag,
                          .roof = r->roof,
                          .shape = r->shape};
}

/* A row's time, rates and percent of roof are written when the facts say
 * it is timed; otherwise its flag says why not (not_timed_why, in words). */
static void write_row(mw_csv *csv, const mw_chapter *ch, const row *r, const mw_bench_row *rows,
                      const mw_row_facts *facts, int i)
{
    int timed = facts[i].timed;
    double ms = timed ? r->t.time_ms : NAN;
    mw_csv_str(csv, ch->id);
    mw_csv_str(csv, r->name);
    mw_csv_str(csv, r->im->kind);
    mw_csv_num(csv, r->size, 15);
    mw_csv_str(csv, r->shape);
    mw_csv_num(csv, r->bytes, 15);
    mw_csv_num(csv, r->flops, 15);
    mw_csv_num(csv, timed ? r->t.reps : NAN, 6);
    mw_csv_num(csv, ms, 6);
    mw_csv_num(csv, timed ? r->t.q1_ms : NAN, 6);
    mw_csv_num(csv, timed ? r->t.q3_ms : NAN, 6);
    mw_csv_num(csv, timed ? r->t.wall_ms : NAN, 6);
    mw_csv_num(csv, r->bytes / (ms * 1e-3) / 1e9, 6);
    mw_csv_num(csv, r->flops / (ms * 1e-3) / 1e9, 6);
    mw_csv_str(csv, rows[i].roof);
    mw_csv_num(csv, timed ? r->pct : NAN, 4);
    mw_csv_num(csv, timed ? r->pct_peak : NAN, 4);
    mw_csv_str(csv, r->flag);
    mw_csv_num(csv, r->op, 6);
    mw_facts_write(csv, rows, facts, i, ch->roof);
    mw_csv_end_row(csv);
}

/* Decides the run's facts and writes its rows; fills rows and facts (n
 * each) for the terminal and the verdict. Returns mw_csv_close's answer. */
static int write_run(mw_csv *csv, const mw_chapter *ch, const run *rn,
                     const mw_roof_values *roof_values, mw_bench_row *rows, mw_row_facts *facts)
{
    for (int i = 0; i < rn->n; i++)
        rows[i] = bench_row(&rn->rows[i]);
    mw_facts_decide(rows, rn->n, roof_values, &mw_roofs, facts);
    for (int i = 0; i < rn->n; i++)
        write_row(csv, ch, &rn->rows[i], rows, facts, i);
    return mw_csv_close(csv);
}

/* Percent of the implementation's roof (the chapter's, or a version's or
 * library's own, as the roof table measures it), and whether it is
 * impossibly fast: more than 5% (the run-to-run spread of the roofs
 * themselves) past its ceiling, the fastest DRAM stream measured for a
 * roof of bytes (mw_roof_value_ceiling_percent). */
static double percent_of_roof(const char *which, const mw_roof_values *roof_values, const row *r,
                              int *too_fast)
{
    const double seconds = r->t.time_ms * 1e-3;
    *too_fast = mw_roof_value_ceiling_percent(roof_values, &mw_roofs, which, r->bytes, r->flops,
                                              seconds) > 105;
    return mw_roof_value_percent(roof_values, &mw_roofs, which, r->bytes, r->flops, seconds);
}

/* "measured roofs on this GPU: copy 2989 GB/s, FP32 FFMA 65.2 TFLOP/s,
 * ...": the roofs measured, not those the GPU lacks or the cache has not. */
static void print_roofs(const mw_roof_values *roof_values)
{
    printf("\nmeasured roofs on this GPU:");
    for (int i = 0, shown = 0; i < mw_roofs.count; i++) {
        char value[64];
        if (isnan(roof_values->value[i]))
            continue;
        mw_roof_format(&mw_roofs.roof[i], roof_values->value[i], value, sizeof value);
        printf("%s %s %s", shown++ ? "," : "", mw_roofs.roof[i].label, value);
    }
    printf("\n");
}

/* The results at the largest size, each against the library row computing
 * the same operation (facts.c), as bench.csv and the README tables have it. */
static void print_table(const mw_chapter *ch, const mw_bench_row *rows,
                        const mw_row_facts *facts, int n, double size)
{
    char label[32];
    mw_size_label(size, label, sizeof label);
    printf("\n%s at size %s:\n", ch->title, label);
    mw_facts_print_table(stdout, rows, facts, n, size);
}

/* The verdict's results: the times the facts count and a verdict may
 * rest on (not a faster-than-roof one), nothing else. */
static mw_result *verdict_results(const mw_bench_row *rows, const mw_row_facts *facts, int n)
{
    mw_result *res = calloc((size_t)n + 1, sizeof *res);
    for (int i = 0; res && i < n; i++) {
        int counts = facts[i].timed && mw_flag_in_verdict(rows[i].flag);
        res[i] = (mw_result){rows[i].impl, rows[i].kind, rows[i].size,
                             counts ? rows[i].median_ms : NAN, counts ? rows[i].gbps : NAN,
                             counts ? rows[i].gflops : NAN};
    }
    return res;
}

/* Fresh inputs before every timed repetition, alternating between two sets
 * unlike the validation's: a kernel that returns a cached answer (it cannot
 * tell new inputs from old without reading them) is caught by the check
 * after the timing. Two sets, not one per repetition, so that a chapter's
 * reference (softmax sums whole rows) is computed twice, not per run. */
typedef struct refill {
    const mw_chapter *ch;
    const mw_case *c;
    mw_views *v;
    int case_index;
    uint64_t seed;
    mw_inputs in; /* the inputs of the last repetition */
} refill;

static cudaError_t refill_inputs(void *ctx, int rep)
{
    refill *r = ctx;
    r->in = mw_case_inputs_for(r->ch, r->c, r->case_index + 4096 * (1 + rep % 2), r->seed);
    return mw_views_fill_inputs(r->v, &r->in, 0);
}

/* After timing: the output of the last timed run, against the reference
 * for the inputs it was given. */
static int right_when_timed(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                            const refill *r)
{
    if (!validates(im))
        return 1;
    mw_case sampled = checked_case(ch, c, im, r->v);
    mw_checked m;
    MW_CUDA(mw_check_output(ch, &sampled, &r->in, r->v, mw_impl_skips(im), &m, NULL, NULL));
    if (m.wrong > 0)
        fprintf(stderr, "bench: %s: the output of its last timed run is wrong (%zu of %zu "
                        "checked): it did not compute on the inputs it was given\n",
                im->name, m.wrong, m.checked);
    return m.wrong == 0;
}

/* Does any implementation ask for a workspace? Then the bench writes
 * footprint.csv: device memory per implementation and size. */
static int any_workspace(const mw_chapter *ch)
{
    for (int v = 0; v < ch->nversions; v++)
        if (ch->versions[v].workspace)
            return 1;
    for (int l = 0; l < ch->nlibraries; l++)
        if (ch->libraries[l].workspace)
            return 1;
    return 0;
}

static const char *footprint_header =
    "chapter,impl,kind,size,shape,buffer_bytes,workspace_bytes,total_bytes,gpu_bytes";

/* One row: the case's buffers (inputs and outputs, as a caller holds them)
 * and the implementation's workspace, against the GPU's memory. */
static void footprint_row(mw_csv *csv, const mw_chapter *ch, const mw_impl *im,
                          const mw_case *c, const mw_views *v)
{
    char name[160], shape[160];
    double buffers = 0, work = 4.0 * (double)mw_impl_workspace(ch, im, c); /* FP32 */
    for (int b = 0; b < v->nbufs; b++)
        buffers += (double)mw_type_size(v->spec[b].type) * (double)v->spec[b].count;
    size_t free_b = 0, total_b = 0;
    mw_gpu_query_memory(&free_b, &total_b);
    ch->describe(c, shape, sizeof shape);
    mw_csv_str(csv, ch->id);
    mw_csv_str(csv, mw_impl_row_name(ch, im, c, name, sizeof name));
    mw_csv_str(csv, im->kind);
    mw_csv_num(csv, ch->bench_x(c), 15);
    mw_csv_str(csv, shape);
    mw_csv_num(csv, buffers, 15);
    mw_csv_num(csv, work, 15);
    mw_csv_num(csv, buffers + work, 15);
    mw_csv_num(csv, (double)total_b, 15);
    mw_csv_end_row(csv);
}

/* Validates, then times, implementation im at bench case bi (c: that case
 * as im runs it, with its op): its row, flagged where there is no time or
 * it is not to be trusted. */
static row measure(const mw_chapter *ch, const mw_bench_opts *o, int bi, const mw_case *c,
                   const mw_impl *im, mw_timer *timer, const mw_roof_values *roof_values,
                   const mw_inputs *in, mw_views *v)
{
    row r = {.im = im,
             .size = ch->bench_x(c),
             .op = mw_case_for(c, im->op).op,
             .pct = NAN,
             .pct_peak = NAN,
             .roof = impl_roof(ch, im, roof_values)};
    const char *own = mw_impl_case_roof(im, c);
    if (own)
        r.roof = own;
    double read, write;
    mw_impl_model(ch, im, c, &read, &write, &r.flops);
    r.bytes = read + write;
    mw_impl_row_name(ch, im, c, r.name, sizeof r.name);
    ch->describe(c, r.shape, sizeof r.shape);
    if (!im->loaded)
        r.flag = "wrong";
    else if (mw_impl_workspace_alloc(ch, im, c, v, "bench") != 0)
        r.flag = "no-memory";
    else
        r.flag = validate(ch, im, c, in, v);
    if (r.flag[0] != '\0')
        return r;
    timed_call call = {ch, im, c, v};
    refill fresh = {ch, c, v, bi, o->seed, *in};
    timer->prepare = refill_inputs;
    timer->prepare_ctx = &fresh;
    cudaError_t err = mw_time(timer, call_impl, &call, &r.t);
    timer->prepare = NULL;
    MW_CUDA(err);
    r.measured = 1;
    int too_fast;
    r.pct = percent_of_roof(r.roof, roof_values, &r, &too_fast);
    r.pct_peak = mw_roof_value_peak_percent(roof_values, &mw_roofs, r.roof, r.bytes, r.flops,
                                            r.t.time_ms * 1e-3);
    if (!right_when_timed(ch, im, c, &fresh))
        r.flag = "wrong-when-timed";
    else if (r.t.side_stream)
        r.flag = "side-stream";
    else if (too_fast)
        r.flag = "faster-than-roof";
    return r;
}

/* Times every implementation at bench case bi; appends its rows to rn. */
static void bench_case(const mw_chapter *ch, const mw_bench_opts *o, int bi, mw_impl *impls,
                       int nimpl, mw_timer *timer, const mw_roof_values *roof_values,
                       mw_csv *footprint, run *rn)
{
    mw_views v;
    int have_views = 0;
    for (int i = 0; i < nimpl; i++) {
        mw_case c;
        mw_inputs in;
        MW_CUDA(mw_impl_views(ch, &impls[i], bi, o->seed, &c, &in, &v, &have_views));
        if (footprint && strcmp(impls[i].kind, "roof") != 0)
            footprint_row(footprint, ch, &impls[i], &c, &v);
        row *r = &rn->rows[rn->n++];
        *r = measure(ch, o, bi, &c, &impls[i], timer, roof_values, &in, &v);
        if (strcmp(r->flag, "faster-than-roof") == 0)
            fprintf(stderr, "bench: %s is faster than the measured roof allows: check it\n",
                    impls[i].name);
        mw_views_free_workspace(&v);
    }
    if (have_views)
        mw_views_free(&v);
}

/* Room for a run of `cases` bench cases: its rows, then their facts. */
typedef struct run_space {
    run rn;
    mw_bench_row *rows;
    mw_row_facts *facts;
} run_space;

static int run_alloc(run_space *sp, int cases)
{
    size_t n = (size_t)cases * MW_MAX_IMPLS;
    sp->rn = (run){calloc(n, sizeof(row)), 0};
    sp->rows = calloc(n, sizeof *sp->rows);
    sp->facts = calloc(n, sizeof *sp->facts);
    if (sp->rn.rows && sp->rows && sp->facts)
        return 0;
    fprintf(stderr, "bench: out of memory\n");
    return -1;
}

static void run_free(run_space *sp)
{
    free(sp->rn.rows);
    free(sp->rows);
    free(sp->facts);
}

/* The terminal's table, the roofs and the chapter's verdict. */
static void report(const mw_chapter *ch, const run_space *sp, const mw_roof_values *roof_values)
{
    print_table(ch, sp->rows, sp->facts, sp->rn.n,
                ch->bench_x(&ch->bench_cases[ch->nbench - 1]));
    print_roofs(roof_values);
    mw_result *res = verdict_results(sp->rows, sp->facts, sp->rn.n);
    /* The verdicts compare with the copy bandwidth, whatever the chapter's roof. */
    if (res)
        ch->verdict(res, sp->rn.n, mw_roof_value(roof_values, &mw_roofs, "copy"));
    free(res);
}

int mw_cmd_bench(const mw_chapter *ch, const mw_bench_opts *o)
{
    mw_devinfo info;
    char why[512], path[4096];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        printf("bench: %s; skipped\n", why);
        return 77;
    }
    mw_devinfo_read_clocks(&info); /* env.csv records them, as they were at the start */
    mw_roof_values roof_values;
    if (mw_roof_cache_get(o->results_root, info.dir, info.name, o->force_roofs, &roof_values) != 0)
        return 2;
    run_space sp;
    if (run_alloc(&sp, ch->nbench) != 0)
        return 2;
    mw_impl impls[MW_MAX_IMPLS];
    int nimpl = mw_impls_load(ch, o, impls);
    mw_timer timer;
    MW_CUDA(mw_timer_init(&timer, info.l2_bytes, 0));

    snprintf(path, sizeof path, "%s/%s/%s/bench.csv", o->results_root, info.dir, ch->id);
    mw_csv csv;
    if (mw_csv_open(&csv, path, bench_header) != 0)
        return 2;
    mw_csv fcsv;
    int with_footprint = any_workspace(ch);
    snprintf(path, sizeof path, "%s/%s/%s/footprint.csv", o->results_root, info.dir, ch->id);
    if (with_footprint && mw_csv_open(&fcsv, path, footprint_header) != 0)
        return 2;
    printf("memwall bench %s on %s, seed %llu: %d implementations, %d sizes\n", ch->id,
           info.name, (unsigned long long)o->seed, nimpl, ch->nbench);
    for (int bi = 0; bi < ch->nbench; bi++) {
        bench_case(ch, o, bi, impls, nimpl, &timer, &roof_values, with_footprint ? &fcsv : NULL,
                   &sp.rn);
        char label[32];
        mw_size_label(ch->bench_x(&ch->bench_cases[bi]), label, sizeof label);
        printf("  size %-8s done (%d implementations)\n", label, nimpl);
        fflush(stdout);
    }
    if (write_run(&csv, ch, &sp.rn, &roof_values, sp.rows, sp.facts) != 0 ||
        (with_footprint && mw_csv_close(&fcsv) != 0))
        return 2;
    snprintf(path, sizeof path, "%s/%s/%s/env.csv", o->results_root, info.dir, ch->id);
    mw_devinfo_write_env(path, &info, ch->id, ch->title, ch->size_label, o->seed);
    report(ch, &sp, &roof_values);
    printf("\nwrote %s/%s/%s/bench.csv\n", o->results_root, info.dir, ch->id);
    mw_impls_free(impls, nimpl);
    mw_timer_free(&timer);
    run_free(&sp);
    return 0;
}

int mw_cmd_perf(const mw_chapter *ch, const mw_bench_opts *o, double size, const char *out)
{
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        printf("perf: %s; skipped\n", why);
        return 77;
    }
    int bi = -1; /* the first bench case of that size (chapter 05: not causal) */
    for (int i = 0; i < ch->nbench && bi < 0; i++)
        if (ch->bench_x(&ch->bench_cases[i]) == size)
            bi = i;
    if (bi < 0) {
        fprintf(stderr, "perf: %s has no bench size %.0f\n", ch->id, size);
        return 2;
    }
    mw_roof_values roof_values;
    if (mw_roof_cache_get(o->results_root, info.dir, info.name, 0, &roof_values) != 0)
        return 2;
    mw_impl impls[MW_MAX_IMPLS];
    int nimpl = mw_impls_load(ch, o, impls);
    mw_timer timer;
    MW_CUDA(mw_timer_init(&timer, info.l2_bytes, 0));
    mw_csv csv;
    run_space sp;
    if (run_alloc(&sp, 1) != 0 || mw_csv_open(&csv, out, bench_header) != 0)
        return 2;
    bench_case(ch, o, bi, impls, nimpl, &timer, &roof_values, NULL, &sp.rn);
    int rc = write_run(&csv, ch, &sp.rn, &roof_values, sp.rows, sp.facts) == 0 ? 0 : 2;
    mw_impls_free(impls, nimpl);
    mw_timer_free(&timer);
    run_free(&sp);
    return rc;
}
