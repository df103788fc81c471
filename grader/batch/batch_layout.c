/* batch_layout.c: the layouts of a folder of submissions, Canvas's file
 * names, and what may be taken out of an archive (see batch_layout.h). */
#define _GNU_SOURCE
#include "batch_layout.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const char mw_layouts_expected[] =
    "  ann/                                one folder per student, the exercise files inside\n"
    "                                      (at any depth)\n"
    "  ann.cu                              one .cu file per student, for every version\n"
    "  ann.zip, ann.tar.gz, .tgz, .tar     one archive per student\n"
    "  doe_john_12345_678901_01_naive.cu   Canvas's \"Download Submissions\", unzipped:\n"
    "                                      name_userid_attachmentid_file, grouped by name\n"
    "(see docs/instructors.md, \"What a submission is\")";

const char *mw_layout_name(mw_layout layout)
{
    static const char *names[] = {"folder", "file", "archive", "canvas"};
    return names[layout];
}

/* ---- names ------------------------------------------------------------- */

static int all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return 0;
    return 1;
}

static int ends_with_ci(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcasecmp(s + n - m, suffix) == 0;
}

mw_archive mw_archive_kind(const char *name, char *stem, size_t len)
{
    static const struct {
        const char *ext;
        mw_archive kind;
    } kinds[] = {{".tar.gz", MW_ARCHIVE_TGZ},
                 {".tgz", MW_ARCHIVE_TGZ},
                 {".tar", MW_ARCHIVE_TAR},
                 {".zip", MW_ARCHIVE_ZIP}};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (ends_with_ci(name, kinds[i].ext)) {
            if (stem)
                snprintf(stem, len, "%.*s", (int)(strlen(name) - strlen(kinds[i].ext)), name);
            return kinds[i].kind;
        }
    return MW_ARCHIVE_NONE;
}

/* Canvas renames a file handed in again under the same name `x-1.cu`,
 * `x-2.cu`: the suffix sits just before the last extension. */
static void drop_resubmission_suffix(char *name)
{
    char *dot = strrchr(name, '.');
    char *end = dot && dot != name ? dot : name + strlen(name);
    char *p = end;
    while (p > name && isdigit((unsigned char)p[-1]))
        p--;
    if (p < end && p - 1 > name && p[-1] == '-')
        memmove(p - 1, end, strlen(end) + 1);
}

int mw_canvas_parse(const char *file, char *student, size_t slen, char *original, size_t olen,
                    long long *attachment)
{
    const char *tok[64];
    size_t toklen[64];
    int nt = 0;
    for (const char *p = file; nt < 64;) {
        const char *us = strchr(p, '_');
        tok[nt] = p;
        toklen[nt++] = us ? (size_t)(us - p) : strlen(p);
        if (!us)
            break;
        p = us + 1;
    }
    /* The first two all-digit fields in a row, with the student's name
     * before them and the file's own name after. */
    for (int i = 1; i + 2 < nt; i++) {
        if (!all_digits(tok[i], toklen[i]) || !all_digits(tok[i + 1], toklen[i + 1]))
            continue;
        int last = i - 1;
        if (last >= 1 && toklen[last] == 4 && strncasecmp(tok[last], "late", 4) == 0)
            last--; /* a late hand-in: name_LATE_userid_attachmentid_file */
        size_t name_len = (size_t)(tok[last] + toklen[last] - file);
        if (toklen[0] == 0 || *tok[i + 2] == '\0' || name_len >= slen)
            return -1;
        snprintf(student, slen, "%.*s", (int)name_len, file);
        snprintf(original, olen, "%s", tok[i + 2]);
        drop_resubmission_suffix(original);
        if (attachment)
            *attachment = strtoll(tok[i + 1], NULL, 10);
        return 0;
    }
    return -1;
}

/* ---- the submissions folder ------------------------------------------------ */

static mw_submission *add_submission(mw_class *c, const char *student, mw_layout layout,
                                     const char *entry)
{
    c->subs = realloc(c->subs, (size_t)(c->n + 1) * sizeof *c->subs);
    mw_submission *s = &c->subs[c->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->student, sizeof s->student, "%s", student);
    snprintf(s->entry, sizeof s->entry, "%s", entry);
    s->layout = layout;
    return s;
}

/* A Canvas file joins its student's submission, made on first sight. */
static void add_upload(mw_class *c, const char *student, const char *file, const char *original,
                       long long attachment)
{
    mw_submission *s = NULL;
    for (int i = 0; i < c->n && !s; i++)
        if (c->subs[i].layout == MW_LAYOUT_CANVAS && strcmp(c->subs[i].student, student) == 0)
            s = &c->subs[i];
    if (!s)
        s = add_submission(c, student, MW_LAYOUT_CANVAS, file);
    s->uploads = realloc(s->uploads, (size_t)(s->nuploads + 1) * sizeof *s->uploads);
    mw_upload *u = &s->uploads[s->nuploads++];
    snprintf(u->file, sizeof u->file, "%s", file);
    snprintf(u->original, sizeof u->original, "%s", original);
    u->attachment = attachment;
    u->superseded = 0;
}

/* Of two uploads with one name, the later one (larger attachment id) is
 * the one Canvas shows as the submission. */
static void mark_superseded(mw_submission *s)
{
    for (int i = 0; i < s->nuploads; i++)
        for (int j = 0; j < s->nuploads; j++)
            if (i != j && strcmp(s->uploads[i].original, s->uploads[j].original) == 0 &&
                s->uploads[i].attachment < s->uploads[j].attachment)
                s->uploads[i].superseded = 1;
}

static void classify(mw_class *c, const char *dir, const char *name)
{
    char path[4096], student[256], original[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat st;
    long long attachment;
    int found = stat(path, &st) == 0;
    /* A dangling link, a fifo or a device is set aside, never read. */
    int regular = found && S_ISREG(st.st_mode);
    if (found && S_ISDIR(st.st_mode)) {
        add_submission(c, name, MW_LAYOUT_FOLDER, name);
    } else if (regular && mw_canvas_parse(name, student, sizeof student, original,
                                          sizeof original, &attachment) == 0) {
        add_upload(c, student, name, original, attachment);
    } else if (regular && mw_archive_kind(name, student, sizeof student) != MW_ARCHIVE_NONE &&
               student[0]) {
        add_submission(c, student, MW_LAYOUT_ARCHIVE, name)->archive =
            mw_archive_kind(name, NULL, 0);
    } else if (regular && ends_with_ci(name, ".cu")) {
        snprintf(student, sizeof student, "%.*s", (int)strlen(name) - 3, name);
        add_submission(c, student, MW_LAYOUT_FILE, name);
    } else {
        c->ignored = realloc(c->ignored, (size_t)(c->nignored + 1) * sizeof *c->ignored);
        snprintf(c->ignored[c->nignored++], sizeof c->ignored[0], "%s", name);
    }
}

static int by_student(const void *a, const void *b)
{
    const mw_submission *x = a, *y = b;
    int d = strcmp(x->student, y->student);
    return d ? d : strcmp(x->entry, y->entry);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The folder's entries, sorted, so that the class is read in one order
 * whatever the file system's. */
static int read_names(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    *names = NULL;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        *names = realloc(*names, (size_t)(n + 1) * sizeof **names);
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof **names, by_name);
    return n;
}

static void nothing_gradable(const mw_class *c, const char *dir, char *err, size_t len)
{
    int used = snprintf(err, len,
                        "no submission in %s: expected one entry per student, in one of "
                        "these layouts:\n%s",
                        dir, mw_layouts_expected);
    for (int i = 0; i < c->nignored && used > 0 && (size_t)used < len; i++)
        used += snprintf(err + used, len - (size_t)used, "%s%s", i ? ", " : "\nset aside: ",
                         c->ignored[i]);
}

int mw_class_scan(const char *dir, mw_class *c, char *err, size_t len)
{
    memset(c, 0, sizeof *c);
    struct stat st;
    if (stat(dir, &st) != 0) {
        snprintf(err, len, "cannot read the submissions folder %s: %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, len,
                 "%s is a file, not a folder of submissions (a download of the whole class: "
                 "unpack it into a folder first); expected a folder with one entry per "
                 "student, in one of these layouts:\n%s",
                 dir, mw_layouts_expected);
        return -1;
    }
    char **names;
    int n = read_names(dir, &names);
    if (n < 0) {
        snprintf(err, len, "cannot read the submissions folder %s: %s", dir, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        classify(c, dir, names[i]);
        free(names[i]);
    }
    free(names);
    for (int i = 0; i < c->n; i++)
        mark_superseded(&c->subs[i]);
    qsort(c->subs, (size_t)c->n, sizeof *c->subs, by_student);
    if (c->n == 0) {
        nothing_gradable(c, dir, err, len);
        return -1;
    }
    for (int i = 1; i < c->n; i++)
        if (strcmp(c->subs[i - 1].student, c->subs[i].student) == 0) {
            snprintf(err, len,
                     "two submissions for one student '%s' in %s: %s (%s) and %s (%s); keep one",
                     c->subs[i].student, dir, c->subs[i - 1].entry,
                     mw_layout_name(c->subs[i - 1].layout), c->subs[i].entry,
                     mw_layout_name(c->subs[i].layout));
            return -1;
        }
    return 0;
}

void mw_class_free(mw_class *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->subs[i].uploads);
    free(c->subs);
    free(c->ignored);
    memset(c, 0, sizeof *c);
}

/* ---- archive listings --------------------------------------------------------- */

static void set_name(mw_entry *e, const char *name, const char *cut)
{
    size_t n = strcspn(name, "\r\n");
    const char *arrow = cut ? strstr(name, cut) : NULL;
    if (arrow && (size_t)(arrow - name) < n)
        n = (size_t)(arrow - name);
    snprintf(e->name, sizeof e->name, "%.*s", (int)n, name);
}

static int size_field(const char *text, long long *size)
{
    if (strchr(text, ',')) { /* a device's major,minor */
        *size = 0;
        return 0;
    }
    if (!all_digits(text, strlen(text)))
        return -1;
    *size = strtoll(text, NULL, 10);
    return 0;
}

/* GNU tar: "-rw-r--r-- 1000/1000  1234 2024-05-01 10:00 dir/file", a link
 * "... name -> target", a hard link "... name link to target". */
int mw_parse_tar_line(const char *line, mw_entry *e)
{
    char perms[16], owner[128], size[32], date[16], clock[16];
    int at = 0;
    if (sscanf(line, "%15s %127s %31s %15s %15s %n", perms, owner, size, date, clock, &at) < 5 ||
        at == 0 || strlen(perms) != 10 || !strchr(owner, '/') || size_field(size, &e->size) != 0)
        return -1;
    e->type = perms[0];
    set_name(e, line + at, e->type == 'l' ? " -> " : e->type == 'h' ? " link to " : NULL);
    return e->name[0] ? 0 : -1;
}

/* zipinfo: "-rw-r--r--  3.0 unx  1234 tx defN 24-May-01 10:00 dir/file";
 * an archive made on Windows has "-rw-a--  2.0 fat ...". */
int mw_parse_zipinfo_line(const char *line, mw_entry *e)
{
    char perms[16], version[16], os[16], size[32], kind[16], method[16], date[16], clock[16];
    int at = 0;
    if (sscanf(line, "%15s %15s %15s %31s %15s %15s %15s %15s %n", perms, version, os, size, kind,
               method, date, clock, &at) < 8 ||
        at == 0 || strlen(perms) < 7 || !strchr("-dl?", perms[0]) || !strchr(version, '.') ||
        size_field(size, &e->size) != 0)
        return -1;
    set_name(e, line + at, NULL);
    size_t n = strlen(e->name);
    e->type = perms[0] == '?' ? '-' : perms[0];
    if (n > 0 && e->name[n - 1] == '/')
        e->type = 'd';
    return n ? 0 : -1;
}

static int has_dotdot(const char *name)
{
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 2 && p[0] == '.' && p[1] == '.')
            return 1;
        p += n;
        p += *p == '/';
    }
    return 0;
}

const char *mw_entry_refusal(const mw_entry *e)
{
    if (e->type == 'l' || e->type == 'h')
        return "a link: ignored";
    if (e->type != '-' && e->type != 'd')
        return "not a regular file: ignored";
    if (e->name[0] == '/')
        return "an absolute path: refused";
    if (has_dotdot(e->name))
        return "leaves the folder (..): refused";
    if (e->name[0] == '-')
        return "starts with '-': refused";
    if (strlen(e->name) > 400)
        return "name too long: refused";
    /* tar's listing escapes these, and unzip reads * ? [ ] as patterns:
     * such a name cannot be asked for by name, so it is not asked for. */
    for (const unsigned char *p = (const unsigned char *)e->name; *p; p++)
        if (*p < 0x20 || *p >= 0x7f || strchr("\\*?[]", *p))
            return "odd characters in its name: ignored";
    return NULL;
}

/* ---- notes ------------------------------------------------------------------ */

void mw_notes_add(mw_notes *n, const char *file, const char *note)
{
    if (n->n == n->cap) {
        n->cap = n->cap ? 2 * n->cap : 16;
        n->file = realloc(n->file, (size_t)n->cap * sizeof *n->file);
        n->note = realloc(n->note, (size_t)n->cap * sizeof *n->note);
    }
    snprintf(n->file[n->n], sizeof n->file[0], "%s", file);
    snprintf(n->note[n->n], sizeof n->note[0], "%s", note);
    n->n++;
}

void mw_notes_free(mw_notes *n)
{
    free(n->file);
    free(n->note);
    memset(n, 0, sizeof *n);
}
