/* strip.c: mw-strip, which makes a student skeleton from a reference solution.
 *
 * The reference solutions in solutions/NN-name/ are the single source of
 * truth; the skeletons in exercises/NN-name/ are generated from them with
 * this tool and committed, and a test fails when the two drift apart.
 *
 * Marker syntax
 * -------------
 * A solution region starts with a line "// BEGIN SOLUTION" and ends with a
 * line "// END SOLUTION", each marker alone on its line (whitespace around it
 * is allowed; markers.c parses them, for mw-mutate too). Inside a region:
 *
 *   - a line that starts with "// TODO" (after its indentation) is kept as it
 *     is: it tells the student what goes there;
 *   - a line that starts with "// STUB: " is kept without that prefix, with
 *     its indentation: it is the placeholder code the skeleton compiles with;
 *   - every other line, and the two marker lines, are dropped.
 *
 * Lines outside regions are copied verbatim. For example, the solution
 *
 *     cudaError_t launch_add(const float *x, const float *y, float *z, int n)
 *     {
 *         // BEGIN SOLUTION
 *         // TODO: launch add_kernel with one thread per element.
 *         // STUB: return MW_NOT_IMPLEMENTED;
 *         int block = 256;
 *         add_kernel<<<(n + block - 1) / block, block>>>(x, y, z, n);
 *         return cudaGetLastError();
 *         // END SOLUTION
 *     }
 *
 * becomes the skeleton
 *
 *     cudaError_t launch_add(const float *x, const float *y, float *z, int n)
 *     {
 *         // TODO: launch add_kernel with one thread per element.
 *         return MW_NOT_IMPLEMENTED;
 *     }
 *
 * Mistakes that could leak a solution or leave the student without guidance
 * are errors, reported as "FILE:LINE: what is wrong": a nested BEGIN, an END
 * with no open region, a region left open at the end of the file, a region
 * without a TODO line, a line that mentions BEGIN/END SOLUTION but is not an
 * exact marker (a typo would copy the solution into the skeleton), a
 * misspelt STUB line inside a region, and a file with no region at all
 * (unless --allow-none).
 *
 * Usage
 * -----
 *   mw-strip [--allow-none] IN OUT          write OUT (atomically)
 *   mw-strip [--allow-none] --check IN OUT  is OUT what IN generates?
 *
 * Exit status: 0 done (or up to date); 1 a marker error in IN, or OUT out of
 * date; 2 wrong usage or an I/O error. On any error OUT is left untouched.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PREFIX_TODO "// TODO"
#define PREFIX_STUB "// STUB: "

enum {
    EXIT_REJECTED = 1,    /* a marker error in IN, or OUT out of date */
    EXIT_USAGE_OR_IO = 2, /* wrong arguments, a file that cannot be read or written */
};

static const char usage_text[] =
    "usage: mw-strip [--allow-none] IN OUT\n"
    "       mw-strip [--allow-none] --check IN OUT\n"
    "       mw-strip --help\n"
    "\n"
    "Makes a student skeleton OUT from the reference solution IN: lines between\n"
    "'// BEGIN SOLUTION' and '// END SOLUTION' are dropped, except '// TODO'\n"
    "lines (kept) and '// STUB: code' lines (kept as 'code').\n"
    "\n"
    "  --check       write nothing; exit 1 if OUT differs from what IN generates\n"
    "  --allow-none  accept an IN without any solution region\n"
    "\n"
    "Exit status: 0 ok, 1 marker error or OUT out of date, 2 usage or I/O error.\n";

#define TOOL_NAME "mw-strip"
#include "markers.h"
#include "textbuf.h"

static bool starts_with(struct line text, const char *prefix)
{
    size_t n = strlen(prefix);
    return text.len >= n && memcmp(text.text, prefix, n) == 0;
}

/* A comment that looks meant as a STUB but lacks the exact "// STUB: ". */
static bool misspelt_stub(struct line text)
{
    if (starts_with(text, PREFIX_STUB) || !starts_with(text, "//"))
        return false;
    size_t i = 2;
    while (i < text.len && isspace((unsigned char)text.text[i]))
        i++;
    return match_word(text, i, "STUB") != 0;
}

/* ---- Stripping ---------------------------------------------------------- */

static void emit(struct buffer *out, const char *text, size_t len, bool newline)
{
    append(out, text, len);
    if (newline)
        append(out, "\n", 1);
}

/* Emits one line from inside a region; returns false for a misspelt STUB. */
static bool emit_region_line(struct buffer *out, const struct line *line,
                             int *todo_count)
{
    struct line text = trimmed(line);
    if (starts_with(text, PREFIX_TODO)) {
        emit(out, line->text, line->len, line->has_newline);
        (*todo_count)++;
    } else if (starts_with(text, PREFIX_STUB)) {
        size_t indent = indent_width(line);
        size_t code = indent + strlen(PREFIX_STUB);
        append(out, line->text, indent);
        emit(out, line->text + code, line->len - code, line->has_newline);
    } else if (misspelt_stub(text)) {
        return false;
    }
    return true;
}

/* Turns the solution in into the skeleton out. On a marker error prints
 * "name:LINE: what is wrong" and returns false. */
static bool strip(const char *name, const struct buffer *in, struct buffer *out,
                  bool allow_none)
{
    struct line line;
    size_t pos = 0;
    struct markers m = { 0 };
    int todo_count = 0, regions = 0;

    while (next_line(in->data, in->len, &pos, &line)) {
        struct line text = trimmed(&line);
        enum mark mark = marker_read(&m, &line);
        if (mark == MARK_ERROR) {
            return report(name, m.error_line, "%s", m.error);
        } else if (mark == MARK_BEGINS) {
            todo_count = 0;
        } else if (mark == MARK_ENDS) {
            if (todo_count == 0)
                return report(name, m.closed_line, "solution region (lines %d-%d) "
                              "has no '%s' line saying what the student writes "
                              "there", m.closed_line, m.line_no, PREFIX_TODO);
            regions++;
        } else if (marker_mentioned(text)) {
            return report(name, m.line_no, "malformed marker '%.*s': a marker is "
                          "exactly '%s' or '%s', alone on its line",
                          (int)text.len, text.text, MARK_BEGIN, MARK_END);
        } else if (mark == MARK_OUTSIDE) {
            emit(out, line.text, line.len, line.has_newline);
        } else if (!emit_region_line(out, &line, &todo_count)) {
            return report(name, m.line_no, "malformed stub '%.*s': a stub line "
                          "starts with exactly '%s'", (int)text.len, text.text,
                          PREFIX_STUB);
        }
    }
    if (!markers_closed(&m))
        return report(name, m.error_line, "%s", m.error);
    if (regions == 0 && !allow_none)
        return report(name, 1, "no '%s' region: nothing to strip (use "
                      "--allow-none if that is intended)", MARK_BEGIN);
    return true;
}

/* ---- Writing and checking ----------------------------------------------- */

static bool write_all(int fd, const struct buffer *buf)
{
    size_t done = 0;
    while (done < buf->len) {
        ssize_t wrote = write(fd, buf->data + done, buf->len - done);
        if (wrote < 0 && errno != EINTR)
            return false;
        done += wrote > 0 ? (size_t)wrote : 0;
    }
    return true;
}

/* Writes buf to path through a temporary file in the same folder and a
 * rename, so that path is either the old file or the complete new one. */
static bool write_atomically(const char *path, const struct buffer *buf)
{
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    size_t temp_size = strlen(path) + sizeof "..XXXXXX";
    char *temp = malloc(temp_size);
    if (!temp) {
        perror("mw-strip");
        return false;
    }
    snprintf(temp, temp_size, "%.*s.%s.XXXXXX", dir_len, path, path + dir_len);

    mode_t mask = umask(0);
    umask(mask);
    int fd = mkstemp(temp);
    bool created = fd >= 0;
    bool ok = created && fchmod(fd, 0666 & ~mask) == 0 && write_all(fd, buf) &&
              fsync(fd) == 0;
    if (created && close(fd) != 0)
        ok = false;
    ok = ok && rename(temp, path) == 0;
    if (!ok) {
        fprintf(stderr, "mw-strip: cannot write %s: %s\n", path, strerror(errno));
        if (created)
            unlink(temp);
    }
    free(temp);
    return ok;
}

/* 1-based number of the first line where a and b differ; 0 if equal. */
static int first_difference(const struct buffer *a, const struct buffer *b)
{
    if (a->len == b->len && (a->len == 0 || !memcmp(a->data, b->data, a->len)))
        return 0;
    int line_no = 1;
    for (size_t i = 0; i < a->len && i < b->len && a->data[i] == b->data[i]; i++)
        line_no += a->data[i] == '\n';
    return line_no;
}

static int check_up_to_date(const char *in_path, const char *out_path,
                            const struct buffer *expected)
{
    struct buffer found = { 0 };
    struct stat st;
    int line_no;
    if (stat(out_path, &st) != 0 && errno == ENOENT) {
        fprintf(stderr, "%s is out of date with %s: run 'make skeletons'\n"
                "%s: does not exist\n", out_path, in_path, out_path);
        return EXIT_REJECTED;
    }
    if (!read_file(out_path, &found))
        return EXIT_USAGE_OR_IO;
    line_no = first_difference(expected, &found);
    free(found.data);
    if (line_no == 0)
        return EXIT_SUCCESS;
    fprintf(stderr, "%s is out of date with %s: run 'make skeletons'\n"
            "%s:%d: first differing line\n", out_path, in_path, out_path, line_no);
    return EXIT_REJECTED;
}

static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static bool exists_but_not_regular(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

static int usage_error(const char *why)
{
    fprintf(stderr, "mw-strip: %s\n%s", why, usage_text);
    return EXIT_USAGE_OR_IO;
}

int main(int argc, char **argv)
{
    bool check = false, allow_none = false;
    const char *paths[2];
    int path_count = 0;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return EXIT_SUCCESS;
        } else if (!strcmp(argv[i], "--check")) {
            check = true;
        } else if (!strcmp(argv[i], "--allow-none")) {
            allow_none = true;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return usage_error("unknown option");
        } else if (path_count == 2) {
            return usage_error("too many arguments");
        } else {
            paths[path_count++] = argv[i];
        }
    }
    if (path_count != 2)
        return usage_error("expected IN and OUT");
    const char *in_path = paths[0], *out_path = paths[1];
    if (same_file(in_path, out_path)) {
        fprintf(stderr, "mw-strip: IN and OUT are the same file: %s\n", in_path);
        return EXIT_USAGE_OR_IO;
    }
    if (!check && exists_but_not_regular(out_path)) {
        /* The rename would replace a link, a device or a folder's entry. */
        fprintf(stderr, "mw-strip: %s is not a regular file\n", out_path);
        return EXIT_USAGE_OR_IO;
    }

    struct buffer solution = { 0 }, skeleton = { 0 };
    if (!read_file(in_path, &solution))
        return EXIT_USAGE_OR_IO;
    int status;
    if (!strip(in_path, &solution, &skeleton, allow_none))
        status = EXIT_REJECTED;
    else if (check)
        status = check_up_to_date(in_path, out_path, &skeleton);
    else
        status = write_atomically(out_path, &skeleton) ? EXIT_SUCCESS
                                                        : EXIT_USAGE_OR_IO;
    free(solution.data);
    free(skeleton.data);
    return status;
}
