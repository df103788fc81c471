/* batch_stage.c: from a submission as the instructor downloaded it (a
 * folder, a .cu file, an archive, a Canvas download) to a folder the batch
 * takes the exercise files from, and the notes on the files it did not take.
 *
 * Archives are unpacked with the system's tools (GNU tar for .tar.gz, .tgz
 * and .tar; unzip for .zip), as the steps run: sandboxed, as nobody when
 * root. Each archive is listed first, and refused whole past
 * MW_ARCHIVE_MAX_ENTRIES entries or MW_ARCHIVE_MAX_BYTES unpacked; then only
 * its regular files with plain relative names are asked for by name, so a
 * link, an absolute path or a `..` is never written. */
#define _GNU_SOURCE
#include "batch.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The batch's own lines in unpack.log, beside what tar and unzip print. */
static void say(const char *scratch, const char *fmt, ...)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/unpack.log", scratch);
    FILE *fp = fopen(path, "a");
    if (!fp)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(fp, fmt, ap);
    va_end(ap);
    fputc('\n', fp);
    fclose(fp);
}

/* ---- archives --------------------------------------------------------- */

/* `tar -tv` or `unzip -Z` into entries; at most one past the limit is kept,
 * which is enough to refuse. 0, or -1 with why. */
static int list_archive(const context *cx, const char *scratch, const char *archive,
                        mw_archive kind, const char *shown, mw_entry **entries, int *n,
                        char *why, size_t len)
{
    char listing[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(listing, sizeof listing, "%s/listing.txt", scratch);
    snprintf(log, sizeof log, "%s/unpack.log", scratch);
    unlink(listing);
    char *tar_argv[] = {(char *)cx->tar, "--numeric-owner", "-tvf", (char *)archive, NULL};
    char *zip_argv[] = {(char *)cx->unzip, "-Z", (char *)archive, NULL};
    context small = *cx;
    small.fsize = 4 << 20; /* 200 entries list in 30 KB: a longer listing is refused anyway */
    say(scratch, "listing %s", shown);
    int rc = sandbox_run_to(&small, scratch, kind == MW_ARCHIVE_ZIP ? zip_argv : tar_argv,
                            listing, log, 60);
    *entries = calloc(MW_ARCHIVE_MAX_ENTRIES + 1, sizeof **entries);
    *n = 0;
    FILE *fp = fopen(listing, "r");
    char line[2048];
    while (fp && *n <= MW_ARCHIVE_MAX_ENTRIES && fgets(line, sizeof line, fp)) {
        mw_entry *e = &(*entries)[*n];
        if ((kind == MW_ARCHIVE_ZIP ? mw_parse_zipinfo_line(line, e) : mw_parse_tar_line(line, e)) == 0)
            (*n)++;
    }
    if (fp)
        fclose(fp);
    if (*n > MW_ARCHIVE_MAX_ENTRIES) {
        snprintf(why, len,
                 "%s has more than %d entries: refused (unpack it by hand into a folder of "
                 "its own, keeping the exercise files)",
                 shown, MW_ARCHIVE_MAX_ENTRIES);
        return -1;
    }
    if (rc != 0) {
        snprintf(why, len, "cannot read the archive %s (%s %s): see unpack.log", shown,
                 kind == MW_ARCHIVE_ZIP ? "unzip" : "tar",
                 rc == -1 ? "timed out" : "failed");
        return -1;
    }
    return 0;
}

/* Which entries are asked for: regular files with plain names; the rest
 * are noted. -1 with why when the archive unpacks to more than the limit. */
static int choose_entries(const mw_entry *e, int n, const char *shown, const char *prefix,
                          char **names, int *nnames, staged *st)
{
    long long bytes = 0;
    *nnames = 0;
    for (int i = 0; i < n; i++) {
        const char *refusal = mw_entry_refusal(&e[i]);
        char file[600];
        snprintf(file, sizeof file, "%s%s", prefix, e[i].name);
        if (refusal)
            mw_notes_add(&st->notes, file, refusal);
        else if (e[i].type == '-') {
            bytes += e[i].size;
            names[(*nnames)++] = (char *)e[i].name;
        }
    }
    if (bytes > MW_ARCHIVE_MAX_BYTES) {
        snprintf(st->why, sizeof st->why,
                 "%s unpacks to %lld MB, more than %lld MB: refused (unpack it by hand into a "
                 "folder of its own, keeping the exercise files)",
                 shown, bytes >> 20, MW_ARCHIVE_MAX_BYTES >> 20);
        return -1;
    }
    return 0;
}

/* Counts the regular files and bytes under dir, and removes any link: tar
 * and unzip were asked for regular files only; this is the second lock. */
static void census(const char *dir, int *files, long long *bytes, int depth)
{
    DIR *d = depth < 256 ? opendir(dir) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            census(path, files, bytes, depth + 1);
        else if (S_ISREG(st.st_mode))
            (*files)++, *bytes += st.st_size;
        else
            unlink(path);
    }
    if (d)
        closedir(d);
}

static int extract(const context *cx, const char *scratch, const char *copy, mw_archive kind,
                   const char *dest, char **names, int nnames)
{
    char *argv[MW_ARCHIVE_MAX_ENTRIES + 16];
    int a = 0;
    if (kind == MW_ARCHIVE_ZIP) {
        /* -o: never ask (stdin is /dev/null); names after the archive */
        const char *head[] = {cx->unzip, "-qq", "-o", "-d", dest, copy};
        for (int i = 0; i < 6; i++)
            argv[a++] = (char *)head[i];
    } else {
        /* Compression found by GNU tar itself: a ".tar.gz" a browser
         * already unzipped unpacks too. Names taken literally. */
        const char *head[] = {cx->tar, "-xf", copy, "-C", dest, "--no-same-owner",
                              "--no-same-permissions", "--no-wildcards", "--"};
        for (int i = 0; i < 9; i++)
            argv[a++] = (char *)head[i];
    }
    for (int i = 0; i < nnames; i++)
        argv[a++] = names[i];
    argv[a] = NULL;
    char log[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/unpack.log", scratch);
    context capped = *cx;
    capped.fsize = MW_ARCHIVE_MAX_BYTES; /* a lying header cannot write more */
    return sandbox_run(&capped, scratch, argv, log, 120);
}

/* Unpacks `archive` into dest (which the steps' user can write); notes
 * name its entries as prefix + path. 0, or -1 with st->why. */
static int unpack(const context *cx, const char *scratch, const char *archive, mw_archive kind,
                  const char *shown, const char *prefix, const char *dest, staged *st)
{
    if (kind == MW_ARCHIVE_ZIP && !cx->unzip[0]) {
        snprintf(st->why, sizeof st->why,
                 "cannot unpack %s: unzip is not installed on this machine (install it: "
                 "apt-get install unzip), or unpack it by hand into a folder of its own",
                 shown);
        return -1;
    }
    if (kind != MW_ARCHIVE_ZIP && !cx->tar[0]) {
        snprintf(st->why, sizeof st->why, "cannot unpack %s: tar is not on the PATH", shown);
        return -1;
    }
    char copy[PATH_MAX + 16];
    snprintf(copy, sizeof copy, "%s/archive", scratch);
    if (copy_file(archive, copy, 0644) != 0) { /* nobody may not read the instructor's folder */
        snprintf(st->why, sizeof st->why, "cannot read %s", shown);
        return -1;
    }
    mw_entry *entries;
    char *names[MW_ARCHIVE_MAX_ENTRIES + 1];
    int n, nnames, bad = list_archive(cx, scratch, copy, kind, shown, &entries, &n, st->why,
                                      sizeof st->why) != 0 ||
                         choose_entries(entries, n, shown, prefix, names, &nnames, st) != 0;
    if (!bad && nnames > 0) {
        say(scratch, "unpacking %d file(s) of %s", nnames, shown);
        int rc = extract(cx, scratch, copy, kind, dest, names, nnames);
        int files = 0;
        long long bytes = 0;
        census(dest, &files, &bytes, 0);
        if (rc != 0 || files > MW_ARCHIVE_MAX_ENTRIES || bytes > MW_ARCHIVE_MAX_BYTES) {
            snprintf(st->why, sizeof st->why, "cannot unpack %s (%s): see unpack.log", shown,
                     rc == -1 ? "timed out" : rc != 0 ? "the tool failed" : "past the limits");
            bad = 1;
        }
    }
    free(entries);
    unlink(copy);
    return bad ? -1 : 0;
}

/* ---- layouts ------------------------------------------------------------------ */

static void add_renamed(staged *st, const char *name, const char *download)
{
    st->renamed = realloc(st->renamed, (size_t)(st->nrenamed + 1) * sizeof *st->renamed);
    snprintf(st->renamed[st->nrenamed][0], sizeof st->renamed[0][0], "%s", name);
    snprintf(st->renamed[st->nrenamed][1], sizeof st->renamed[0][1], "%s", download);
    st->nrenamed++;
}

/* Each upload under the name the student gave it, the latest of each name;
 * an uploaded archive unpacked into a folder named after it. */
static int stage_canvas(const context *cx, const mw_submission *sub, const char *scratch,
                        staged *st)
{
    for (int i = 0; i < sub->nuploads; i++) {
        const mw_upload *u = &sub->uploads[i];
        char from[PATH_MAX + 256], to[PATH_MAX + 300], stem[256] = "", prefix[260];
        snprintf(from, sizeof from, "%s/%s", cx->opt.submissions, u->file);
        mw_archive kind = mw_archive_kind(u->original, stem, sizeof stem);
        if (u->superseded) {
            mw_notes_add(&st->notes, u->file, "an earlier upload of the same file: ignored");
        } else if (u->original[0] == '.') {
            mw_notes_add(&st->notes, u->file, "a name starting with a dot: ignored");
        } else if (kind != MW_ARCHIVE_NONE) {
            if (!stem[0]) /* an upload named ".zip" */
                snprintf(stem, sizeof stem, "archive");
            snprintf(to, sizeof to, "%s/sub/%s", scratch, stem);
            snprintf(prefix, sizeof prefix, "%s/", stem);
            if (make_step_dir(cx, to) != 0) {
                snprintf(st->why, sizeof st->why, "cannot make a folder to unpack %s", u->file);
                return -1;
            }
            if (unpack(cx, scratch, from, kind, u->file, prefix, to, st) != 0)
                return -1;
        } else {
            snprintf(to, sizeof to, "%s/sub/%s", scratch, u->original);
            if (copy_file(from, to, 0644) != 0) {
                snprintf(st->why, sizeof st->why, "cannot read %s", u->file);
                return -1;
            }
            add_renamed(st, u->original, u->file);
        }
    }
    return 0;
}

int stage_submission(const context *cx, const mw_submission *sub, const char *scratch,
                     staged *st)
{
    memset(st, 0, sizeof *st);
    char entry[PATH_MAX + 256];
    snprintf(entry, sizeof entry, "%s/%s", cx->opt.submissions, sub->entry);
    switch (sub->layout) {
    case MW_LAYOUT_FOLDER:
        snprintf(st->from, sizeof st->from, "%s", entry);
        return 0;
    case MW_LAYOUT_FILE:
        snprintf(st->from, sizeof st->from, "%s", entry);
        st->single_file = 1;
        return 0;
    case MW_LAYOUT_ARCHIVE:
        snprintf(st->from, sizeof st->from, "%s/sub", scratch);
        return unpack(cx, scratch, entry, sub->archive, sub->entry, "", st->from, st);
    case MW_LAYOUT_CANVAS:
        snprintf(st->from, sizeof st->from, "%s/sub", scratch);
        return stage_canvas(cx, sub, scratch, st);
    }
    return -1;
}

/* ---- what was not graded ---------------------------------------------------------- */

void shown_name(const staged *st, const char *path, char *out, size_t len)
{
    size_t n = strlen(st->from);
    const char *rel = strncmp(path, st->from, n) == 0 && path[n] == '/' ? path + n + 1 : path;
    for (int i = 0; i < st->nrenamed; i++)
        if (strcmp(st->renamed[i][0], rel) == 0)
            rel = st->renamed[i][1];
    snprintf(out, len, "%s", rel);
}

/* Notes at most this many unmatched files: a student who hands in a whole
 * repository gets a line saying how many more. */
enum { MAX_UNMATCHED = 50 };

static void walk_unmatched(staged *st, const char *dir, char used[][PATH_MAX], int nused,
                           int depth, int *count)
{
    DIR *d = depth <= 6 ? opendir(dir) : NULL; /* as deep as the exercise files are looked for */
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat s;
        if (lstat(path, &s) != 0 || S_ISLNK(s.st_mode))
            continue;
        if (S_ISDIR(s.st_mode)) {
            walk_unmatched(st, path, used, nused, depth + 1, count);
            continue;
        }
        int taken = 0;
        for (int i = 0; i < nused && !taken; i++)
            taken = strcmp(used[i], path) == 0;
        if (taken || !S_ISREG(s.st_mode) || ++*count > MAX_UNMATCHED)
            continue;
        char shown[256];
        shown_name(st, path, shown, sizeof shown);
        mw_notes_add(&st->notes, shown, "matched no exercise");
    }
    if (d)
        closedir(d);
}

void note_unmatched(staged *st, char used[][PATH_MAX], int nused)
{
    if (st->single_file)
        return;
    int count = 0;
    walk_unmatched(st, st->from, used, nused, 0, &count);
    if (count > MAX_UNMATCHED) {
        char more[64];
        snprintf(more, sizeof more, "(%d more)", count - MAX_UNMATCHED);
        mw_notes_add(&st->notes, more, "matched no exercise");
    }
}

void staged_free(staged *st)
{
    mw_notes_free(&st->notes);
    free(st->renamed);
    st->renamed = NULL;
    st->nrenamed = 0;
}
