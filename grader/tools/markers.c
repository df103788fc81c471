/* markers.c: the solution markers' grammar (markers.h). */
#include "markers.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool next_line(const char *data, size_t size, size_t *pos, struct line *line)
{
    if (*pos >= size)
        return false;
    const char *start = data + *pos;
    const char *newline = memchr(start, '\n', size - *pos);
    line->text = start;
    line->len = newline ? (size_t)(newline - start) : size - *pos;
    line->has_newline = newline != NULL;
    *pos += line->len + line->has_newline;
    return true;
}

size_t indent_width(const struct line *line)
{
    size_t i = 0;
    while (i < line->len && (line->text[i] == ' ' || line->text[i] == '\t'))
        i++;
    return i;
}

struct line trimmed(const struct line *line)
{
    size_t start = indent_width(line), end = line->len;
    while (end > start && isspace((unsigned char)line->text[end - 1]))
        end--;
    return (struct line){ line->text + start, end - start, line->has_newline };
}

static bool equals(struct line text, const char *word)
{
    return text.len == strlen(word) && memcmp(text.text, word, text.len) == 0;
}

size_t match_word(struct line text, size_t at, const char *word)
{
    for (; *word; word++, at++)
        if (at >= text.len || toupper((unsigned char)text.text[at]) != *word)
            return 0;
    return at;
}

static enum mark fail(struct markers *m, int line_no)
{
    m->error_line = line_no;
    return MARK_ERROR;
}

enum mark marker_read(struct markers *m, const struct line *line)
{
    struct line text = trimmed(line);
    m->line_no++;
    if (equals(text, MARK_BEGIN)) {
        if (m->open_line) {
            snprintf(m->error, sizeof m->error,
                     "nested '%s': the region opened at line %d is still open", MARK_BEGIN,
                     m->open_line);
            return fail(m, m->line_no);
        }
        m->open_line = m->line_no;
        return MARK_BEGINS;
    }
    if (equals(text, MARK_END)) {
        if (!m->open_line) {
            snprintf(m->error, sizeof m->error, "'%s' without an open region", MARK_END);
            return fail(m, m->line_no);
        }
        m->closed_line = m->open_line;
        m->open_line = 0;
        return MARK_ENDS;
    }
    return m->open_line ? MARK_INSIDE : MARK_OUTSIDE;
}

bool markers_closed(struct markers *m)
{
    if (!m->open_line)
        return true;
    snprintf(m->error, sizeof m->error, "'%s' is never closed by '%s'", MARK_BEGIN, MARK_END);
    fail(m, m->open_line);
    return false;
}

/* BEGIN/END must start a word: "append_solution" does not count. */
bool marker_mentioned(struct line text)
{
    for (size_t i = 0; i < text.len; i++) {
        if (i > 0 && isalnum((unsigned char)text.text[i - 1]))
            continue;
        size_t after = match_word(text, i, "BEGIN");
        if (!after)
            after = match_word(text, i, "END");
        if (!after)
            continue;
        while (after < text.len && text.text[after] != '\0' &&
               strchr(" \t_-", text.text[after]))
            after++;
        if (match_word(text, after, "SOLUTION"))
            return true;
    }
    return false;
}
