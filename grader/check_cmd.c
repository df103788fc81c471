/* check_cmd.c: `check`, every case of every version, isolated from crashes and
 * hangs.
 *
 * The parent process never touches CUDA. It forks a child that runs the
 * jobs (version x case) in order and reports each over a pipe: "B j" when
 * job j begins, "L text" for a line to print, "R j status" when it ends. If
 * the child dies (an illegal address poisons its CUDA context; a segfault)
 * or job j outlives the timeout, the parent reports job j as a crash or a
 * timeout, kills what is left, and forks a fresh child from job j+1. The
 * forking, reading and killing are supervise.c's; what they mean for the
 * grade is this file's. */
#define _GNU_SOURCE
#include "check_cmd.h"

#include "csv.h"
#include "devinfo.h"
#include "emulation.h"
#include "gpu_limits.h"
#include "harness.h"
#include "proc.h"
#include "sanitize_step.h"
#include "stream_rule.h"
#include "supervise.h"
#include "timing.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { ST_PASS, ST_FAIL, ST_ERROR, ST_NOTIMPL, ST_SKIP, ST_COUNT };
static const char *status_word[ST_COUNT] = {"PASS", "FAIL", "ERROR", "TODO", "SKIP"};

/* A job's status plus whether the child's CUDA context survived it. */
typedef struct job_result {
    int status;
    int fatal;
} job_result;

typedef struct job {
    int version, kase;
} job;

typedef struct tally tally;

typedef struct checker {
    const mw_chapter *ch;
    const mw_check_opts *opt;
    job *jobs;
    int njobs;
    int out_fd;     /* child: where reports go */
    tally *direct;  /* in-process mode: reports go straight to this tally */
    int current;    /* the job in flight, -1 between jobs */
    double started; /* when it began */
    cudaStream_t stream; /* child: the launchers' stream (non-blocking) */
    int on_sample;       /* the job in flight runs on a sample of its blocks (emulation.h) */
} checker;

static void handle_line(checker *k, tally *t, const char *line);

/* ---- the child's side ---------------------------------------------------- */

static void report(checker *k, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (k->direct)
        handle_line(k, k->direct, text);
    else
        dprintf(k->out_fd, "%s\n", text);
}

/* A job that ended in an error: its line, the reason (possibly several
 * lines), and the result. */
static void report_error(checker *k, int jnum, const char *label, const char *why)
{
    report(k, "L   %-5s %s", "ERROR", label);
    const char *p = why;
    while (*p) {
        size_t len = strcspn(p, "\n");
        report(k, "L         %.*s", (int)len, p);
        p += len + (p[len] == '\n');
    }
    report(k, "R %d %d", jnum, ST_ERROR);
}

static void case_label(const checker *k, const job *j, char *text, size_t len)
{
    char shape[160];
    const mw_case *c = &k->ch->cases[j->kase];
    k->ch->describe(c, shape, sizeof shape);
    snprintf(text, len, "%-*s %-8s %s%s", mw_version_width(k->ch),
             k->ch->versions[j->version].file, c->group, shape,
             mw_gpu_emulated() ? " (emulated)" : "");
}

static void report_status(checker *k, int jnum, int status, const char *label)
{
    report(k, "L   %-5s %s", status_word[status], label);
    report(k, "R %d %d", jnum, status);
}

/* A case not run, and why: "SKIP label: why". */
static void report_skip(checker *k, int jnum, const char *label, const char *why)
{
    report(k, "L   %-5s %s: %s", status_word[ST_SKIP], label, why);
    report(k, "R %d %d", jnum, ST_SKIP);
}

/* The flat output index (the reference's) of element `local` of buffer b. */
static size_t flat_index(const mw_views *v, int b, size_t local)
{
    size_t first = 0;
    for (int o = 0; o < v->nout && v->out[o] != b; o++)
        first += v->spec[v->out[o]].count;
    return first + local;
}

/* The chapter's known mistakes that explain every wrong element shown, in
 * every output, as hints. */
static int mistake_hints(const checker *k, const mw_case *c, const mw_inputs *in,
                         const mw_views *v, const mw_checked *r, char hints[][256], int max)
{
    int count = 0;
    for (int i = 0; i < k->ch->nmistakes && r->wrong > 0 && count < max; i++) {
        const mw_mistake *mk = &k->ch->mistakes[i];
        if (mk->applies && !mk->applies(c))
            continue;
        /* A NaN the mistake predicts is evidence only where the inputs hold
         * no NaN of their own: there, NaN meeting NaN says nothing. */
        int inputs_nan = mw_gen_has_nan(c->gen);
        int all = 1, some_number = !inputs_nan;
        for (int o = 0; o < v->nout && all; o++) {
            const mw_mismatch *m = &r->per[v->out[o]];
            mw_tol tol = mw_tolerance_of(k->ch, c, v->out[o]);
            for (int j = 0; j < m->nshow && all; j++) {
                double value = mk->value(c, in, flat_index(v, v->out[o], m->show_index[j]));
                all = mw_matches(m->show_got[j], value, tol);
                some_number |= !isnan(value);
            }
        }
        if (all && some_number)
            snprintf(hints[count++], 256, "%s", mk->message);
    }
    return count;
}

/* Element `local` of output buffer b, as the report names it. */
static void element_name(const checker *k, const mw_case *c, const mw_views *v, int b,
                         size_t local, char *text, size_t len)
{
    if (k->ch->name_element)
        k->ch->name_element(c, flat_index(v, b, local), text, len);
    else if (v->nout > 1)
        snprintf(text, len, "%s[%zu]", v->spec[b].name, local);
    else
        snprintf(text, len, "[%zu]", local);
}

/* 1 when every element shown of buffer b holds the reference's value at
 * source(shown index), a different element each. */
static int shown_are_moved(const checker *k, const mw_case *c, const mw_inputs *in,
                           const mw_views *v, int b, const mw_mismatch *m, const int *perm,
                           int shift)
{
    mw_tol tol = mw_tolerance_of(k->ch, c, b);
    size_t count = v->spec[b].count;
    for (int j = 0; j < m->nshow; j++) {
        size_t at = m->show_index[j];
        size_t from = perm ? mw_shape_permuted(&m->shape, perm, at) : at + (size_t)shift;
        if (from == at || from >= count || !isfinite(m->show_got[j]) ||
            !mw_matches(m->show_got[j], k->ch->reference(c, in, flat_index(v, b, from)), tol))
            return 0;
    }
    return 1;
}

/* Output b's wrong values, where each shown is the reference's value of
 * another element: the whole output laid out with its axes in another
 * order (transposed, two axes swapped), or shifted by one. Asks the
 * reference for up to 25 other elements of each shown one: skipped for a
 * sampled case, whose reference can cost seconds an element. */
static int layout_hint(const checker *k, const mw_case *c, const mw_inputs *in,
                       const mw_views *v, int b, const mw_mismatch *m, char *text)
{
    const mw_shape *s = &m->shape;
    if (s->naxes == 0 || !s->full || m->nshow < 2 || m->unwritten > 0)
        return 0;
    int perm[MW_LOC_AXES] = {0, 1, 2, 3};
    char want[64], as[64];
    mw_shape_layout_text(s, NULL, want, sizeof want);
    while (s->naxes > 1 && mw_shape_next_perm(perm, s->naxes))
        if (shown_are_moved(k, c, in, v, b, m, perm, 0)) {
            mw_shape_layout_text(s, perm, as, sizeof as);
            snprintf(text, 256,
                     "%s%seach wrong value is the reference's at another element, as if the "
                     "output were laid out %s, not %s: %s",
                     v->nout > 1 ? v->spec[b].name : "", v->nout > 1 ? ": " : "", as, want,
                     s->naxes == 2 ? "it is written transposed" : "the index mixes up the axes");
            return 1;
        }
    for (int shift = -1; shift <= 1; shift += 2)
        if (shown_are_moved(k, c, in, v, b, m, NULL, shift)) {
            snprintf(text, 256,
                     "%s%seach wrong value is the reference's at the element %s it: an index "
                     "off by one",
                     v->nout > 1 ? v->spec[b].name : "", v->nout > 1 ? ": " : "",
                     shift < 0 ? "before" : "after");
            return 1;
        }
    return 0;
}

/* The localisation of each wrong output: how, then where (locate.h). */
static int locate_hints(const checker *k, const mw_case *c, const mw_inputs *in,
                        const mw_views *v, const mw_checked *r, char hints[][256], int max)
{
    int count = 0;
    for (int o = 0; o < v->nout && count < max; o++) {
        int b = v->out[o];
        const mw_mismatch *m = &r->per[b];
        char text[256];
        if (m->wrong == 0)
            continue;
        if (layout_hint(k, c, in, v, b, m, hints[count])) {
            count++;
        } else if (mw_locate_hint(&m->loc, &m->shape, text, sizeof text)) {
            snprintf(hints[count++], 256, "%s%s%s", v->nout > 1 ? v->spec[b].name : "",
                     v->nout > 1 ? ": " : "", text);
        }
    }
    return count;
}

/* Drops hints[i] that repeat an earlier one; returns the count left. */
static int unique_hints(char hints[][256], int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++)
            seen = strcmp(hints[j], hints[i]) == 0;
        if (!seen && kept != i)
            memcpy(hints[kept], hints[i], 256);
        kept += !seen;
    }
    return kept;
}

enum { MAX_HINTS = 12 };

/* A wrong case with a buffer past 2^31 elements, the workspace included,
 * where no hint so far named an index limit: the output's own index
 * patterns see only the output, and a 32-bit index into a larger input or
 * scratch buffer wraps into rows far from any the output shows (the
 * unfused scores at N = 65537: rows 0, 1, 65535 and 65536 wrong). */
static int limit_hint(const mw_views *v, char hints[][256], int nh, int max)
{
    const size_t two31 = (size_t)1 << 31, two32 = (size_t)1 << 32;
    int biggest = -1;
    for (int b = 0; b <= v->nbufs && b <= MW_MAX_BUFS; b++)
        if (v->view[b] && v->spec[b].count > two31 &&
            (biggest < 0 || v->spec[b].count > v->spec[biggest].count))
            biggest = b;
    if (biggest < 0 || nh >= max)
        return 0;
    for (int i = 0; i < nh; i++)
        if (strstr(hints[i], "2^31") || strstr(hints[i], "2^32"))
            return 0;
    const size_t count = v->spec[biggest].count;
    snprintf(hints[nh], 256,
             "%s holds %zu elements, past %s: an index into it computed in 32 bits (int, "
             "unsigned, or a product such as blockIdx.x * blockDim.x) wraps there; if the "
             "smaller cases pass, compute it in size_t",
             v->spec[biggest].name, count, count > two32 ? "2^32" : "2^31");
    return 1;
}

/* The hints of a failed case, most specific first, so that the first one
 * a student reads names the cause: what happened around the run (writes
 * off the stream or out of bounds, a changed input, a race); the
 * chapter's named mistakes, recognised by value; its explain hook; the
 * index patterns that name their cause (a tail never written, 2^31), and a
 * buffer past 2^31 where none did; the localisation; last what is true but
 * unspecific. */
static int case_hints(checker *k, const mw_case *c, const mw_inputs *in, const mw_views *v,
                      const mw_checked *r, const mw_run_findings *f, char hints[][256])
{
    int nh = mw_diagnose_run(f, hints, MAX_HINTS);
    nh += mistake_hints(k, c, in, v, r, hints + nh, MAX_HINTS - nh);
    if (k->ch->explain)
        nh += k->ch->explain(c, in, r->per, hints + nh, MAX_HINTS - nh);
    mw_run_findings findings;
    memset(&findings, 0, sizeof findings);
    findings.sampled = f->sampled;
    for (int o = 0; o < v->nout; o++) {
        findings.n = v->spec[v->out[o]].count;
        nh += mw_diagnose_pattern(&r->per[v->out[o]], &findings, hints + nh, MAX_HINTS - nh);
    }
    nh += limit_hint(v, hints, nh, MAX_HINTS);
    nh += locate_hints(k, c, in, v, r, hints + nh, MAX_HINTS - nh);
    for (int o = 0; o < v->nout; o++) {
        findings.n = v->spec[v->out[o]].count;
        nh += mw_diagnose_weak(&r->per[v->out[o]], &findings, hints + nh, MAX_HINTS - nh);
    }
    return unique_hints(hints, nh);
}

static void report_mismatch(checker *k, const mw_case *c, const mw_inputs *in,
                            const mw_views *v, const mw_checked *r, const mw_run_findings *f)
{
    char hints[MAX_HINTS][256];
    for (int o = 0; o < v->nout; o++) {
        int b = v->out[o];
        const mw_mismatch *m = &r->per[b];
        if (m->wrong == 0)
            continue;
        report(k, "L         %zu of %zu %s elements%s%s wrong (%zu never written)", m->wrong,
               m->checked, f->sampled ? "sampled" : "checked", v->nout > 1 ? " of " : "",
               v->nout > 1 ? v->spec[b].name : "", m->unwritten);
        for (int i = 0; i < m->nshow; i++) {
            int poison = mw_float_bits(m->show_got[i]) == MW_POISON_BITS;
            char name[96];
            element_name(k, c, v, b, m->show_index[i], name, sizeof name);
            report(k, "L         %s got %.9g%s, expected %.9g", name, (double)m->show_got[i],
                   poison ? " (never written)" : "", m->show_ref[i]);
        }
    }
    int nh = case_hints(k, c, in, v, r, f, hints);
    for (int i = 0; i < nh; i++)
        report(k, "L         hint: %s", hints[i]);
}

static int bits_differ(const float *a, const float *b, size_t n)
{
    return n > 0 && memcmp(a, b, n * sizeof *a) != 0;
}

/* The launcher of one case, as mw_stream_rule_run calls it. */
typedef struct launch_call {
    const mw_chapter *ch;
    void *fn;
    const mw_case *c;
    mw_views *v;
} launch_call;

static cudaError_t call_launcher(void *arg, cudaStream_t stream)
{
    launch_call *l = arg;
    return l->ch->launch(l->fn, l->c, l->v->view, stream);
}

/* A case run on a sample of its blocks (emulation.h) says so in its line,
 * with how many of its grid's blocks ran; a launch refused before any grid
 * ran (its configuration) ran no sample, and its line says so. */
static void sample_note(const checker *k, char *label, size_t len)
{
    uint64_t ran, of;
    int too_small;
    char *at = strstr(label, " (emulated"); /* plain, or the last run's note */
    if (!k->on_sample || !at)
        return;
    mw_gpu_sample_count(&ran, &of, &too_small);
    if (of == 0)
        snprintf(at, len - (size_t)(at - label), " (emulated)");
    else
        snprintf(at, len - (size_t)(at - label), " (emulated on a sample: %llu of %llu blocks)",
                 (unsigned long long)ran, (unsigned long long)of);
}

/* One launch on the harness's stream, plus synchronize; a CUDA error is
 * reported and is fatal. With `judge`, the launcher's stream is recorded
 * rather than run until the rest of its work is done, *outside receives
 * the output elements that work wrote (-1: could not tell) and *unjoined
 * whether it forked work it never joined (stream_rule.h). */
static int launch_once(checker *k, void *fn, const mw_case *c, mw_views *v, char *label,
                       size_t label_len, int jnum, job_result *res, int judge, long long *outside,
                       int *unjoined)
{
    launch_call call = {k->ch, fn, c, v};
    cudaError_t ran = cudaSuccess;
    *outside = -1;
    *unjoined = 0;
    cudaError_t err = judge ? mw_stream_rule_run(k->stream, v, call_launcher, &call, outside, &ran,
                                                 unjoined)
                            : call_launcher(&call, k->stream);
    if (err == MW_NOT_IMPLEMENTED) {
        res->status = ST_NOTIMPL;
        mw_gpu_sync();
        return -1;
    }
    cudaError_t last = mw_gpu_take_error();
    cudaError_t sync = mw_gpu_sync();
    if (sync == cudaSuccess)
        sync = ran;
    sample_note(k, label, label_len);
    const char *what = "the launcher returned an error";
    if (err == cudaSuccess) {
        err = last != cudaSuccess ? last : sync;
        what = last != cudaSuccess ? "launch failed" : "kernel failed";
    }
    if (err == cudaSuccess)
        return 0;
    char text[1024];
    mw_format_cuda_error(text, sizeof text, what, err);
    report_error(k, jnum, label, text);
    res->status = ST_ERROR;
    res->fatal = 1; /* the context may be poisoned: start a fresh process */
    return -1;
}

/* Job j's case as its version runs it (its op), and the version's
 * workspace for it in floats. */
static mw_case job_case(const checker *k, const job *j, size_t *workspace_floats)
{
    const mw_version *ver = &k->ch->versions[j->version];
    mw_case c = mw_case_for(&k->ch->cases[j->kase], ver->op);
    *workspace_floats = ver->workspace ? ver->workspace(&c) : 0;
    return c;
}

/* Why job j is not run in the emulation: "past the emulation's budget (W
 * units of work, B allowed)", then ", " and `more` where it is not empty,
 * then ": a GPU runs it". */
static void budget_phrase(const checker *k, const job *j, const char *more, char *why,
                          size_t len)
{
    size_t ws;
    const mw_case c = job_case(k, j, &ws);
    snprintf(why, len,
             "past the emulation's budget (%.3g units of work, %.3g allowed)%s%s: a GPU runs it",
             mw_emulation_work(k->ch, &c, ws), mw_emulation_budget(k->ch), more[0] ? ", " : "",
             more);
}

/* On the emulation, whether job j's case is past the chapter's budget;
 * then `why` says so, with the numbers. */
static int past_emulation_budget(const checker *k, const job *j, char *why, size_t len)
{
    if (!mw_gpu_emulated())
        return 0;
    size_t ws;
    const mw_case c = job_case(k, j, &ws);
    if (mw_emulation_work(k->ch, &c, ws) <= mw_emulation_budget(k->ch) ||
        mw_emulation_on_sample(k->ch, &c, ws))
        return 0;
    budget_phrase(k, j, "", why, len);
    return 1;
}

/* A case that cannot be judged on a sample is skipped: past the budget,
 * and why not on a sample (`reason`); its line without the sample's note. */
static void skip_on_sample(checker *k, const job *j, int jnum, const char *label,
                           const char *reason)
{
    char why[400];
    budget_phrase(k, j, reason, why, sizeof why);
    char plain[256];
    snprintf(plain, sizeof plain, "%s", label);
    char *at = strstr(plain, " (emulated on a sample");
    if (at)
        snprintf(at, sizeof plain - (size_t)(at - plain), " (emulated)");
    report_skip(k, jnum, plain, why);
}

/* On a sample: a grid too small to give each checked output a block of
 * its own (a grid-stride loop), one whose blocks the chapter cannot name or
 * whose sample costs too much (the picker's reason in s->why) was not run,
 * or one whose blocks reached too many pages was stopped; the case is
 * skipped, saying so. 1 when it was. */
static int grid_too_small(checker *k, const job *j, int jnum, const char *label,
                          const mw_emulation_sample *s)
{
    uint64_t ran, of;
    int too_small;
    mw_gpu_sample_count(&ran, &of, &too_small);
    if (!too_small)
        return 0;
    skip_on_sample(k, j, jnum, label,
                   too_small == MW_GPU_SAMPLE_SCATTERED
                       ? "and its blocks reach further into the buffers than a sample can follow "
                         "(outputs not where the reference's layout puts them)"
                   : s->why[0] ? s->why
                               : "and a grid too small to run on a sample (no block of its own "
                                 "for each checked output: a grid-stride loop?)");
    return 1;
}

/* On a sample: whether the kernel wrote pages of an output where no picked
 * block's elements lie (mw_emulation_strays). -1: no memory. */
static int sample_strays(const mw_views *v, const mw_emulation_sample *s)
{
    enum { CAP = MW_GPU_SAMPLE_PAGES }; /* no sample touches more */
    size_t *firsts = malloc(CAP * sizeof *firsts), first = 0;
    if (!firsts)
        return -1;
    int strays = 0;
    for (int i = 0; i < v->nout && !strays; i++) {
        int b = v->out[i];
        size_t count = v->spec[b].count, elem = mw_type_size(v->spec[b].type);
        size_t n = mw_gpu_sample_touched(v->view[b], count, elem, firsts, CAP);
        strays = n > CAP || mw_emulation_strays(s, firsts, n, count, elem, first);
        first += count;
    }
    free(firsts);
    return strays;
}

/* After a job: no sample for the next one, whatever ended this one. */
static void end_sample(checker *k, mw_emulation_sample *sample)
{
    mw_gpu_sample_blocks(NULL, NULL);
    free((void *)sample->idx);
    sample->idx = NULL;
    mw_emulation_sample_free(sample);
    k->on_sample = 0;
    mw_sample_on_blocks(0);
}

static job_result run_job(checker *k, int jnum, mw_loaded *lib)
{
    const job *j = &k->jobs[jnum];
    size_t ws;
    mw_case this_case = job_case(k, j, &ws);
    const mw_case *c = &this_case;
    job_result res = {ST_ERROR, 0};
    char label[256], text[1024];
    case_label(k, j, label, sizeof label);

    if (lib->skipped) { /* built for an older GPU than it needs */
        report_skip(k, jnum, label, lib->error);
        res.status = ST_SKIP;
        return res;
    }
    if (lib->missing && k->ch->versions[j->version].optional) {
        res.status = ST_NOTIMPL; /* an optional version not handed in: not attempted */
        report_status(k, jnum, ST_NOTIMPL, label);
        return res;
    }
    if (!lib->fn) {
        report_error(k, jnum, label, lib->error);
        return res;
    }
    char why[160];
    if (past_emulation_budget(k, j, why, sizeof why)) {
        report_skip(k, jnum, label, why);
        res.status = ST_SKIP;
        return res;
    }
    /* On a sample, its buffers are mapped lazily: they take the pages the
     * sample touches (grader/sim/lazy.c), not their size. */
    k->on_sample = mw_gpu_emulated() && mw_emulation_on_sample(k->ch, c, ws);
    mw_sample_on_blocks(k->on_sample);
    /* Checked on its sample there, as a sampled case is. */
    if (k->on_sample)
        this_case.sampled = 1;
    size_t need = mw_case_bytes(k->ch, c) + mw_workspace_bytes(ws), free_b = 0, total_b = 0;
    mw_gpu_query_memory(&free_b, &total_b);
    if (!k->on_sample && need + ((size_t)1 << 30) > free_b) {
        snprintf(why, sizeof why, "needs %.1f GiB%s, the GPU has %.1f GiB free",
                 need / 1073741824.0, ws ? " with its workspace" : "", free_b / 1073741824.0);
        report_skip(k, jnum, label, why);
        res.status = ST_SKIP;
        return res;
    }
    mw_inputs in = mw_case_inputs_for(k->ch, c, j->kase, k->opt->seed);
    /* Each case its own order of blocks and warps, replayed with its seed. */
    mw_gpu_schedule_seed(mw_hash(in.seed, 0x5eed, (uint64_t)j->kase));
    mw_views v;
    cudaError_t err = mw_views_alloc(k->ch, c, &v);
    if (err == cudaSuccess)
        err = mw_views_fill(&v, &in, 0);
    if (err == cudaSuccess)
        err = mw_views_alloc_workspace(&v, ws, 0);
    /* On a sample: the blocks its checked outputs need (emulation.h). */
    mw_emulation_sample sample = {.ch = k->ch, .c = c};
    if (err == cudaSuccess && k->on_sample) {
        sample.idx = mw_sample_indices(k->ch, v.out_total, in.seed, &sample.count);
        if (!sample.idx)
            err = cudaErrorMemoryAllocation;
        else
            mw_gpu_sample_blocks(mw_emulation_pick, &sample);
    }
    /* Set up on the legacy stream; the launcher's stream does not wait for it. */
    if (err == cudaSuccess)
        err = mw_gpu_sync();
    if (err != cudaSuccess) {
        mw_format_cuda_error(text, sizeof text, "harness could not set up the case", err);
        report_error(k, jnum, label, text);
        res.fatal = 1;
        end_sample(k, &sample);
        return res;
    }

    /* Two runs on the same inputs: a race shows as a difference. */
    mw_checked m[2];
    float *copy[2] = {NULL, NULL};
    size_t count[2] = {0, 0};
    mw_run_findings findings = {0};
    findings.n = v.out_total;
    findings.sampled = c->sampled;
    long long outside = -1;
    for (int run = 0; run < 2 && res.status == ST_ERROR; run++) {
        if (run == 1 && (err = mw_views_poison_output(&v, 0)) != cudaSuccess)
            break;
        if (run == 1 && (err = mw_gpu_sync()) != cudaSuccess)
            break;
        /* The second run is checked against the stream rule
         * (stream_rule.h). Not the first: a launcher may tune itself on its
         * first call, synchronizing, which a capture forbids. */
        long long seen = -1;
        int forked = 0;
        mw_gpu_schedule_run(run);
        if (launch_once(k, lib->fn, c, &v, label, sizeof label, jnum, &res, run == 1, &seen,
                        &forked) != 0)
            goto done;
        if (k->on_sample && grid_too_small(k, j, jnum, label, &sample)) {
            res.status = ST_SKIP;
            goto done;
        }
        if (k->on_sample && sample_strays(&v, &sample) != 0) {
            skip_on_sample(k, j, jnum, label,
                           "and its blocks write outputs where the reference's layout puts "
                           "none of the sampled ones (another layout: which block writes a "
                           "sampled output, a sample cannot tell)");
            res.status = ST_SKIP;
            goto done;
        }
        if (run == 1)
            outside = seen, findings.forked_unjoined = forked;
        err = mw_check_output(k->ch, c, &in, &v, 0, &m[run], &copy[run], &count[run]);
        if (err != cudaSuccess)
            break;
        if (run == 1)
            res.status = ST_PASS; /* provisional; decided below */
    }
    if (err == cudaSuccess)
        err = mw_check_surroundings(&v, &in, &findings);
    if (err != cudaSuccess) {
        mw_format_cuda_error(text, sizeof text, "harness check failed", err);
        report_error(k, jnum, label, text);
        res.status = ST_ERROR;
        res.fatal = 1;
        goto done;
    }
    findings.runs_differ = count[0] == count[1] && bits_differ(copy[0], copy[1], count[0]);
    findings.written_off_stream = outside > 0 ? (size_t)outside : 0;
    const mw_checked *worst = m[1].wrong > m[0].wrong ? &m[1] : &m[0];
    /* Two runs that differ but are both within tolerance pass: a summation
     * order that changes from run to run (split-K with atomics) is correct,
     * only not reproducible. Differing runs that fail are called a race. */
    int clean = findings.guard_before == 0 && findings.guard_after == 0 &&
                findings.input_guard == 0 && !findings.input_changed &&
                findings.written_off_stream == 0 && !findings.forked_unjoined;
    res.status = (worst->wrong == 0 && clean) ? ST_PASS : ST_FAIL;
    report(k, "L   %-5s %s", status_word[res.status], label);
    if (res.status == ST_PASS && findings.runs_differ)
        report(k, "L         note: the two runs differ bitwise, both within tolerance: the "
                  "order of the sums changes from run to run (atomics?); correct, but not "
                  "reproducible");
    if (res.status == ST_FAIL) {
        report_mismatch(k, c, &in, &v, worst, &findings);
    }
    report(k, "R %d %d", jnum, res.status);
done:
    if (res.status == ST_NOTIMPL)
        report_status(k, jnum, ST_NOTIMPL, label);
    free(copy[0]);
    free(copy[1]);
    mw_views_free(&v);
    end_sample(k, &sample);
    return res;
}

/* Runs jobs from `first` on; returns the child's exit code. */
static int run_jobs(checker *k, int first)
{
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        report(k, "N %s", why);
        return 77;
    }
    report(k, "G %s", info.name);
    cudaError_t stream_err = mw_gpu_stream_create(&k->stream);
    if (stream_err != cudaSuccess) {
        report(k, "N the harness could not create its stream: %s", mw_gpu_error_string(stream_err));
        return 77;
    }
    int nv = k->ch->nversions;
    mw_loaded *libs = calloc((size_t)nv, sizeof *libs);
    int *loaded = calloc((size_t)nv, sizeof *loaded), *notimpl = calloc((size_t)nv, sizeof *notimpl);
    for (int jnum = first; jnum < k->njobs; jnum++) {
        int vi = k->jobs[jnum].version;
        if (!loaded[vi]) {
            mw_load_version(k->opt->lib_dir, &k->ch->versions[vi], &libs[vi]);
            loaded[vi] = 1;
        }
        report(k, "B %d", jnum);
        if (notimpl[vi]) {
            report(k, "R %d %d", jnum, ST_NOTIMPL);
            continue;
        }
        job_result r = run_job(k, jnum, &libs[vi]);
        if (r.status == ST_NOTIMPL)
            notimpl[vi] = 1;
        if (r.fatal)
            return 3; /* the process ends: nothing to free */
    }
    free(libs);
    free(loaded);
    free(notimpl);
    mw_gpu_stream_destroy(k->stream);
    return 0;
}

/* ---- the parent's side --------------------------------------------------- */

struct tally {
    int n[ST_COUNT];
    char **detail; /* per job: its diagnostic lines, for --results */
    int *status; /* per job, -1 until known */
    double *seconds; /* per job: wall time from its start to its result */
    int nogpu;
    char gpu[256];
};

static void record(const checker *k, tally *t, int jnum, int status)
{
    if (jnum < 0 || t->status[jnum] >= 0)
        return;
    t->status[jnum] = status;
    t->n[status]++;
    if (jnum == k->current)
        t->seconds[jnum] = mw_now_s() - k->started;
}

/* Keeps a job's diagnostics (up to 2 KB) for the results file. */
static void append_detail(tally *t, int jnum, const char *text)
{
    char *old = t->detail[jnum];
    size_t len = old ? strlen(old) : 0;
    if (len > 2048)
        return;
    char *grown = realloc(old, len + strlen(text) + 4);
    if (!grown)
        return;
    snprintf(grown + len, strlen(text) + 4, "%s%s", len ? " | " : "", text);
    t->detail[jnum] = grown;
}

/* One protocol line from the job runner: print, or record. */
static void handle_line(checker *k, tally *t, const char *line)
{
    if (line[0] == 'L') {
        const char *text = line[1] ? line + 2 : "";
        printf("%s\n", text);
        if (k->current >= 0 && strncmp(text, "        ", 8) == 0)
            append_detail(t, k->current, text + 8);
    } else if (line[0] == 'B') {
        k->current = atoi(line + 2);
        k->started = mw_now_s();
    } else if (line[0] == 'R') {
        int jnum, status;
        if (sscanf(line + 2, "%d %d", &jnum, &status) == 2 && status >= 0 && status < ST_COUNT)
            record(k, t, jnum, status);
        k->current = -1;
    } else if (line[0] == 'N') {
        printf("%s\n", line + 2);
        t->nogpu = 1;
    } else if (line[0] == 'G' && t->gpu[0] == '\0') { /* once, not per restart */
        snprintf(t->gpu, sizeof t->gpu, "%s", line + 2);
        printf("GPU: %s\n", t->gpu);
    }
    fflush(stdout);
}

static void print_lost_job(const checker *k, tally *t, int jnum, const char *why)
{
    append_detail(t, jnum, why);
    char label[256];
    case_label(k, &k->jobs[jnum], label, sizeof label);
    printf("  %-5s %s\n        %s\n", status_word[ST_ERROR], label, why);
    fflush(stdout);
}

/* A version that timed out on this many cases in a row (a kernel that
 * spins on every launch) is not run on its remaining cases: they are
 * recorded as timed out too, so that one hung kernel costs the batch a
 * few timeouts, not one per case. */
enum { TIMEOUTS_IN_A_ROW = 3 };
static const char *timeout_prefix = "timed out after";

/* After job `jnum` timed out: the next job to run. When it and the jobs
 * of its version just before it all timed out, the version's remaining
 * jobs are recorded as timed out without running. */
static int after_timeout(const checker *k, tally *t, int jnum)
{
    int version = k->jobs[jnum].version, row = 0;
    for (int j = jnum; j >= 0 && k->jobs[j].version == version; j--) {
        if (t->status[j] != ST_ERROR || !t->detail[j] ||
            strncmp(t->detail[j], timeout_prefix, strlen(timeout_prefix)) != 0)
            break;
        row++;
    }
    int next = jnum + 1;
    if (row < TIMEOUTS_IN_A_ROW)
        return next;
    char why[256];
    snprintf(why, sizeof why,
             "%s the time limit on each of the %d cases before it: not run, counted as timed out "
             "as well",
             timeout_prefix, TIMEOUTS_IN_A_ROW);
    for (; next < k->njobs && k->jobs[next].version == version; next++) {
        char skip[160], label[256];
        if (past_emulation_budget(k, &k->jobs[next], skip, sizeof skip)) {
            case_label(k, &k->jobs[next], label, sizeof label);
            printf("  %-5s %s: %s\n", status_word[ST_SKIP], label, skip);
            record(k, t, next, ST_SKIP);
            continue;
        }
        print_lost_job(k, t, next, why);
        record(k, t, next, ST_ERROR);
    }
    return next;
}

/* The seconds job `jnum` may run before it counts as hung: TIMEOUT, plus
 * --timeout-per-gib (default 2 s) per GiB its buffers hold. A correct
 * kernel of the simplest design can need that much on the largest cases:
 * chapter 04's one block per row has a single SM stream its row of 2^31
 * columns (16 GiB with the output, read three times and written, twice),
 * at tens of GB/s where the GPU moves thousands. `make mutants` asks for
 * 0.5 s, which its references stay inside (the slowest, that row with a
 * kernel that keeps four loads in flight, takes 10.6 s of 18 on the H100):
 * at 2 s every hung mutant would cost minutes. On the emulation, plus the
 * seconds the case's work may take there (mw_emulation_seconds): minutes
 * for a sample of chapter 05's, whose reference takes 10 s on one core and
 * more on a busy one; seconds for a case within the budget. */
static double time_limit(const checker *k, int jnum)
{
    const job *j = &k->jobs[jnum];
    const double limit =
        k->opt->timeout_s + k->opt->timeout_per_gib *
                                (double)mw_case_bytes(k->ch, &k->ch->cases[j->kase]) / 1073741824.0;
    if (!mw_gpu_emulated())
        return limit;
    size_t ws;
    const mw_case c = job_case(k, j, &ws);
    return limit + mw_emulation_seconds(k->ch, &c, ws);
}

/* The child that runs the jobs from `first` on, as supervise.h runs it. */
typedef struct job_child {
    checker *k;
    tally *t;
    int first;
} job_child;

static int child_run(void *ctx, int out_fd)
{
    job_child *c = ctx;
    c->k->out_fd = out_fd;
    return run_jobs(c->k, c->first);
}

static void child_line(void *ctx, const char *line)
{
    job_child *c = ctx;
    handle_line(c->k, c->t, line);
}

/* The child may stay silent until the job in flight reaches its time limit. */
static int child_wait_ms(void *ctx)
{
    const checker *k = ((job_child *)ctx)->k;
    /* Between jobs the child may be starting CUDA: allow a minute more. */
    double limit = k->current >= 0 ? time_limit(k, k->current) : k->opt->timeout_s + 60;
    return (int)fmax(0, (limit - (mw_now_s() - k->started)) * 1e3);
}

/* Forks a child from job `first`; supervises it; returns the next job to
 * start from (njobs when all are done). */
static int supervise(checker *k, tally *t, int first)
{
    job_child c = {k, t, first};
    k->current = -1;
    k->started = mw_now_s();
    mw_child_end end = mw_supervise(&(mw_child){child_run, child_line, child_wait_ms, &c});
    int timed_out = end.timed_out, wstatus = end.wstatus;
    if (t->nogpu)
        return k->njobs;
    int current = k->current;
    if (current >= 0 && t->status[current] < 0) {
        char why[256];
        double limit = time_limit(k, current);
        char beyond[64] = "";
        if (limit >= k->opt->timeout_s + 0.5)
            snprintf(beyond, sizeof beyond, " and %.0f s for the case's size", limit - k->opt->timeout_s);
        if (timed_out)
            snprintf(why, sizeof why,
                     "%s %.0f s (TIMEOUT=%.0f%s): the kernel never finished; an "
                     "endless loop, or a barrier that not every thread reaches?",
                     timeout_prefix, limit, k->opt->timeout_s, beyond);
        else if (WIFSIGNALED(wstatus))
            snprintf(why, sizeof why, "crashed: the process died of signal %d (%s)%s",
                     WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)),
                     WTERMSIG(wstatus) == SIGSEGV
                         ? ": host code touched memory it may not; does the launcher read or "
                           "write through a device pointer on the host?"
                         : "");
        else
            snprintf(why, sizeof why, "the process exited (status %d) in the middle of the case",
                     WEXITSTATUS(wstatus));
        print_lost_job(k, t, current, why);
        record(k, t, current, ST_ERROR);
        return timed_out ? after_timeout(k, t, current) : current + 1;
    }
    /* The child ended between jobs: go on from the first job not reported. */
    for (int jnum = first; jnum < k->njobs; jnum++)
        if (t->status[jnum] < 0)
            return timed_out || (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 3)
                       ? jnum
                       : (print_lost_job(k, t, jnum, "the grader's process ended unexpectedly"),
                          record(k, t, jnum, ST_ERROR), jnum + 1);
    return k->njobs;
}

/* Orders one version's jobs by the bytes of their cases, smallest first,
 * and in list order among equals (an insertion sort: a list is a few
 * hundred cases). For `make mutants`, where grading stops at a mutant's
 * first failure: cheapest first bounds what a kill costs. Most mutants
 * that pass the small cases die on a mid-sized one (chapter 04's sampled
 * 9 x 65536 case): largest first would make each pay for every larger
 * case before it (the 8 GiB row among them), minutes a mutant, while a
 * mutant wrong only past 2^31 columns pays for the smaller cases first, a
 * few seconds. */
static void sort_smallest_first(const mw_chapter *ch, job *jobs, int n)
{
    for (int i = 1; i < n; i++) {
        job j = jobs[i];
        size_t bytes = mw_case_bytes(ch, &ch->cases[j.kase]);
        int at = i;
        while (at > 0 && mw_case_bytes(ch, &ch->cases[jobs[at - 1].kase]) > bytes) {
            jobs[at] = jobs[at - 1];
            at--;
        }
        jobs[at] = j;
    }
}

/* racecheck's cases (--small --one-per-shape) are one per launch shape, or
 * per class where the chapter names them (mw_chapter.race_class): a race
 * follows from the shape, the views' offsets and the operation, not from
 * the values. racecheck tracks every shared-memory access of every block,
 * 0.3 to 14 s a case where memcheck takes milliseconds, so a class runs
 * its smallest case; the other tools keep every small case. */
static int same_shape(const mw_case *a, const mw_case *b)
{
    return memcmp(a->dim, b->dim, sizeof a->dim) == 0 &&
           memcmp(a->offset, b->offset, sizeof a->offset) == 0 && a->op == b->op &&
           a->shared_inputs == b->shared_inputs && a->at.limit == b->at.limit;
}

static int shape_seen(const mw_chapter *ch, int ci)
{
    for (int i = 0; i < ci; i++)
        if (same_shape(&ch->cases[i], &ch->cases[ci]))
            return 1;
    return 0;
}

/* --small's cases: not sampled, and at most 64 MiB. */
static int small_case(const mw_chapter *ch, const mw_case *c)
{
    return !c->sampled && mw_case_bytes(ch, c) <= ((size_t)64 << 20);
}

/* With the chapter's race_class: 1 when another small case of case ci's
 * class goes to racecheck instead, the smallest (the first of equals). */
static int race_class_taken(const mw_chapter *ch, int ci)
{
    char mine[160], other[160];
    ch->race_class(&ch->cases[ci], mine, sizeof mine);
    const size_t bytes = mw_case_bytes(ch, &ch->cases[ci]);
    for (int i = 0; i < ch->ncases; i++) {
        if (i == ci || !small_case(ch, &ch->cases[i]))
            continue;
        ch->race_class(&ch->cases[i], other, sizeof other);
        const size_t b = mw_case_bytes(ch, &ch->cases[i]);
        if (strcmp(mine, other) == 0 && (b < bytes || (b == bytes && i < ci)))
            return 1;
    }
    return 0;
}

static int race_duplicate(const mw_chapter *ch, int ci)
{
    return ch->race_class ? race_class_taken(ch, ci) : shape_seen(ch, ci);
}

static int build_jobs(checker *k)
{
    const mw_chapter *ch = k->ch;
    k->jobs = calloc((size_t)ch->nversions * (size_t)ch->ncases, sizeof *k->jobs);
    k->njobs = 0;
    for (int vi = 0; vi < ch->nversions; vi++) {
        const int first_of_version = k->njobs;
        const char *want = k->opt->only_version;
        if (want && strncmp(ch->versions[vi].file, want, strlen(want)) != 0)
            continue;
        if (k->opt->required_only && ch->versions[vi].optional)
            continue;
        for (int ci = 0; ci < ch->ncases; ci++) {
            const mw_case *c = &ch->cases[ci];
            const double bytes = (double)mw_case_bytes(ch, c);
            if (k->opt->small && !small_case(ch, c))
                continue;
            if (k->opt->small && k->opt->one_per_shape && race_duplicate(ch, ci))
                continue;
            if ((k->opt->below_bytes > 0 && bytes >= k->opt->below_bytes) ||
                (k->opt->from_bytes > 0 && bytes < k->opt->from_bytes))
                continue; /* make mutants: the cases a GPU holds four of, then the rest */
            k->jobs[k->njobs++] = (job){vi, ci};
        }
        if (k->opt->smallest_first)
            sort_smallest_first(ch, k->jobs + first_of_version, k->njobs - first_of_version);
        if (k->opt->smallest_first && k->opt->first_cases > 0 &&
            k->njobs - first_of_version > k->opt->first_cases)
            k->njobs = first_of_version + k->opt->first_cases;
    }
    return k->njobs;
}

/* Does a tiled dimension of the case leave a partial tile of 16? */
static int has_partial_tile(const mw_chapter *ch, const mw_case *c)
{
    for (int d = 0; d < 4; d++)
        if ((ch->tiled_dims & (1u << d)) && c->dim[d] % 16 != 0)
            return 1;
    return 0;
}

/* A pattern across cases: every failure has a size off the tiles, and a
 * case whose sizes are whole tiles passed. */
static void partial_tile_hint(const checker *k, const tally *t)
{
    if (!k->ch->tiled_dims)
        return;
    int bad = 0, bad_partial = 0, whole_passed = 0;
    for (int jnum = 0; jnum < k->njobs; jnum++) {
        const mw_case *c = &k->ch->cases[k->jobs[jnum].kase];
        int partial = has_partial_tile(k->ch, c);
        if (t->status[jnum] == ST_FAIL || t->status[jnum] == ST_ERROR) {
            bad++;
            bad_partial += partial;
        } else if (t->status[jnum] == ST_PASS && !partial) {
            whole_passed = 1;
        }
    }
    if (bad > 0 && bad == bad_partial && whole_passed)
        printf("hint: every failing case has a size that is not a multiple of 16, and cases "
               "of whole tiles pass: the last, partial tile needs bounds checks (rows past "
               "the end must not be read as data or written)\n");
}

/* A pattern across cases: every failure is on an offset (misaligned) view. */
static void cross_case_hints(const checker *k, const tally *t)
{
    int bad = 0, bad_offset = 0;
    for (int jnum = 0; jnum < k->njobs; jnum++) {
        if (t->status[jnum] != ST_FAIL && t->status[jnum] != ST_ERROR)
            continue;
        const mw_case *c = &k->ch->cases[k->jobs[jnum].kase];
        bad++;
        for (int b = 0; b < MW_MAX_BUFS; b++)
            if (c->offset[b] != 0) {
                bad_offset++;
                break;
            }
    }
    if (bad > 0 && bad == bad_offset)
        printf("hint: every failing case uses views offset from an aligned address: vector "
               "loads or stores assume 16-byte alignment; handle the unaligned head and tail "
               "separately\n");
    partial_tile_hint(k, t);
}

/* One row per job, written by this (the parent) process from what it
 * recorded: nothing a submission prints reaches this file. */
static int write_results(const checker *k, const tally *t, const char *path)
{
    static const char *word[ST_COUNT] = {"pass", "fail", "error", "todo", "skip"};
    mw_csv csv;
    if (mw_csv_open(&csv, path, "chapter,version,group,case,status,detail,seconds") != 0)
        return -1;
    for (int jnum = 0; jnum < k->njobs; jnum++) {
        const mw_case *c = &k->ch->cases[k->jobs[jnum].kase];
        char shape[160];
        k->ch->describe(c, shape, sizeof shape);
        int st = t->status[jnum];
        mw_csv_str(&csv, k->ch->id);
        mw_csv_str(&csv, k->ch->versions[k->jobs[jnum].version].file);
        mw_csv_str(&csv, c->group);
        mw_csv_str(&csv, shape);
        mw_csv_str(&csv, st >= 0 ? word[st] : (t->nogpu ? "skip" : "error"));
        mw_csv_str(&csv, t->nogpu ? "no CUDA GPU" : t->detail[jnum]);
        mw_csv_num(&csv, t->seconds[jnum], 4);
        mw_csv_end_row(&csv);
    }
    return mw_csv_close(&csv);
}

/* The shared memory a block may have on device 0, in bytes. Returns 0, or
 * -1 when there is no GPU to ask. */
static int ask_limits(mw_gpu_limits *g)
{
    int dflt = 0, optin = 0;
    if (mw_gpu_query_smem(&dflt, &optin) != cudaSuccess || dflt <= 0 || optin <= 0)
        return -1;
    *g = (mw_gpu_limits){.smem_default = (size_t)dflt, .smem_optin = (size_t)optin};
    return 0;
}

/* ask_limits() in a child process: this one must not initialize CUDA, or
 * the children it forks for the jobs could not use it. In-process (no_fork,
 * for compute-sanitizer) it asks itself. */
static int probe_limits(mw_gpu_limits *g, int in_process)
{
    if (in_process)
        return ask_limits(g);
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        mw_gpu_limits got = {0};
        ask_limits(&got);
        ssize_t w = write(fds[1], &got, sizeof got);
        _exit(w == (ssize_t)sizeof got ? 0 : 1);
    }
    close(fds[1]);
    mw_gpu_limits got = {0};
    ssize_t r = pid > 0 ? read(fds[0], &got, sizeof got) : -1;
    close(fds[0]);
    if (pid > 0)
        waitpid(pid, NULL, 0);
    if (r != (ssize_t)sizeof got || got.smem_default == 0 || got.smem_optin == 0)
        return -1;
    *g = got;
    return 0;
}

/* The chapter with its cases set against the GPU's limits (mw_case.at)
 * resolved on this GPU, in *own (cases in *owned, to free); the chapter
 * itself when it has none, or there is no GPU to ask (the check then says
 * so and skips every case). */
static const mw_chapter *at_this_gpu(const mw_chapter *ch, const mw_check_opts *opt,
                                     mw_chapter *own, mw_case **owned)
{
    mw_gpu_limits g;
    *owned = NULL;
    if (mw_cases_at_limits(ch->cases, ch->ncases) == 0 || probe_limits(&g, opt->no_fork) != 0)
        return ch;
    *owned = mw_cases_resolve(ch->cases, ch->ncases, &g);
    if (!*owned)
        return ch;
    *own = *ch;
    own->cases = *owned;
    return own;
}

int mw_cmd_check(const mw_chapter *chapter, const mw_check_opts *opt)
{
    mw_chapter resolved;
    mw_case *owned;
    const mw_chapter *ch = at_this_gpu(chapter, opt, &resolved, &owned);
    checker k = {ch, opt, NULL, 0, -1, NULL, -1, 0};
    mw_views_exact(opt->exact_views);
    if (build_jobs(&k) == 0) {
        fprintf(stderr, "check: no version matches EX=%s; versions:", opt->only_version);
        for (int vi = 0; vi < ch->nversions; vi++)
            fprintf(stderr, " %s", ch->versions[vi].file);
        fprintf(stderr, "\n");
        return 2;
    }
    tally t;
    memset(&t, 0, sizeof t);
    t.status = malloc((size_t)k.njobs * sizeof *t.status);
    t.detail = calloc((size_t)k.njobs, sizeof *t.detail);
    t.seconds = calloc((size_t)k.njobs, sizeof *t.seconds);
    for (int jnum = 0; jnum < k.njobs; jnum++)
        t.status[jnum] = -1;

    printf("memwall check %s (%s), seed %llu (replay with SEED=%llu)\n", ch->id, opt->src_label,
           (unsigned long long)opt->seed, (unsigned long long)opt->seed);
    fflush(stdout);
    if (opt->no_fork) {
        /* In-process, for compute-sanitizer: no crash isolation, and after
         * a fatal CUDA error the remaining jobs are not run. */
        k.direct = &t;
        if (run_jobs(&k, 0) == 3)
            for (int jnum = 0; jnum < k.njobs; jnum++)
                if (t.status[jnum] < 0) {
                    print_lost_job(&k, &t, jnum, "not run: an earlier CUDA error ended the run");
                    record(&k, &t, jnum, ST_ERROR);
                }
    } else {
        int next = 0;
        while (next < k.njobs)
            next = supervise(&k, &t, next);
    }
    if (opt->results_path && write_results(&k, &t, opt->results_path) != 0)
        fprintf(stderr, "check: could not write %s\n", opt->results_path);
    if (t.nogpu) {
        printf("0 passed, 0 failed, %d skipped\n", k.njobs);
        return 77;
    }
    /* Memory errors no output shows, on versions that ran at all: a
     * skeleton's TODO launches nothing to look at. */
    if (opt->quick_sanitize && mw_gpu_emulated())
        printf("sanitize: not run: compute-sanitizer needs a GPU, and the emulation checked "
               "every access itself (bounds, unwritten shared memory, shared races)\n");
    else if (opt->quick_sanitize && t.n[ST_PASS] + t.n[ST_FAIL] + t.n[ST_ERROR] > 0) {
        const mw_sanitize_target target = {opt->self, opt->lib_dir, opt->src_label,
                                           opt->only_version, opt->seed};
        mw_sanitize_step(&target, &t.n[ST_PASS], &t.n[ST_FAIL], mw_version_width(ch));
    }
    cross_case_hints(&k, &t);
    int required_todo = 0, optional_todo = 0;
    for (int jnum = 0; jnum < k.njobs; jnum++)
        if (t.status[jnum] == ST_NOTIMPL) {
            if (ch->versions[k.jobs[jnum].version].optional)
                optional_todo = 1;
            else
                required_todo = 1;
        }
    if (required_todo)
        printf("not implemented yet: fill in the TODOs in %s (cases marked TODO)\n",
               opt->src_label);
    if (optional_todo)
        printf("an optional version was not attempted (cases marked TODO): it costs nothing\n");
    int failed = t.n[ST_FAIL] + t.n[ST_ERROR], skipped = t.n[ST_NOTIMPL] + t.n[ST_SKIP];
    if (mw_gpu_emulated())
        printf("emulated on the CPU (grader/sim/): same cases, seeds and tolerances as on a GPU, "
               "the cases within its budget (some huge ones on a sample of their blocks); a GPU is "
               "the authority (make check SIM=0 there)\n");
    if (skipped > 0)
        printf("%d passed, %d failed, %d skipped\n", t.n[ST_PASS], failed, skipped);
    else
        printf("%d passed, %d failed\n", t.n[ST_PASS], failed);
    for (int jnum = 0; jnum < k.njobs; jnum++)
        free(t.detail[jnum]);
    free(t.detail);
    free(t.seconds);
    free(t.status);
    free(k.jobs);
    free(owned);
    if (t.n[ST_ERROR] > 0)
        return 2;
    if (t.n[ST_FAIL] > 0)
        return 1;
    if (required_todo || t.n[ST_PASS] == 0)
        return 77;
    return 0;
}
