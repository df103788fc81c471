/* markers.h: the solution markers' grammar, one parser for mw-strip
 * (strip.c), which cuts the regions out of a solution, and mw-mutate
 * (mutate.c), which plants mistakes inside them only.
 *
 * A solution region starts with a line "// BEGIN SOLUTION" and ends with a
 * line "// END SOLUTION", each marker alone on its line (spaces and tabs
 * before it, any white space after it). Regions do not nest, an END closes
 * the region open, and every region is closed by the end of the file. */
#ifndef MW_MARKERS_H
#define MW_MARKERS_H

#include <stdbool.h>
#include <stddef.h>

#define MARK_BEGIN "// BEGIN SOLUTION"
#define MARK_END "// END SOLUTION"

/* One line of a file: its text without the '\n', and whether it had one. */
struct line {
    const char *text;
    size_t len;
    bool has_newline;
};

/* The line at data[*pos] (of size bytes), moving *pos past it; false at the
 * end. A last line without a '\n' is a line; nothing after a final '\n' is
 * not. */
bool next_line(const char *data, size_t size, size_t *pos, struct line *line);

/* The width of the line's indentation: its leading spaces and tabs. */
size_t indent_width(const struct line *line);

/* The line's text without the white space around it (including a '\r'). */
struct line trimmed(const struct line *line);

/* Case-insensitive match of the upper-case `word` at text[at]; returns the
 * end or 0. */
size_t match_word(struct line text, size_t at, const char *word);

/* What a line is to the grammar. */
enum mark {
    MARK_OUTSIDE, /* an ordinary line outside every region */
    MARK_INSIDE,  /* an ordinary line inside a region */
    MARK_BEGINS,  /* the BEGIN marker of a region */
    MARK_ENDS,    /* the END marker of a region */
    MARK_ERROR,   /* a marker where the grammar forbids it (error, error_line) */
};

/* The parser's state over one file, lines given in order; zero to start. */
struct markers {
    int line_no;     /* the line read last, 1-based */
    int open_line;   /* the BEGIN line of the region open, 0 outside */
    int closed_line; /* after MARK_ENDS: the BEGIN line of the region it closed */
    int error_line;  /* after an error: the line it names */
    char error[160]; /* and what is wrong */
};

/* Reads the next line of the file. */
enum mark marker_read(struct markers *m, const struct line *line);

/* At the end of the file: true when no region is left open, else false
 * with the error set. */
bool markers_closed(struct markers *m);

/* Does the (trimmed) line mention BEGIN or END SOLUTION in any spelling,
 * such as a block comment, "//BEGIN SOLUTION", "// begin_solution" or
 * "// END SOLUTIONS"? A near miss of a marker, which mw-strip refuses: it
 * would copy the solution into the skeleton. */
bool marker_mentioned(struct line text);

#endif
