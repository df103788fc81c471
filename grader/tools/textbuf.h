/* textbuf.h: a growable byte buffer, whole-file reading and "name:LINE:"
 * error lines, for the tools mw-strip (strip.c) and mw-mutate (mutate.c).
 * The including file defines TOOL_NAME ("mw-strip") and EXIT_USAGE_OR_IO
 * before including it. */
#ifndef MW_TEXTBUF_H
#define MW_TEXTBUF_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable byte buffer; files may lack a final newline or hold any byte. */
struct buffer {
    char *data;
    size_t len, cap;
};

/* realloc, or exit saying why: a tool has nothing to do without memory. */
static inline void *grow(void *p, size_t size)
{
    p = realloc(p, size);
    if (!p) {
        perror(TOOL_NAME);
        exit(EXIT_USAGE_OR_IO);
    }
    return p;
}

static inline void append(struct buffer *buf, const char *bytes, size_t count)
{
    if (count == 0)
        return;
    if (buf->len + count > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 4096;
        while (cap < buf->len + count)
            cap *= 2;
        buf->data = grow(buf->data, cap);
        buf->cap = cap;
    }
    memcpy(buf->data + buf->len, bytes, count);
    buf->len += count;
}

/* Reads a whole file; on failure prints why and returns false. */
static inline bool read_file(const char *path, struct buffer *buf)
{
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, TOOL_NAME ": cannot read %s: %s\n", path, strerror(errno));
        return false;
    }
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0)
        append(buf, chunk, got);
    bool failed = ferror(file);
    fclose(file);
    if (failed)
        fprintf(stderr, TOOL_NAME ": error reading %s\n", path);
    return !failed;
}

/* Prints "name:LINE: message" and returns false, for "return report(...)". */
__attribute__((format(printf, 3, 4)))
static inline bool report(const char *name, int line_no, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "%s:%d: ", name, line_no);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return false;
}

#endif
