/* main.c: the chapter program's command line. The Makefile calls it; it can
 * also be run directly (`build/01-vector-add/mw-chapter --help`). */
#define _GNU_SOURCE
#include "bench.h"
#include "traffic.h"
#include "cases_file.h"
#include "csv.h"
#include "devinfo.h"
#include "emulation.h"
#include "check_cmd.h"
#include "roofs.h"
#include "roofs_cache.h"
#include "verdict_cmd.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: mw-chapter COMMAND [options]   (chapter %s)\n"
            "commands:\n"
            "  check     --lib-dir DIR [--label TEXT] [--version NN] [--seed S]\n"
            "            [--timeout SECONDS] [--timeout-per-gib SECONDS]\n"
            "            [--small [--one-per-shape]] [--smallest-first]\n"
            "            [--below BYTES] [--from BYTES] [--no-fork] [--required-only]\n"
            "            [--exact-views] [--cases FILE] [--results FILE]\n"
            "            [--first-cases N] [--quick-sanitize]\n"
            "            grade the versions built in DIR; exit 0 pass, 1 wrong answer,\n"
            "            2 CUDA error, crash or timeout, 77 not implemented or no GPU;\n"
            "            --cases adds cases (and a seed) from FILE, --results writes a CSV\n"
            "            row per case, --required-only leaves optional versions out,\n"
            "            --exact-views drops the guard bands (for compute-sanitizer),\n"
            "            --one-per-shape (with --small) one case per launch shape (racecheck),\n"
            "            --smallest-first grades each version's cases by size, smallest first;\n"
            "            --below and --from keep only the cases of fewer, or at least, BYTES;\n"
            "            --first-cases N (with --smallest-first) each version's N smallest;\n"
            "            --quick-sanitize ends with memcheck and initcheck on the smallest\n"
            "            cases, where compute-sanitizer is found (make check)\n"
            "  bench     [--student DIR] [--reference DIR] [--results DIR] [--seed S]\n"
            "            time every implementation and the library; write bench.csv\n"
            "  traffic   [--student DIR] [--reference DIR] [--results DIR]\n"
            "            measured DRAM bytes with Nsight Compute; write traffic.csv\n"
            "  perf      --size X --out FILE [--student DIR] [--reference DIR] [--seed S]\n"
            "            time every implementation at one bench size into FILE\n"
            "  roofs     [--results DIR] [--force]   measure and cache this GPU's roofs\n"
            "  verdict   DIR   the verdict bench prints, from DIR/bench.csv (a run's results\n"
            "            folder, results/<gpu>/<chapter>); no GPU needed\n"
            "  list      [--csv]   the chapter's versions and cases (--csv: for programs)\n"
            "  info      [--brief]   the GPU and its software (exit 77 when there is none);\n"
            "            --brief: the GPU's line alone, without asking nvidia-smi\n",
            mw_chapter_def.id);
}

/* The chapter's cases followed by the file's. */
static const mw_case *append_cases(const mw_chapter *ch, const mw_cases_file *extra)
{
    mw_case *all = malloc((size_t)(ch->ncases + extra->ncases) * sizeof *all);
    if (!all) {
        perror("mw-chapter");
        exit(2);
    }
    memcpy(all, ch->cases, (size_t)ch->ncases * sizeof *all);
    memcpy(all + ch->ncases, extra->cases, (size_t)extra->ncases * sizeof *all);
    return all;
}

static uint64_t fresh_seed(void)
{
    uint64_t s = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    FILE *fp = fopen("/dev/urandom", "rb");
    if (fp) {
        if (fread(&s, sizeof s, 1, fp) != 1)
            s ^= (uint64_t)clock();
        fclose(fp);
    }
    return s % 1000000000ULL; /* short enough to type back as SEED= */
}

/* Option values are checked, never replaced by a default: a typo in
 * TIMEOUT= or SEED= is an error (exit 2) with one line saying what is
 * wanted. */
static int bad_value(const char *opt, const char *val, const char *want)
{
    fprintf(stderr, "mw-chapter: %s must be %s, not '%s'\n", opt, want, val);
    return 2;
}

/* A seed: decimal digits only (no sign, no space), at most 2^64 - 1. */
static int parse_seed(const char *val, uint64_t *seed)
{
    if (!*val || strspn(val, "0123456789") != strlen(val))
        return -1;
    errno = 0;
    unsigned long long v = strtoull(val, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *seed = v;
    return 0;
}

/* A positive, finite number (of seconds, or a size), all of the string. */
static int parse_positive(const char *val, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (end == val || *end || errno == ERANGE || !isfinite(v) || v <= 0)
        return -1;
    *out = v;
    return 0;
}

/* Does EX (--version) start the file name of a version? */
static int version_known(const mw_chapter *ch, const char *want)
{
    for (int v = 0; v < ch->nversions; v++)
        if (strncmp(ch->versions[v].file, want, strlen(want)) == 0)
            return 1;
    return 0;
}

/* The most GPU memory case c needs in any version: its views with their
 * guards, and the version's workspace. */
static size_t case_bytes_most(const mw_chapter *ch, const mw_case *c)
{
    size_t most = 0;
    for (int v = 0; v < ch->nversions; v++) {
        mw_case cv = mw_case_for(c, ch->versions[v].op);
        size_t ws = ch->versions[v].workspace ? ch->versions[v].workspace(&cv) : 0;
        size_t bytes = mw_case_bytes(ch, &cv) + mw_workspace_bytes(ws);
        most = bytes > most ? bytes : most;
    }
    return most;
}

/* 1 when the CPU emulation runs case c in every version: its work is within
 * the chapter's emulation budget, or it runs on a sample (emulation.h). */
static int case_emulated(const mw_chapter *ch, const mw_case *c)
{
    for (int v = 0; v < ch->nversions; v++) {
        mw_case cv = mw_case_for(c, ch->versions[v].op);
        size_t ws = ch->versions[v].workspace ? ch->versions[v].workspace(&cv) : 0;
        if (mw_emulation_work(ch, &cv, ws) > mw_emulation_budget(ch) &&
            !mw_emulation_on_sample(ch, &cv, ws))
            return 0;
    }
    return 1;
}

/* `list --csv`, for programs (the batch, make mutants): one row per
 * version, then one per case, under kind,name,symbol,optional,group,shape,
 * sampled,bytes,emulated (1: the CPU emulation runs it). */
static void list_chapter_csv(const mw_chapter *ch)
{
    printf("kind,name,symbol,optional,group,shape,sampled,bytes,emulated\n");
    for (int v = 0; v < ch->nversions; v++) {
        printf("version,");
        mw_csv_write_field(stdout, ch->versions[v].file);
        putchar(',');
        mw_csv_write_field(stdout, ch->versions[v].symbol);
        printf(",%d,,,,,\n", ch->versions[v].optional);
    }
    for (int c = 0; c < ch->ncases; c++) {
        char shape[160];
        ch->describe(&ch->cases[c], shape, sizeof shape);
        printf("case,,,,");
        mw_csv_write_field(stdout, ch->cases[c].group);
        putchar(',');
        mw_csv_write_field(stdout, shape);
        printf(",%d,%zu,%d\n", ch->cases[c].sampled, case_bytes_most(ch, &ch->cases[c]),
               case_emulated(ch, &ch->cases[c]));
    }
}

static void list_chapter(const mw_chapter *ch)
{
    printf("%s: %s\nversions:\n", ch->id, ch->title);
    for (int v = 0; v < ch->nversions; v++)
        printf("  %-*s %-16s %s%s\n", mw_version_width(ch), ch->versions[v].file, ch->versions[v].symbol,
               ch->versions[v].optional ? "(optional) " : "", ch->versions[v].budget);
    printf("cases:\n");
    for (int c = 0; c < ch->ncases; c++) {
        char shape[160];
        ch->describe(&ch->cases[c], shape, sizeof shape);
        printf("  %-8s %s%s%s\n", ch->cases[c].group, shape,
               ch->cases[c].sampled ? " (sampled check)" : "",
               case_emulated(ch, &ch->cases[c]) ? "" : " (GPU only: past the emulation's budget)");
    }
}

/* brief: the first line alone, without nvidia-smi (the batch's probe for a
 * usable GPU, run twice a student). */
static int print_info(int brief)
{
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        printf("%s\n", why);
        return 77;
    }
    printf("%s: compute capability %d.%d, %d SMs, %zu MB L2, %.1f GiB memory\n", info.name,
           info.cc_major, info.cc_minor, info.sms, info.l2_bytes >> 20,
           info.mem_total / 1073741824.0);
    if (brief)
        return 0;
    mw_devinfo_read_clocks(&info);
    printf("driver %s (CUDA %d.%d), runtime %d.%d; clocks now: SM %s MHz, memory %s MHz\n",
           info.driver, info.driver_api / 1000, info.driver_api % 1000 / 10, info.runtime / 1000,
           info.runtime % 1000 / 10, info.sm_clock, info.mem_clock);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    /* A chapter is what its folder says: its id names the results folder,
     * the plots and every report, so another chapter's id (a copy not yet
     * renamed) would write over that chapter's results. */
    if (strcmp(mw_chapter_def.id, mw_chapter_folder) != 0) {
        fprintf(stderr,
                "mw-chapter: chapters/%s/ declares the id '%s': a chapter's id must be its "
                "folder's name (results, plots and reports are filed under it); set .id = "
                "\"%s\" in chapters/%s/chapter.c\n",
                mw_chapter_folder, mw_chapter_def.id, mw_chapter_folder, mw_chapter_folder);
        return 2;
    }
    /* A roof name the table does not know is the chapter's mistake: stop
     * before it turns into a percent of nothing. */
    char why[512];
    if (mw_roofs_check_chapter(&mw_roofs, &mw_chapter_def, why, sizeof why) != 0) {
        fprintf(stderr, "mw-chapter: %s\n", why);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "verdict") == 0) {
        if (argc != 3) {
            fprintf(stderr, "mw-chapter verdict: give one results folder: mw-chapter verdict "
                            "results/<gpu>/%s\n", mw_chapter_def.id);
            return 2;
        }
        return mw_cmd_verdict(&mw_chapter_def, argv[2]);
    }
    mw_check_opts check = {.timeout_s = 30.0, .timeout_per_gib = 2.0};
    mw_bench_opts bench = {NULL, NULL, "results", NULL, 0, 0};
    const char *map = NULL, *cases_path = NULL, *perf_out = NULL;
    double perf_size = 0;
    int have_seed = 0, list_csv = 0, info_brief = 0;
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = '\0';
    bench.self = self;
    check.self = self;

    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        int takes = 1;
        if (strcmp(a, "--lib-dir") == 0 && val)
            check.lib_dir = val;
        else if (strcmp(a, "--label") == 0 && val)
            check.src_label = val;
        else if (strcmp(a, "--version") == 0 && val)
            check.only_version = *val ? val : NULL;
        else if (strcmp(a, "--seed") == 0 && val) {
            if (parse_seed(val, &check.seed) != 0)
                return bad_value(a, val, "a whole number, as a check prints it (SEED=123456789)");
            bench.seed = check.seed, have_seed = 1;
        } else if (strcmp(a, "--timeout") == 0 && val) {
            if (parse_positive(val, &check.timeout_s) != 0)
                return bad_value(a, val, "a positive number of seconds (TIMEOUT=60)");
        } else if (strcmp(a, "--timeout-per-gib") == 0 && val) {
            if (parse_positive(val, &check.timeout_per_gib) != 0)
                return bad_value(a, val, "a positive number of seconds (0.5)");
        } else if (strcmp(a, "--below") == 0 && val) {
            if (parse_positive(val, &check.below_bytes) != 0)
                return bad_value(a, val, "a positive number of bytes");
        } else if (strcmp(a, "--from") == 0 && val) {
            if (parse_positive(val, &check.from_bytes) != 0)
                return bad_value(a, val, "a positive number of bytes");
        } else if (strcmp(a, "--first-cases") == 0 && val) {
            double count = 0;
            if (parse_positive(val, &count) != 0 || count != (int)count)
                return bad_value(a, val, "a whole number of cases, 1 or more");
            check.first_cases = (int)count;
        } else if (strcmp(a, "--results") == 0 && val && strcmp(cmd, "check") == 0)
            check.results_path = val;
        else if (strcmp(a, "--student") == 0 && val)
            bench.student_dir = *val ? val : NULL;
        else if (strcmp(a, "--reference") == 0 && val)
            bench.reference_dir = *val ? val : NULL;
        else if (strcmp(a, "--results") == 0 && val)
            bench.results_root = val;
        else if (strcmp(a, "--map") == 0 && val)
            map = val;
        else if (strcmp(a, "--cases") == 0 && val)
            cases_path = val;
        else if (strcmp(a, "--out") == 0 && val)
            perf_out = val;
        else if (strcmp(a, "--size") == 0 && val) {
            if (parse_positive(val, &perf_size) != 0)
                return bad_value(a, val, "a positive number");
        } else {
            takes = 0;
            if (strcmp(a, "--small") == 0)
                check.small = 1;
            else if (strcmp(a, "--one-per-shape") == 0)
                check.one_per_shape = 1;
            else if (strcmp(a, "--smallest-first") == 0)
                check.smallest_first = 1;
            else if (strcmp(a, "--no-fork") == 0)
                check.no_fork = 1;
            else if (strcmp(a, "--exact-views") == 0)
                check.exact_views = 1;
            else if (strcmp(a, "--required-only") == 0)
                check.required_only = 1;
            else if (strcmp(a, "--quick-sanitize") == 0)
                check.quick_sanitize = 1;
            else if (strcmp(a, "--force") == 0)
                bench.force_roofs = 1;
            else if (strcmp(a, "--csv") == 0 && strcmp(cmd, "list") == 0)
                list_csv = 1;
            else if (strcmp(a, "--brief") == 0 && strcmp(cmd, "info") == 0)
                info_brief = 1;
            else {
                fprintf(stderr, "mw-chapter: unknown or incomplete option '%s'\n", a);
                usage(stderr);
                return 2;
            }
        }
        i += takes;
    }
    mw_chapter with_extra = mw_chapter_def;
    const mw_chapter *ch = &mw_chapter_def;
    mw_cases_file extra = {0};
    if (cases_path) {
        char err[512];
        if (mw_cases_file_load(cases_path, &extra, err, sizeof err) != 0) {
            fprintf(stderr, "mw-chapter: %s\n", err);
            return 2;
        }
        if (!have_seed && extra.have_seed)
            check.seed = bench.seed = extra.seed, have_seed = 1;
        with_extra.cases = append_cases(ch, &extra);
        with_extra.ncases = ch->ncases + extra.ncases;
        ch = &with_extra;
    }
    if (!have_seed)
        check.seed = bench.seed = fresh_seed();
    if (check.only_version && !version_known(ch, check.only_version)) {
        fprintf(stderr, "mw-chapter: no version of %s starts with '%s' (--version, EX=); versions:",
                ch->id, check.only_version);
        for (int v = 0; v < ch->nversions; v++)
            fprintf(stderr, " %s", ch->versions[v].file);
        fprintf(stderr, "\n");
        return 2;
    }

    if (strcmp(cmd, "check") == 0) {
        if (!check.lib_dir) {
            fprintf(stderr, "mw-chapter check: --lib-dir is required\n");
            return 2;
        }
        if (!check.src_label)
            check.src_label = check.lib_dir;
        return mw_cmd_check(ch, &check);
    }
    if (strcmp(cmd, "perf") == 0) {
        if (!perf_out || perf_size <= 0) {
            fprintf(stderr, "mw-chapter perf: --size and --out are required\n");
            return 2;
        }
        return mw_cmd_perf(ch, &bench, perf_size, perf_out);
    }
    if (mw_gpu_emulated() && (strcmp(cmd, "bench") == 0 || strcmp(cmd, "traffic") == 0)) {
        printf("%s: needs a GPU: the CPU emulation checks results, it times nothing and "
               "moves no DRAM bytes (make check runs on it)\n", cmd);
        return 77;
    }
    if (strcmp(cmd, "bench") == 0)
        return mw_cmd_bench(ch, &bench);
    if (strcmp(cmd, "traffic") == 0)
        return mw_cmd_traffic(ch, &bench);
    if (strcmp(cmd, "traffic-run") == 0 && map)
        return mw_cmd_traffic_run(ch, &bench, map);
    if (strcmp(cmd, "roofs") == 0)
        return mw_cmd_roofs(bench.results_root, bench.force_roofs);
    if (strcmp(cmd, "info") == 0)
        return print_info(info_brief);
    if (strcmp(cmd, "list") == 0) {
        (list_csv ? list_chapter_csv : list_chapter)(ch);
        return 0;
    }
    fprintf(stderr, "mw-chapter: unknown command '%s'\n", cmd);
    usage(stderr);
    return 2;
}
