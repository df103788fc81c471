/* traffic.c: measured DRAM bytes per implementation, from Nsight Compute.
 *
 * `traffic` re-runs this program as `traffic-run` under
 *   ncu --csv --clock-control none --cache-control all --metrics
 *       dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
 * which launches each implementation once per profiled size between two
 * marker kernels (grid size = the launch's number k) and writes a map from k
 * to implementation and size. Caches are flushed before every profiled
 * kernel (--cache-control all), so each starts cold, as in the bench. */
#define _GNU_SOURCE
#include "traffic.h"

#include "csv.h"
#include "cuda_check.h"
#include "device.h"
#include "devinfo.h"
#include "ncu.h"
#include "proc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *traffic_header =
    "chapter,impl,kind,size,shape,model_read,model_write,dram_read,dram_write,kernels,"
    "gpu_time_ms,source";

/* The bench case whose size is x, or NULL. */
static const mw_case *bench_case_at(const mw_chapter *ch, double x, int *index)
{
    for (int bi = 0; bi < ch->nbench; bi++)
        if (ch->bench_x(&ch->bench_cases[bi]) == x) {
            *index = bi;
            return &ch->bench_cases[bi];
        }
    return NULL;
}

/* Profiled implementations: everything but the copy roof (a cudaMemcpy is
 * not a kernel ncu can profile). */
static int profiled(const mw_impl *im)
{
    return im->loaded && strcmp(im->kind, "roof") != 0;
}

/* One workspace, as large as the largest any profiled implementation needs
 * at any traffic size, allocated before the first profile and freed after
 * the last. Freed and allocated between profiles instead, the kernel
 * profiled right after a large free was charged DRAM writes it never made:
 * on an H100, chapter 05's flash kernel at N = 16384, profiled after the
 * unfused version freed its 69 GB of scores, was counted 45 GB written
 * (0.27 GB when profiled alone). NULL when none is needed or it does not
 * fit (each implementation then allocates its own). */
static float *workspace_pool(const mw_chapter *ch, const mw_impl *impls, int nimpl,
                             size_t *floats)
{
    *floats = 0;
    for (int ti = 0; ti < ch->ntraffic; ti++) {
        int bi;
        const mw_case *c = bench_case_at(ch, (double)ch->traffic_sizes[ti], &bi);
        for (int i = 0; c && i < nimpl; i++) {
            size_t need = profiled(&impls[i]) ? mw_impl_workspace(ch, &impls[i], c) : 0;
            *floats = need > *floats ? need : *floats;
        }
    }
    float *pool = NULL;
    if (*floats && mw_gpu_alloc((void **)&pool, mw_workspace_bytes(*floats)) != cudaSuccess) {
        mw_gpu_take_error(); /* too large: leave the error behind */
        pool = NULL;
    }
    return pool;
}

/* The implementation's workspace at case c, from the pool when there is
 * one; -1 when it cannot have one (said on stderr). */
static int workspace_for(const mw_chapter *ch, const mw_impl *im, const mw_case *c,
                         mw_views *v, float *pool)
{
    size_t floats = mw_impl_workspace(ch, im, c);
    if (!pool || floats == 0)
        return mw_impl_workspace_alloc(ch, im, c, v, "traffic");
    MW_CUDA(mw_views_lend_workspace(v, pool, floats, 0));
    return 0;
}

int mw_cmd_traffic_run(const mw_chapter *ch, const mw_bench_opts *o, const char *map_path)
{
    mw_impl impls[MW_MAX_IMPLS];
    int nimpl = mw_impls_load(ch, o, impls);
    size_t pool_floats;
    float *pool = workspace_pool(ch, impls, nimpl, &pool_floats);
    mw_csv map;
    if (mw_csv_open(&map, map_path, "k,impl,kind,size,op") != 0)
        return 2;
    unsigned k = 1;
    for (int ti = 0; ti < ch->ntraffic; ti++) {
        int bi;
        const mw_case *c = bench_case_at(ch, (double)ch->traffic_sizes[ti], &bi);
        if (!c)
            continue;
        mw_views v;
        int have_views = 0;
        for (int i = 0; i < nimpl; i++, k++) {
            if (!profiled(&impls[i]))
                continue;
            mw_case ci;
            mw_inputs in;
            MW_CUDA(mw_impl_views(ch, &impls[i], bi, o->seed, &ci, &in, &v, &have_views));
            if (workspace_for(ch, &impls[i], c, &v, pool) != 0)
                continue;
            /* A run outside the markers first, as the bench warms up: what a
             * first call does once (chapter 03's 04_tuned times its
             * candidate configurations, 20 kernels, when its tune cache is
             * new) is not the traffic of a call. */
            cudaError_t err = mw_impl_run(ch, &impls[i], c, &v, 0);
            MW_CUDA(mw_gpu_sync());
            if (err != cudaSuccess) { /* not implemented, or failed: no row */
                mw_views_free_workspace(&v);
                continue;
            }
            MW_CUDA(mw_views_poison_output(&v, 0));
            MW_CUDA(mw_dev_marker(k, 0));
            err = mw_impl_run(ch, &impls[i], c, &v, 0);
            MW_CUDA(mw_dev_marker(k, 0));
            MW_CUDA(mw_gpu_sync());
            mw_views_free_workspace(&v);
            if (err != cudaSuccess) /* not implemented, or failed: no row */
                continue;
            mw_csv_num(&map, k, 10);
            char name[160];
            mw_csv_str(&map, mw_impl_row_name(ch, &impls[i], c, name, sizeof name));
            mw_csv_str(&map, impls[i].kind);
            mw_csv_num(&map, (double)ch->traffic_sizes[ti], 15);
            mw_csv_num(&map, mw_case_for(c, impls[i].op).op, 6);
            mw_csv_end_row(&map);
        }
        if (have_views)
            mw_views_free(&v);
    }
    mw_gpu_free(pool);
    mw_impls_free(impls, nimpl);
    return mw_csv_close(&map) == 0 ? 0 : 2;
}

/* Looks for ncu: $NCU when set (and only there), else the PATH, then the
 * toolkit's usual place. */
static int find_ncu(char *path, size_t len)
{
    const char *env = getenv("NCU");
    if (env && *env) {
        snprintf(path, len, "%s", env);
        return access(env, X_OK) == 0 ? 0 : -1;
    }
    return mw_which("ncu", path, len);
}

static int file_contains(const char *path, const char *needle)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    char line[4096];
    int found = 0;
    while (!found && fgets(line, sizeof line, fp))
        found = strstr(line, needle) != NULL;
    fclose(fp);
    return found;
}

/* Runs ncu on `traffic-run`; returns 0 with the CSV log written, or -1 with
 * `why` filled. */
static int run_ncu(const char *ncu, const mw_bench_opts *o, const char *dir, char *why,
                   size_t len)
{
    char csv[4200], map[4200], log[4200], seed[32];
    snprintf(csv, sizeof csv, "%s/ncu.csv", dir);
    snprintf(map, sizeof map, "%s/traffic-map.csv", dir);
    snprintf(log, sizeof log, "%s/ncu.log", dir);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->seed);
    pid_t pid = fork();
    if (pid == 0) {
        FILE *out = freopen(log, "w", stdout);
        (void)out;
        dup2(STDOUT_FILENO, STDERR_FILENO);
        execl(ncu, ncu, "--csv", "--log-file", csv, "--clock-control", "none", "--cache-control",
              "all", "--metrics",
              "dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum", o->self,
              "traffic-run", "--map", map, "--student", o->student_dir ? o->student_dir : "",
              "--reference", o->reference_dir ? o->reference_dir : "", "--seed", seed,
              (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (file_contains(log, "ERR_NVGPUCTRPERM") || file_contains(csv, "ERR_NVGPUCTRPERM")) {
        snprintf(why, len,
                 "ncu cannot read the GPU's performance counters (ERR_NVGPUCTRPERM): run as "
                 "root, or let all users profile: load the nvidia module with "
                 "NVreg_RestrictProfilingToAdminUsers=0 (see docs/troubleshooting.md)");
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, len, "ncu failed (exit %d); its log is %s",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, log);
        return -1;
    }
    return 0;
}

typedef struct map_row {
    long k;
    char impl[96], kind[32];
    double size;
    int op;
} map_row;

static int read_map(const char *path, map_row *rows, int max)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return 0;
    char line[512], *f[8];
    int n = 0;
    while (n < max && fgets(line, sizeof line, fp)) {
        if (mw_csv_split(line, f, 8) < 5 || strcmp(f[0], "k") == 0)
            continue;
        rows[n].k = atol(f[0]);
        snprintf(rows[n].impl, sizeof rows[n].impl, "%s", f[1]);
        snprintf(rows[n].kind, sizeof rows[n].kind, "%s", f[2]);
        rows[n].size = atof(f[3]);
        rows[n].op = atoi(f[4]);
        n++;
    }
    fclose(fp);
    return n;
}

/* Why measured bytes differ from the model, in words; NULL when close. A
 * shortfall up to the L2's size is data that never left the cache while the
 * kernel ran: writes still in L2 when it ended (ncu counts DRAM bytes during
 * the kernel), or inputs already there. */
static const char *explain(double measured, double model, double l2_bytes)
{
    if (measured < 0.9 * model && model - measured <= 1.05 * l2_bytes)
        return "fewer bytes than the model: up to one L2 (50 MB on an H100) of data never "
               "left the cache during the kernel: writes still in L2 at its end";
    if (measured < 0.9 * model)
        return "fewer bytes than the model: check the model, or the kernel skips work";
    if (measured > 1.1 * model)
        return "more bytes than the model: data read more than once, partial (uncoalesced) "
               "sectors, or spills to local memory";
    return NULL;
}

static void write_traffic_row(mw_csv *csv, const mw_chapter *ch, const char *impl,
                              const char *kind, const mw_case *c, double read, double write,
                              const mw_ncu_segment *seg)
{
    char shape[160];
    ch->describe(c, shape, sizeof shape);
    mw_csv_str(csv, ch->id);
    mw_csv_str(csv, impl);
    mw_csv_str(csv, kind);
    mw_csv_num(csv, ch->bench_x(c), 15);
    mw_csv_str(csv, shape);
    mw_csv_num(csv, read, 15);
    mw_csv_num(csv, write, 15);
    mw_csv_num(csv, seg ? seg->dram_read : NAN, 15);
    mw_csv_num(csv, seg ? seg->dram_write : NAN, 15);
    mw_csv_num(csv, seg ? seg->kernels : NAN, 6);
    mw_csv_num(csv, seg ? seg->time_ns * 1e-6 : NAN, 6);
    mw_csv_str(csv, seg ? "ncu" : "model");
    mw_csv_end_row(csv);
}

/* Model-only rows, when nothing could be measured. */
static int write_model_only(const mw_chapter *ch, const mw_bench_opts *o, const char *path)
{
    mw_impl impls[MW_MAX_IMPLS];
    int nimpl = mw_impls_load(ch, o, impls);
    mw_csv csv;
    if (mw_csv_open(&csv, path, traffic_header) != 0)
        return 2;
    for (int ti = 0; ti < ch->ntraffic; ti++) {
        int bi;
        const mw_case *c = bench_case_at(ch, (double)ch->traffic_sizes[ti], &bi);
        for (int i = 0; c && i < nimpl; i++) {
            if (!profiled(&impls[i]))
                continue;
            double read, write, flops;
            mw_impl_model(ch, &impls[i], c, &read, &write, &flops);
            write_traffic_row(&csv, ch, impls[i].name, impls[i].kind, c, read, write, NULL);
        }
    }
    mw_impls_free(impls, nimpl);
    printf("wrote %s with model bytes only (source=model); plots label them as such\n", path);
    return mw_csv_close(&csv) == 0 ? 0 : 2;
}

static int join_and_write(const mw_chapter *ch, const mw_bench_opts *o, const char *dir,
                          const char *path, double l2)
{
    char csvpath[4200], mappath[4200];
    snprintf(csvpath, sizeof csvpath, "%s/ncu.csv", dir);
    snprintf(mappath, sizeof mappath, "%s/traffic-map.csv", dir);
    FILE *fp = fopen(csvpath, "r");
    mw_ncu_kernel *kernels = NULL;
    int nk = fp ? mw_ncu_parse(fp, &kernels) : -1;
    if (fp)
        fclose(fp);
    mw_ncu_segment *segs = NULL;
    int nseg = nk > 0 ? mw_ncu_segments(kernels, nk, &segs) : 0;
    map_row rows[256];
    int nrows = read_map(mappath, rows, 256);
    (void)o;
    mw_csv csv;
    if (nseg <= 0 || nrows == 0 || mw_csv_open(&csv, path, traffic_header) != 0) {
        fprintf(stderr, "traffic: no profiled kernels found in %s\n", csvpath);
        free(kernels);
        free(segs);
        return -1;
    }
    printf("  %-28s %8s %12s %12s %8s\n", "implementation", "size", "model MB", "DRAM MB",
           "ratio");
    for (int r = 0; r < nrows; r++) {
        const mw_ncu_segment *seg = NULL;
        for (int s = 0; s < nseg; s++)
            if (segs[s].k == rows[r].k)
                seg = &segs[s];
        int bi;
        const mw_case *c = bench_case_at(ch, rows[r].size, &bi);
        if (!c || !seg)
            continue;
        mw_impl im = {0};
        snprintf(im.name, sizeof im.name, "%s", rows[r].impl);
        im.op = rows[r].op;
        for (int li = 0; li < ch->nlibraries; li++) {
            char name[128];
            snprintf(name, sizeof name, "%s/%s", ch->libraries[li].kind, ch->libraries[li].name);
            if (strcmp(rows[r].impl, name) == 0)
                im.library = &ch->libraries[li];
        }
        double read, write, flops;
        mw_impl_model(ch, &im, c, &read, &write, &flops);
        write_traffic_row(&csv, ch, rows[r].impl, rows[r].kind, c, read, write, seg);
        double model = read + write, measured = seg->dram_read + seg->dram_write;
        char label[32];
        mw_size_label(rows[r].size, label, sizeof label);
        printf("  %-28s %8s %12.2f %12.2f %7.2fx\n", rows[r].impl, label, model / 1e6,
               measured / 1e6, measured / model);
        const char *why = explain(measured, model, l2);
        if (why)
            printf("      %s\n", why);
    }
    free(kernels);
    free(segs);
    return mw_csv_close(&csv);
}

/* ncu.csv is kept as the raw measurement, but only its table: the lines
 * around it name this machine's paths and process ids. */
static void keep_table_only(const char *dir)
{
    char path[4200], tmp[4300], line[8192];
    snprintf(path, sizeof path, "%s/ncu.csv", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *in = fopen(path, "r"), *out = in ? fopen(tmp, "w") : NULL;
    while (out && fgets(line, sizeof line, in))
        if (line[0] == '"')
            fputs(line, out);
    if (in)
        fclose(in);
    if (out && fclose(out) == 0)
        rename(tmp, path);
}

int mw_cmd_traffic(const mw_chapter *ch, const mw_bench_opts *o)
{
    mw_devinfo info;
    char why[1024], dir[4096], path[4200], ncu[4096];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        printf("traffic: %s; skipped\n", why);
        return 77;
    }
    snprintf(dir, sizeof dir, "%s/%s/%s", o->results_root, info.dir, ch->id);
    snprintf(path, sizeof path, "%s/traffic.csv", dir);
    mw_mkdirs(dir);
    if (find_ncu(ncu, sizeof ncu) != 0) {
        printf("traffic: ncu (Nsight Compute) not found on the PATH or in /usr/local/cuda/bin: "
               "install the CUDA toolkit's Nsight Compute, or set NCU=/path/to/ncu.\n");
        return write_model_only(ch, o, path);
    }
    printf("memwall traffic %s on %s: profiling with %s (one launch per implementation and "
           "size; this takes a minute)\n",
           ch->id, info.name, ncu);
    fflush(stdout);
    if (run_ncu(ncu, o, dir, why, sizeof why) != 0) {
        printf("traffic: %s\n", why);
        return write_model_only(ch, o, path);
    }
    if (join_and_write(ch, o, dir, path, (double)info.l2_bytes) != 0)
        return write_model_only(ch, o, path);
    keep_table_only(dir);
    /* The map and ncu's own log were only needed for the join. */
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s/traffic-map.csv", dir);
    remove(tmp);
    snprintf(tmp, sizeof tmp, "%s/ncu.log", dir);
    remove(tmp);
    printf("wrote %s (ncu's raw output: %s/ncu.csv)\n", path, dir);
    return 0;
}
