/* devinfo.c: device properties, clocks and versions. */
#define _POSIX_C_SOURCE 200809L
#include "devinfo.h"

#include "csv.h"

#include "gpu.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void mw_safe_name(const char *name, char *out, size_t len)
{
    size_t j = 0;
    for (size_t i = 0; name[i] && j + 1 < len; i++) {
        unsigned char ch = (unsigned char)name[i];
        out[j++] = (isalnum(ch) || ch == '-' || ch == '.') ? (char)ch : '_';
    }
    out[j] = '\0';
}

static void clocks_unknown(mw_devinfo *info)
{
    snprintf(info->driver, sizeof info->driver, "unknown");
    snprintf(info->sm_clock, sizeof info->sm_clock, "unknown");
    snprintf(info->mem_clock, sizeof info->mem_clock, "unknown");
    snprintf(info->max_sm_clock, sizeof info->max_sm_clock, "unknown");
}

/* The numbers are a record, not an input to any computation. The UUID is
 * CUDA's, "GPU-" and hex digits, safe in a command line; the emulated
 * device's is all zeros, which no GPU has. */
void mw_devinfo_read_clocks(mw_devinfo *info)
{
    clocks_unknown(info);
    if (!info->uuid[0] || strcmp(info->uuid, "GPU-00000000-0000-0000-0000-000000000000") == 0)
        return;
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "nvidia-smi --query-gpu=driver_version,clocks.sm,clocks.mem,clocks.max.sm "
             "--format=csv,noheader,nounits -i %s 2>/dev/null",
             info->uuid);
    FILE *p = popen(cmd, "r");
    if (!p)
        return;
    char line[256];
    if (fgets(line, sizeof line, p)) {
        char *f[4];
        int n = mw_csv_split(line, f, 4);
        char *dst[4] = {info->driver, info->sm_clock, info->mem_clock, info->max_sm_clock};
        size_t size[4] = {sizeof info->driver, sizeof info->sm_clock, sizeof info->mem_clock,
                          sizeof info->max_sm_clock};
        for (int i = 0; i < n && i < 4; i++) {
            while (*f[i] == ' ')
                f[i]++;
            snprintf(dst[i], size[i], "%s", f[i]);
        }
    }
    pclose(p);
}

int mw_devinfo_get(mw_devinfo *info, char *why, size_t len)
{
    memset(info, 0, sizeof *info);
    int count = 0;
    cudaError_t err = mw_gpu_query_count(&count);
    if (err == cudaErrorInsufficientDriver) {
        snprintf(why, len, "no CUDA GPU: no NVIDIA driver is loaded, or it is older than this "
                           "program's CUDA runtime");
        return -1;
    }
    if (err != cudaSuccess || count == 0) {
        snprintf(why, len, "no CUDA GPU: %s",
                 err != cudaSuccess ? mw_gpu_error_string(err) : "no device found");
        return -1;
    }
    mw_gpu_props prop;
    err = mw_gpu_query_device(&prop);
    if (err == cudaSuccess)
        err = mw_gpu_query_memory(&info->mem_free, &info->mem_total);
    if (err != cudaSuccess) {
        snprintf(why, len, "CUDA GPU unusable: %s (%s)", mw_gpu_error_name(err),
                 mw_gpu_error_string(err));
        return -1;
    }
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    snprintf(info->uuid, sizeof info->uuid, "%s", prop.uuid);
    mw_safe_name(info->name, info->dir, sizeof info->dir);
    info->sms = prop.sms;
    info->cc_major = prop.cc_major;
    info->cc_minor = prop.cc_minor;
    info->l2_bytes = prop.l2_bytes;
    mw_gpu_query_versions(&info->driver_api, &info->runtime);
    clocks_unknown(info);
    time_t now = time(NULL);
    strftime(info->date, sizeof info->date, "%Y-%m-%d", gmtime(&now));
    return 0;
}

static void key_value(mw_csv *c, const char *key, const char *value)
{
    mw_csv_str(c, key);
    mw_csv_str(c, value);
    mw_csv_end_row(c);
}

int mw_devinfo_write_env(const char *path, const mw_devinfo *info, const char *chapter,
                         const char *title, const char *xlabel, uint64_t seed)
{
    mw_csv c;
    if (mw_csv_open(&c, path, "key,value") != 0)
        return -1;
    char buf[64];
    key_value(&c, "gpu", info->name);
    key_value(&c, "date", info->date);
    key_value(&c, "chapter", chapter);
    key_value(&c, "title", title);
    key_value(&c, "xlabel", xlabel);
    key_value(&c, "driver", info->driver);
    snprintf(buf, sizeof buf, "%d.%d", info->driver_api / 1000, info->driver_api % 1000 / 10);
    key_value(&c, "cuda_driver_api", buf);
    snprintf(buf, sizeof buf, "%d.%d", info->runtime / 1000, info->runtime % 1000 / 10);
    key_value(&c, "cuda_runtime", buf);
    snprintf(buf, sizeof buf, "%d.%d", info->cc_major, info->cc_minor);
    key_value(&c, "compute_capability", buf);
    snprintf(buf, sizeof buf, "%d", info->sms);
    key_value(&c, "sms", buf);
    snprintf(buf, sizeof buf, "%zu", info->l2_bytes);
    key_value(&c, "l2_bytes", buf);
    key_value(&c, "sm_clock_mhz", info->sm_clock);
    key_value(&c, "mem_clock_mhz", info->mem_clock);
    key_value(&c, "max_sm_clock_mhz", info->max_sm_clock);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
    key_value(&c, "seed", buf);
    return mw_csv_close(&c);
}
