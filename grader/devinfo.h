/* devinfo.h: which GPU this is, recorded beside every result. */
#ifndef MW_DEVINFO_H
#define MW_DEVINFO_H

#include <stddef.h>
#include <stdint.h>

typedef struct mw_devinfo {
    char name[256];      /* "NVIDIA H100 80GB HBM3" */
    char uuid[48];       /* "GPU-8c3f0a1e-...", nvidia-smi's name for it */
    char dir[256];       /* the same, safe as a folder name */
    int sms, cc_major, cc_minor;
    size_t l2_bytes, mem_total, mem_free;
    int driver_api, runtime;      /* 13000 = 13.0 */
    char driver[64];              /* "580.159.04": mw_devinfo_read_clocks */
    char sm_clock[32], mem_clock[32], max_sm_clock[32]; /* MHz, likewise; else "unknown" */
    char date[32];                /* YYYY-MM-DD, UTC */
} mw_devinfo;

/* Fills info for device 0 from CUDA alone, the driver and clocks left
 * "unknown". Returns 0, or -1 with the reason in `why` when there is no
 * usable CUDA GPU (no driver, no device). Initializes CUDA. */
int mw_devinfo_get(mw_devinfo *info, char *why, size_t len);

/* The driver version and the clocks now, from nvidia-smi for this device
 * (by its UUID: under CUDA_VISIBLE_DEVICES=2 device 0 is nvidia-smi's GPU
 * 2); left "unknown" where nvidia-smi is missing or fails. Only for what
 * records or prints them (bench's env.csv, `mw-chapter info`): nvidia-smi
 * is a process that opens every GPU of the host, and a check, a sanitizer
 * tool or a timing needs none of what it says, while a class's grading
 * starts several of each a student, on every GPU at once. */
void mw_devinfo_read_clocks(mw_devinfo *info);

/* "NVIDIA H100 80GB HBM3" -> "NVIDIA_H100_80GB_HBM3". */
void mw_safe_name(const char *name, char *out, size_t len);

/* Writes env.csv (key,value) for a results folder. */
int mw_devinfo_write_env(const char *path, const mw_devinfo *info, const char *chapter,
                         const char *title, const char *xlabel, uint64_t seed);

#endif
