/* batch_layout.h: how a folder of submissions is laid out, and what may be
 * taken out of a student's archive. Pure C (no CUDA, no child process), so
 * that the unit tests cover it on any machine; grader/batch/batch.c does the
 * unpacking itself.
 *
 * Each entry of the submissions folder whose name does not start with a dot
 * is read as one of these layouts:
 *   folder    ann/           the exercise files inside, at any depth
 *   file      ann.cu         one file that stands for every version
 *   archive   ann.zip, ann.tar.gz, ann.tgz, ann.tar   unpacked, then a folder
 *   canvas    doe_john_12345_678901_01_naive.cu       Canvas's "Download
 *             Submissions": name, user id, attachment id, the file's own
 *             name; the files of one name are one student
 * Anything else (a README, the class's expected scores) is set aside and
 * named, never graded. */
#ifndef MW_BATCH_LAYOUT_H
#define MW_BATCH_LAYOUT_H

#include <stddef.h>

/* An archive is refused whole past these: a hand-in is a few kernel files,
 * and an archive of 10 GB of zeros is a few MB. */
#define MW_ARCHIVE_MAX_ENTRIES 200
#define MW_ARCHIVE_MAX_BYTES (20LL << 20)

typedef enum { MW_LAYOUT_FOLDER, MW_LAYOUT_FILE, MW_LAYOUT_ARCHIVE, MW_LAYOUT_CANVAS } mw_layout;
typedef enum { MW_ARCHIVE_NONE, MW_ARCHIVE_TAR, MW_ARCHIVE_TGZ, MW_ARCHIVE_ZIP } mw_archive;

/* One file of a Canvas download. */
typedef struct mw_upload {
    char file[256];       /* its name in the submissions folder */
    char original[256];   /* the name the student gave it, Canvas's "-1" suffix removed */
    long long attachment; /* Canvas's attachment id: a later upload has a larger one */
    int superseded;       /* a later upload has the same original name */
} mw_upload;

typedef struct mw_submission {
    char student[128];
    mw_layout layout;
    mw_archive archive; /* MW_LAYOUT_ARCHIVE: which kind */
    char entry[256];    /* its name in the submissions folder (Canvas: the first file's) */
    int nuploads;       /* MW_LAYOUT_CANVAS: the student's files */
    mw_upload *uploads;
} mw_submission;

typedef struct mw_class {
    int n;
    mw_submission *subs; /* sorted by student */
    int nignored;
    char (*ignored)[256]; /* entries that are none of the layouts */
} mw_class;

/* Reads the submissions folder. Returns 0, or -1 with why in err: not a
 * folder, unreadable, nothing gradable in it, or two entries that are one
 * student (ann/ and ann.zip). */
int mw_class_scan(const char *dir, mw_class *c, char *err, size_t len);
void mw_class_free(mw_class *c);
const char *mw_layout_name(mw_layout layout);
/* The layouts, as the errors and `--help` name them. */
extern const char mw_layouts_expected[];

/* Parses a Canvas download's file name, `name_userid_attachmentid_file` or
 * `name_LATE_userid_attachmentid_file`; the student's name may hold
 * underscores (`doe_john`). 0 when it is one; original is the file's own
 * name without Canvas's resubmission suffix (`01_naive-1.cu` -> `01_naive.cu`). */
int mw_canvas_parse(const char *file, char *student, size_t slen, char *original, size_t olen,
                    long long *attachment);
/* Which archive a file name is, and its name without the extension. */
mw_archive mw_archive_kind(const char *name, char *stem, size_t len);

/* One entry of an archive's listing. */
typedef struct mw_entry {
    char name[512];
    char type;      /* '-' regular file, 'd' folder, 'l' symbolic link, 'h' hard link, ... */
    long long size; /* bytes, unpacked */
} mw_entry;

/* A line of `tar -tv --numeric-owner` or of `unzip -Z` (zipinfo) output.
 * 0 when it is an entry; headers and totals lines return -1. */
int mw_parse_tar_line(const char *line, mw_entry *e);
int mw_parse_zipinfo_line(const char *line, mw_entry *e);
/* NULL when the entry may be unpacked; else why not ("leaves the folder").
 * Only regular files are unpacked: links are never followed or made. */
const char *mw_entry_refusal(const mw_entry *e);

/* A list of (file, note) pairs: what a report says about files it did not
 * grade. */
typedef struct mw_notes {
    int n, cap;
    char (*file)[256];
    char (*note)[96];
} mw_notes;

void mw_notes_add(mw_notes *n, const char *file, const char *note);
void mw_notes_free(mw_notes *n);

#endif
