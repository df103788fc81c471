/* mutate.c: mw-mutate, which makes mutants of a reference solution for the
 * mutation testing of the grader (`make mutants CH=NN`,
 * docs/mutation-testing.md).
 *
 * A mutant is the solution with one small, plausible mistake planted at one
 * place: the grader should reject it. A mutant the grader passes shows a
 * mistake a student could make without the grader noticing (or a change
 * that makes no difference: an equivalent mutant).
 *
 * Where: only code inside the solution regions ("// BEGIN SOLUTION" to
 * "// END SOLUTION", as grader/tools/markers.h reads them), never a comment, a
 * string, a preprocessor line (#define, #pragma) or a line outside a region.
 * The file is read as C tokens, so "i < n" in a comment is not a site, and
 * the angle brackets of a template (load4<VEC>(...), reinterpret_cast<...>,
 * template <int N>) or of a launch (<<<...>>>) are not comparisons. And
 * only kernel code: __global__ and __device__ functions, and host
 * functions that launch a kernel or hold a region (the launcher); not
 * other host code (an autotuner, a cache file), whose mistakes the grader
 * cannot see. Nor a static_assert, which the compiler checks (its mutant
 * does not build, or builds the same code). Not error paths either (a
 * comparison with cudaSuccess: the grader cannot make a call fail), nor
 * the comparisons of loops with a constant start and bound (for (int i =
 * 0; i < 4; ++i): the same trip for every thread, over registers or a
 * warp's shuffles, which any case catches).
 *
 * The operators, one mutant per site and operator:
 *
 *   cmp-flip     a comparison negated: < to >=, <= to >, > to <=, >= to <,
 *                == to !=, != to ==
 *   cmp-bound    a comparison off by one: < to <=, <= to <, > to >=, >= to >
 *   guard-drop   the condition of an if that compares, replaced by 1 (the
 *                guarded code always runs), or by 0 when the if guards a
 *                return, break or continue (the early exit never happens)
 *   term-drop    one operand of a && or || chain removed (a && b to a, and
 *                to b): one bound of a guard dropped
 *   index-inc    an array index e to e + 1
 *   index-dec    an array index e to e - 1
 *   stride-half  the step of a for loop's += halved (c += blockDim.x to
 *                c += blockDim.x / 2)
 *   sync-drop    a __syncthreads(); removed (left as an empty statement)
 *   ninf-zero    a -INFINITY (a max's start, a mask) changed to 0.f, the
 *                classic "the max starts at 0"; -INFINITY compared with
 *                (x == -INFINITY) is left alone
 *   narrow       a 64-bit index narrowed: size_t to int, or a (size_t)
 *                cast removed
 *   loop-early   a for loop's bound one step early: i < n to i < n - 1
 *                (i > 0 to i > 0 + 1)
 *
 * Array declarations (float As[32][32]) are not indices; an index is a [
 * after a name, a ] or a ), and not after a type. Indices into arrays
 * declared in the file (registers, shared memory) are no sites: mostly
 * compile-time constants in unrolled loops, which any case catches; indices
 * into pointers (global memory) are.
 *
 * Output: CSV, a header and one row per mutant, sorted by line, column and
 * operator (the order above):
 *
 *   file,line,column,operator,original,mutated
 *
 * file is FILE's base name; line and column (1-based, in bytes) are where
 * the site starts; original is the text the mutant replaces and mutated
 * what it puts there, each on one line (runs of white space shown as one
 * space; empty: nothing). A site's key, FILE:LINE:COLUMN:OPERATOR, is
 * unique; the equivalent-mutants lists use it.
 *
 * Usage
 * -----
 *   mw-mutate FILE              list the mutants of FILE
 *   mw-mutate --out DIR FILE    list them, and write mutant K (1-based, in
 *                               list order) to DIR/K/NAME, K zero-padded to
 *                               3 digits, NAME FILE's base name
 *
 * Exit status: 0 done; 1 a marker error in FILE, or no site at all (a tool
 * that silently finds nothing proves nothing); 2 wrong usage or an I/O
 * error.
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

enum {
    EXIT_REJECTED = 1,    /* a marker error, or nothing to mutate */
    EXIT_USAGE_OR_IO = 2, /* wrong arguments, a file that cannot be read or written */
};

static const char usage_text[] =
    "usage: mw-mutate FILE\n"
    "       mw-mutate --out DIR FILE\n"
    "       mw-mutate --help\n"
    "\n"
    "Lists the mutants of the solution FILE as CSV, one mutation at one site of the\n"
    "code between '// BEGIN SOLUTION' and '// END SOLUTION' each:\n"
    "  file,line,column,operator,original,mutated\n"
    "Operators: cmp-flip cmp-bound guard-drop term-drop index-inc index-dec\n"
    "stride-half sync-drop ninf-zero narrow loop-early (docs/mutation-testing.md).\n"
    "\n"
    "  --out DIR   also write mutant K (in list order) to DIR/K/<FILE's name>,\n"
    "              K zero-padded to 3 digits\n"
    "\n"
    "Exit status: 0 ok, 1 marker error or no site, 2 usage or I/O error.\n";

/* The operators, in the order they sort at one site. */
enum op {
    OP_CMP_FLIP,
    OP_CMP_BOUND,
    OP_GUARD_DROP,
    OP_TERM_DROP,
    OP_INDEX_INC,
    OP_INDEX_DEC,
    OP_STRIDE_HALF,
    OP_SYNC_DROP,
    OP_NINF_ZERO,
    OP_NARROW,
    OP_LOOP_EARLY,
};
static const char *const op_name[] = {
    "cmp-flip",  "cmp-bound",   "guard-drop", "term-drop", "index-inc",  "index-dec",
    "stride-half", "sync-drop", "ninf-zero",  "narrow",    "loop-early",
};

#define TOOL_NAME "mw-mutate"
#include "markers.h"
#include "textbuf.h"

static void append_str(struct buffer *buf, const char *s)
{
    append(buf, s, strlen(s));
}

/* ---- The solution regions ------------------------------------------------- */

/* What each line (1-based) is: outside a region, inside one, or a region's
 * BEGIN marker (an END marker's line counts as outside). Nested or unclosed
 * markers are errors here too (mw-strip names them all). */
enum line_kind { OUTSIDE, INSIDE, BEGIN_LINE };

static bool find_regions(const char *name, const struct buffer *in, char **in_region)
{
    int lines = 1;
    for (size_t i = 0; i < in->len; i++)
        lines += in->data[i] == '\n';
    char *inside = calloc((size_t)lines + 2, sizeof *inside);
    if (!inside) {
        perror("mw-mutate");
        exit(EXIT_USAGE_OR_IO);
    }
    struct markers m = { 0 };
    struct line line;
    size_t pos = 0;
    while (next_line(in->data, in->len, &pos, &line)) {
        enum mark mark = marker_read(&m, &line);
        if (mark == MARK_ERROR)
            break;
        if (mark != MARK_ENDS)
            inside[m.line_no] = mark == MARK_BEGINS ? BEGIN_LINE
                                : mark == MARK_INSIDE ? INSIDE
                                                      : OUTSIDE;
    }
    if (m.error_line || !markers_closed(&m)) {
        free(inside);
        return report(name, m.error_line, "%s", m.error);
    }
    *in_region = inside;
    return true;
}

/* ---- Tokens ----------------------------------------------------------------- */

enum kind { T_NAME, T_NUMBER, T_STRING, T_PUNCT };

struct token {
    enum kind kind;
    size_t start, len; /* bytes of the file */
    int line, column;  /* 1-based */
    bool region;       /* on a line inside a solution region */
    bool scope;        /* in kernel code: a device function, or a launch's host function */
    bool body;         /* in a function's body */
    bool fixed;        /* the comparison of a loop with a constant start and bound */
    int match;         /* the matching bracket's index, or -1 */
    bool angle;        /* a template's < or > (or the > of a >> closing two) */
};

/* A name in the file's text. */
struct name {
    size_t start, len;
};

struct source {
    const char *name; /* the file's base name, for the CSV */
    const char *text;
    size_t size;
    struct token *tok;
    int count;
    struct name *consts; /* compile-time constants: macros, template parameters, */
    int nconsts, cap;    /* file-scope consts, enumerators */
};

static bool is(const struct source *s, int i, const char *text)
{
    if (i < 0 || i >= s->count)
        return false;
    const struct token *t = &s->tok[i];
    return t->kind != T_STRING && t->len == strlen(text) &&
           memcmp(s->text + t->start, text, t->len) == 0;
}

static bool is_kind(const struct source *s, int i, enum kind kind)
{
    return i >= 0 && i < s->count && s->tok[i].kind == kind;
}

static bool is_any(const struct source *s, int i, const char *const *list)
{
    for (; *list; list++)
        if (is(s, i, *list))
            return true;
    return false;
}

/* Punctuators, longest first: "<<<" and ">>>" are CUDA's launch brackets. */
static const char *const puncts[] = {
    "<<<", ">>>", "<<=", ">>=", "...", "->*", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
    "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->", "::", NULL,
};

static void add_const(struct source *s, size_t start, size_t len)
{
    if (len == 0)
        return;
    if (s->nconsts == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->consts = grow(s->consts, (size_t)s->cap * sizeof *s->consts);
    }
    s->consts[s->nconsts++] = (struct name){ start, len };
}

static void add_token(struct source *s, int *cap, enum kind kind, size_t start, size_t len,
                      int line, int column, const char *in_region)
{
    if (s->count == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        s->tok = grow(s->tok, (size_t)*cap * sizeof *s->tok);
    }
    s->tok[s->count++] = (struct token){ kind, start, len, line, column, in_region[line] == INSIDE,
                                         false, false, false, -1, false };
}

/* Cuts the text into tokens, dropping comments, white space and
 * preprocessor lines (with their backslash continuations). */
static void tokenize(struct source *s, const char *in_region)
{
    const char *p = s->text;
    size_t n = s->size, i = 0, line_start = 0;
    int line = 1, cap = 0;
    bool line_has_token = false;
    while (i < n) {
        char c = p[i];
        if (c == '\n') {
            i++, line++, line_start = i, line_has_token = false;
        } else if (isspace((unsigned char)c)) {
            i++;
        } else if (c == '/' && i + 1 < n && p[i + 1] == '/') {
            while (i < n && p[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < n && p[i + 1] == '*') {
            for (i += 2; i < n && !(p[i] == '*' && i + 1 < n && p[i + 1] == '/'); i++)
                if (p[i] == '\n')
                    line++, line_start = i + 1, line_has_token = false;
            i = i + 2 < n ? i + 2 : n;
        } else if (c == '#' && !line_has_token) {
            /* A directive, to its last unescaped newline. Comments in it
             * are skipped with it; a #define's name is a constant. */
            size_t k = i + 1;
            while (k < n && (p[k] == ' ' || p[k] == '\t'))
                k++;
            if (n - k > 7 && strncmp(p + k, "define", 6) == 0 && isspace((unsigned char)p[k + 6])) {
                for (k += 6; k < n && (p[k] == ' ' || p[k] == '\t');)
                    k++;
                size_t name = k;
                while (k < n && (isalnum((unsigned char)p[k]) || p[k] == '_'))
                    k++;
                add_const(s, name, k - name);
            }
            while (i < n && p[i] != '\n') {
                if (p[i] == '\\' && i + 1 < n && p[i + 1] == '\n')
                    i++, line++, line_start = i + 1;
                i++;
            }
        } else {
            size_t start = i;
            int column = (int)(i - line_start) + 1;
            enum kind kind = T_PUNCT;
            if (c == '"' || c == '\'') {
                kind = T_STRING;
                for (i++; i < n && p[i] != c && p[i] != '\n'; i++)
                    if (p[i] == '\\' && i + 1 < n)
                        i++;
                i = i < n && p[i] == c ? i + 1 : i;
            } else if (isalpha((unsigned char)c) || c == '_') {
                kind = T_NAME;
                while (i < n && (isalnum((unsigned char)p[i]) || p[i] == '_'))
                    i++;
            } else if (isdigit((unsigned char)c) ||
                       (c == '.' && i + 1 < n && isdigit((unsigned char)p[i + 1]))) {
                /* 1.f, 0xffffffffu, 1e30f, 1.5e-3: digits, letters, dots,
                 * and a sign right after an exponent's e or p. */
                kind = T_NUMBER;
                bool hex = c == '0' && i + 1 < n && (p[i + 1] == 'x' || p[i + 1] == 'X');
                for (i++; i < n; i++) {
                    char d = p[i], e = p[i - 1];
                    bool exp_sign = (d == '+' || d == '-') &&
                                    (hex ? e == 'p' || e == 'P' : e == 'e' || e == 'E');
                    if (!(isalnum((unsigned char)d) || d == '.' || d == '_' || exp_sign))
                        break;
                }
            } else {
                size_t len = 1;
                for (const char *const *q = puncts; *q; q++)
                    if (strncmp(p + i, *q, strlen(*q)) == 0) {
                        len = strlen(*q);
                        break;
                    }
                i += len;
            }
            add_token(s, &cap, kind, start, i - start, line, column, in_region);
            line_has_token = true;
        }
    }
}

/* Pairs (), [] and {}; an unbalanced file leaves match at -1 where it fails. */
static void match_brackets(struct source *s)
{
    int *stack = grow(NULL, ((size_t)s->count + 1) * sizeof *stack), depth = 0;
    for (int i = 0; i < s->count; i++) {
        if (is(s, i, "(") || is(s, i, "[") || is(s, i, "{")) {
            stack[depth++] = i;
        } else if (is(s, i, ")") || is(s, i, "]") || is(s, i, "}")) {
            const char *open = is(s, i, ")") ? "(" : is(s, i, "]") ? "[" : "{";
            if (depth > 0 && is(s, stack[depth - 1], open)) {
                int j = stack[--depth];
                s->tok[i].match = j;
                s->tok[j].match = i;
            }
        }
    }
    free(stack);
}

static const char *const assignments[] = {
    "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", NULL,
};

/* Words that may stand before a name without making it a declaration. */
static const char *const not_types[] = {
    "return", "else", "case", "do", "sizeof", "goto", "throw", "new", "delete", NULL,
};

/* Does the token at i hold the same text as the one at j? */
static bool same_text(const struct source *s, int i, int j)
{
    const struct token *a = &s->tok[i], *b = &s->tok[j];
    return a->len == b->len && memcmp(s->text + a->start, s->text + b->start, a->len) == 0;
}

/* Is the name at i declared a template in this file: the name of a struct,
 * class or function that a template <...> header introduces? A call such
 * as block_tile<PERSIST && W::CAUSAL>(...) can hold any expression in its
 * angles, which the rule below would stop at. */
static bool declared_template(const struct source *s, int i)
{
    for (int t = 0; t + 1 < s->count; t++) {
        if (!is(s, t, "template") || !is(s, t + 1, "<") || !s->tok[t + 1].angle)
            continue;
        /* past the header's closing > */
        int k = t + 2, depth = 1;
        for (; k < s->count && depth > 0; k++)
            if (s->tok[k].angle)
                depth += is(s, k, "<") ? 1 : is(s, k, ">>") ? -2 : -1;
        /* the declared names: after struct, class or union, and each name
         * called at the header's level (the function's, and attributes
         * such as __launch_bounds__, which no < follows) */
        int parens = 0;
        for (; k < s->count; k++) {
            if (parens == 0 && (is(s, k, "{") || is(s, k, ";")))
                break;
            if (is(s, k, "("))
                parens++;
            else if (is(s, k, ")"))
                parens--;
            else if (parens == 0 && is_kind(s, k, T_NAME) && same_text(s, k, i) &&
                     (is(s, k + 1, "(") || is(s, k - 1, "struct") || is(s, k - 1, "class") ||
                      is(s, k - 1, "union")))
                return true;
        }
    }
    return false;
}

/* Is the < at i a template's? It is when a name or `template` comes
 * before it and a > closes it before anything a template argument cannot
 * hold: ; { } && || ? : an assignment, == != or an unmatched ). After a
 * name the file declares a template, only ; { } or an unmatched ) stop it:
 * its angles may hold any expression. */
static void mark_templates(struct source *s)
{
    static const char *const stops[] = { ";", "{", "}", "&&", "||", "?", ":", "==", "!=",
                                         "<<<", ">>>", NULL };
    static const char *const hard_stops[] = { ";", "{", "}", "<<<", ">>>", NULL };
    /* template headers first: declared_template reads their angles */
    for (int pass = 0; pass < 2; pass++)
    for (int i = 1; i < s->count; i++) {
        if (!is(s, i, "<") || !is_kind(s, i - 1, T_NAME) || s->tok[i].angle)
            continue;
        const bool header = is(s, i - 1, "template");
        if (header != (pass == 0))
            continue;
        const bool declared = !header && declared_template(s, i - 1);
        int depth = 1, parens = 0;
        for (int j = i + 1; j < s->count; j++) {
            if (is_any(s, j, declared ? hard_stops : stops) ||
                (!declared && is_any(s, j, assignments))) {
                if (!header)
                    break;
            }
            if (is(s, j, "(") || is(s, j, "[")) {
                parens++;
            } else if (is(s, j, ")") || is(s, j, "]")) {
                if (--parens < 0)
                    break;
            } else if (is(s, j, "<") && parens == 0) {
                depth++;
            } else if ((is(s, j, ">") || is(s, j, ">>")) && parens == 0) {
                depth -= is(s, j, ">>") ? 2 : 1;
                if (depth <= 0) {
                    s->tok[i].angle = s->tok[j].angle = true;
                    break;
                }
            }
        }
    }
    /* The inner brackets of a nested template: a < between two angles. */
    for (int i = 0; i < s->count; i++) {
        if (!s->tok[i].angle || !is(s, i, "<"))
            continue;
        int depth = 1;
        for (int j = i + 1; j < s->count && depth > 0; j++) {
            if (is(s, j, "<") && is_kind(s, j - 1, T_NAME)) {
                depth++;
                s->tok[j].angle = true;
            } else if (is(s, j, ">") || is(s, j, ">>")) {
                depth -= is(s, j, ">>") ? 2 : 1;
                s->tok[j].angle = true;
            }
        }
    }
}

/* Marks kernel code, where mutants go: every __global__ or __device__
 * function (its header and body), and every host function that launches a
 * kernel (<<<) or holds a region (the launcher the harness calls). Other
 * host code (chapter 03's autotuner and its cache file, scratch allocation)
 * is left alone: what it gets wrong the grader cannot see, and its mutants
 * would only survive. File-scope declarations are left alone too. */
static void mark_scope(struct source *s, const char *lines)
{
    for (int i = 1; i < s->count; i++) {
        if (!is(s, i, "{") || s->tok[i].match <= i || !is(s, i - 1, ")"))
            continue;
        int end = s->tok[i].match, head = i - 1;
        while (head >= 0) {
            if ((is(s, head, ")") || is(s, head, "]")) && s->tok[head].match >= 0 &&
                s->tok[head].match < head)
                head = s->tok[head].match - 1;
            else if (is(s, head, ";") || is(s, head, "}") || is(s, head, "{"))
                break;
            else
                head--;
        }
        bool kernel = false;
        for (int k = head + 1; k < i; k++)
            kernel = kernel || is(s, k, "__global__") || is(s, k, "__device__");
        for (int k = i + 1; k < end && !kernel; k++)
            kernel = is(s, k, "<<<");
        for (int l = s->tok[i].line + 1; l < s->tok[end].line && !kernel; l++)
            kernel = lines[l] == BEGIN_LINE;
        for (int k = head + 1; k <= end; k++) {
            s->tok[k].scope = kernel;
            s->tok[k].body = k > i;
        }
        i = end;
    }
    /* A static_assert is checked by the compiler: a mutant of it does not
     * build, or builds the same code. */
    for (int i = 0; i + 1 < s->count; i++)
        if (is(s, i, "static_assert") && is(s, i + 1, "(") && s->tok[i + 1].match > i)
            for (int k = i; k <= s->tok[i + 1].match; k++)
                s->tok[k].scope = false;
}

/* Collects the compile-time constants other than macros: template
 * parameters (template <int BM, bool VEC>), consts declared outside
 * function bodies (static const int TM = 8, TN = 8;), and enumerators. */
static void find_constants(struct source *s)
{
    for (int i = 0; i < s->count; i++) {
        if (is(s, i, "template") && is(s, i + 1, "<") && s->tok[i + 1].angle) {
            for (int j = i + 2; j < s->count && !(is(s, j, ">") && s->tok[j].angle); j++)
                if (is_kind(s, j, T_NAME) && is_kind(s, j - 1, T_NAME) &&
                    (is(s, j + 1, ",") || is(s, j + 1, ">") || is(s, j + 1, "=")))
                    add_const(s, s->tok[j].start, s->tok[j].len);
        } else if ((is(s, i, "const") || is(s, i, "constexpr")) && !s->tok[i].body) {
            int depth = 0;
            for (int j = i + 1; j < s->count && !(depth == 0 && is(s, j, ";")); j++) {
                depth += is(s, j, "(") || is(s, j, "{") || is(s, j, "[");
                depth -= is(s, j, ")") || is(s, j, "}") || is(s, j, "]");
                if (depth < 0)
                    break;
                if (depth == 0 && is_kind(s, j, T_NAME) && is(s, j + 1, "="))
                    add_const(s, s->tok[j].start, s->tok[j].len);
            }
        } else if (is(s, i, "enum") && is(s, i + 1, "{") && s->tok[i + 1].match > i) {
            for (int j = i + 2; j < s->tok[i + 1].match; j++)
                if (is_kind(s, j, T_NAME) && (is(s, j - 1, "{") || is(s, j - 1, ",")))
                    add_const(s, s->tok[j].start, s->tok[j].len);
        }
    }
}

/* Is tokens first..last a compile-time constant: numbers, constants,
 * qualified names (C::TM), sizeof and operators? */
static bool constant(const struct source *s, int first, int last)
{
    for (int i = first; i <= last; i++) {
        const struct token *t = &s->tok[i];
        if (t->kind == T_NUMBER || t->kind == T_PUNCT)
            continue;
        if (t->kind != T_NAME)
            return false;
        if (is(s, i, "sizeof") || is(s, i + 1, "::") || is(s, i - 1, "::"))
            continue;
        bool known = false;
        for (int k = 0; k < s->nconsts && !known; k++)
            known = s->consts[k].len == t->len &&
                    memcmp(s->text + s->consts[k].start, s->text + t->start, t->len) == 0;
        if (!known)
            return false;
    }
    return true;
}

static bool is_comparison(const struct source *s, int i)
{
    static const char *const cmps[] = { "<", ">", "<=", ">=", "==", "!=", NULL };
    return is_any(s, i, cmps) && !s->tok[i].angle;
}

/* ---- Mutants ------------------------------------------------------------------ */

struct mutant {
    int line, column; /* of the site */
    enum op op;
    size_t start, end; /* the bytes replaced */
    char *replacement;
};

struct mutants {
    struct mutant *m;
    int count, cap;
};

/* The text of tokens first..last (inclusive), as in the file. */
static void token_text(const struct source *s, int first, int last, struct buffer *out)
{
    size_t start = s->tok[first].start, end = s->tok[last].start + s->tok[last].len;
    append(out, s->text + start, end - start);
}

static bool all_in_region(const struct source *s, int first, int last)
{
    for (int i = first; i <= last; i++)
        if (!s->tok[i].region || !s->tok[i].scope)
            return false;
    return first <= last;
}

/* Adds a mutant replacing tokens first..last by `replacement`; the site is
 * token `site`. Tokens outside a region are never touched. */
static void add(struct mutants *ms, const struct source *s, enum op op, int site, int first,
                int last, const char *replacement)
{
    if (!all_in_region(s, first, last) || !s->tok[site].region || !s->tok[site].scope)
        return;
    if (ms->count == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 256;
        ms->m = grow(ms->m, (size_t)ms->cap * sizeof *ms->m);
    }
    char *copy = grow(NULL, strlen(replacement) + 1);
    strcpy(copy, replacement);
    ms->m[ms->count++] = (struct mutant){ s->tok[site].line, s->tok[site].column, op,
                                          s->tok[first].start,
                                          s->tok[last].start + s->tok[last].len, copy };
}

/* Is the expression first..last one operand of + or -, needing no
 * parentheses: names, numbers, member access, calls and indices, unary
 * operators, * / %, + and -? (With `mult_only`: no + or - either, for / 2.) */
static bool simple(const struct source *s, int first, int last, bool mult_only)
{
    static const char *const fine[] = { ".", "->", "::", "*", "/", "%", "!", "~", NULL };
    for (int i = first; i <= last; i++) {
        if (s->tok[i].match > i && (is(s, i, "(") || is(s, i, "["))) {
            i = s->tok[i].match;
            continue;
        }
        if (s->tok[i].kind != T_PUNCT || s->tok[i].angle || is_any(s, i, fine))
            continue;
        if ((is(s, i, "+") || is(s, i, "-")) && !mult_only)
            continue;
        return false;
    }
    return true;
}

/* tokens first..last with `suffix` after them, in parentheses unless
 * simple: "n - 1", "(a & 3) + 1". */
static void with_suffix(const struct source *s, int first, int last, bool mult_only,
                        const char *suffix, struct buffer *out)
{
    bool paren = !simple(s, first, last, mult_only);
    if (paren)
        append_str(out, "(");
    token_text(s, first, last, out);
    if (paren)
        append_str(out, ")");
    append_str(out, suffix);
    append(out, "", 1);
}

static void comparisons(struct mutants *ms, const struct source *s, int i)
{
    static const char *const from[] = { "<", "<=", ">", ">=", "==", "!=" };
    static const char *const flip[] = { ">=", ">", "<=", "<", "!=", "==" };
    static const char *const bound[] = { "<=", "<", ">=", ">", NULL, NULL };
    if (!is_comparison(s, i) || s->tok[i].fixed || is(s, i - 1, "cudaSuccess") ||
        is(s, i + 1, "cudaSuccess"))
        return;
    for (int k = 0; k < 6; k++)
        if (is(s, i, from[k])) {
            add(ms, s, OP_CMP_FLIP, i, i, i, flip[k]);
            if (bound[k])
                add(ms, s, OP_CMP_BOUND, i, i, i, bound[k]);
        }
}

/* if (cond): cond to 1, or to 0 when it guards an early exit. */
static void guards(struct mutants *ms, const struct source *s, int i)
{
    static const char *const jumps[] = { "return", "break", "continue", NULL };
    if (!is(s, i, "if") || !is(s, i + 1, "(") || s->tok[i + 1].match < 0)
        return;
    int close = s->tok[i + 1].match, first = i + 2, last = close - 1;
    bool compares = false, error_path = false;
    for (int k = first; k <= last; k++) {
        compares = compares || is_comparison(s, k);
        error_path = error_path || is(s, k, "cudaSuccess");
    }
    if (!compares || error_path)
        return;
    int body = close + 1;
    if (is(s, body, "{"))
        body++;
    add(ms, s, OP_GUARD_DROP, first, first, last, is_any(s, body, jumps) ? "0" : "1");
}

/* The template angle that closes (dir +1) or opens (dir -1) the one at i,
 * or -1. A >> closing two counts twice. */
static int angle_match(const struct source *s, int i, int dir)
{
    int depth = 0;
    for (int j = i; j >= 0 && j < s->count; j += dir) {
        if (!s->tok[j].angle)
            continue;
        int step = is(s, j, "<") ? 1 : is(s, j, ">>") ? -2 : -1;
        depth += dir > 0 ? step : -step;
        if (depth <= 0)
            return j;
    }
    return -1;
}

/* Where does an operand of the && or || at `op` end, going `dir` (+1 right,
 * -1 left)? Returns the index of its last token that way. A template's
 * angles are brackets: f<a && b>(x) && c has the operands a, b, and
 * f<...>(x) and c. */
static int operand_end(const struct source *s, int op, int dir)
{
    static const char *const stops[] = { ",", ";", "?", ":", "return", "<<<", ">>>", NULL };
    bool is_or = is(s, op, "||");
    int i = op + dir, last = op;
    while (i >= 0 && i < s->count) {
        const struct token *t = &s->tok[i];
        if (t->angle) {
            bool opens = dir > 0 ? is(s, i, "<") : !is(s, i, "<");
            int match = opens ? angle_match(s, i, dir) : -1;
            if (match < 0)
                break; /* the angle around the operand */
            last = match;
            i = match + dir;
            continue;
        }
        bool opening = is(s, i, "(") || is(s, i, "[") || is(s, i, "{");
        bool closing = is(s, i, ")") || is(s, i, "]") || is(s, i, "}");
        if ((dir > 0 && opening) || (dir < 0 && closing)) {
            if (t->match < 0)
                break;
            last = t->match;
            i = t->match + dir;
            continue;
        }
        if (opening || closing || is_any(s, i, stops) || is_any(s, i, assignments) ||
            is(s, i, "||") || (!is_or && is(s, i, "&&")))
            break;
        last = i;
        i += dir;
    }
    return last;
}

/* a && b: removes b (a && b to a); for the first operator of a chain also
 * removes a (to b). Each operand of a chain is removed once. */
static void terms(struct mutants *ms, const struct source *s, int i)
{
    if (!is(s, i, "&&") && !is(s, i, "||"))
        return;
    int left = operand_end(s, i, -1), right = operand_end(s, i, +1);
    if (left == i || right == i)
        return;
    struct buffer text = { 0 };
    token_text(s, left, i - 1, &text);
    append(&text, "", 1);
    add(ms, s, OP_TERM_DROP, i + 1, left, right, text.data);
    if (!is(s, left - 1, is(s, i, "&&") ? "&&" : "||")) {
        text.len = 0;
        token_text(s, i + 1, right, &text);
        append(&text, "", 1);
        add(ms, s, OP_TERM_DROP, left, left, right, text.data);
    }
    free(text.data);
}

/* Is the name at `name` being declared: a type before it (float x, const
 * float4 x), or a comma in a declaration that starts with a type (float
 * p[4], v[8])? */
static bool declares(const struct source *s, int name)
{
    if (is_kind(s, name - 1, T_NAME))
        return !is_any(s, name - 1, not_types);
    if (!is(s, name - 1, ","))
        return false;
    int i = name - 2;
    while (i >= 0 && !is(s, i, ";") && !is(s, i, "{") && !is(s, i, "}")) {
        if ((is(s, i, ")") || is(s, i, "]")) && s->tok[i].match >= 0 && s->tok[i].match < i)
            i = s->tok[i].match;
        else if (is(s, i, "(") || is(s, i, "[") || is(s, i, "?") || is(s, i, ":"))
            return false; /* f(a, x[i]): arguments */
        i--;
    }
    return is_kind(s, i + 1, T_NAME) && is_kind(s, i + 2, T_NAME) && !is_any(s, i + 1, not_types);
}

/* Is the name at `name` declared somewhere in the file as an array: float
 * acc[8][8], __shared__ float As[32][32], float (&s)[N] (a parameter)? */
static bool declared_array(const struct source *s, int name)
{
    const struct token *t = &s->tok[name];
    for (int i = 1; i + 1 < s->count; i++) {
        const struct token *u = &s->tok[i];
        if (u->kind != T_NAME || u->len != t->len ||
            memcmp(s->text + u->start, s->text + t->start, t->len) != 0)
            continue;
        if (is(s, i + 1, "[") && declares(s, i))
            return true;
        if (is(s, i - 1, "&") && is(s, i - 2, "(") && is(s, i + 1, ")") && is(s, i + 2, "["))
            return true;
    }
    return false;
}

/* x[e]: e + 1 and e - 1, where [ follows a name, ] or ) and x is a pointer:
 * not a name being declared (a type's name, or a type's keyword, just
 * before it), nor an array declared in the file (registers and shared
 * memory, whose indices are mostly compile-time constants in unrolled
 * loops: any case kills their mutants, which would only cost build time). */
static void indices(struct mutants *ms, const struct source *s, int i)
{
    if (!is(s, i, "[") || s->tok[i].match <= i + 1 || is(s, i + 1, "["))
        return;
    int base = i - 1;
    while (is(s, base, "]") && s->tok[base].match >= 0)
        base = s->tok[base].match - 1;
    if (is(s, base, ")") && s->tok[base].match == base - 3 &&
        (is(s, base - 2, "&") || is(s, base - 2, "*")) && is_kind(s, base - 1, T_NAME)) {
        return; /* float (&s)[4][8]: a parameter's declaration */
    } else if (is(s, base, ")") || is(s, i - 1, ")")) {
        /* (expr)[e]: an index */
    } else if (!is_kind(s, base, T_NAME)) {
        return;
    } else if (declares(s, base)) {
        return; /* float As[32][32]: a declaration */
    } else if (declared_array(s, base)) {
        return;
    }
    int first = i + 1, last = s->tok[i].match - 1;
    struct buffer text = { 0 };
    with_suffix(s, first, last, false, " + 1", &text);
    add(ms, s, OP_INDEX_INC, i, first, last, text.data);
    text.len = 0;
    with_suffix(s, first, last, false, " - 1", &text);
    add(ms, s, OP_INDEX_DEC, i, first, last, text.data);
    free(text.data);
}

/* The clauses of for (init; cond; step): the indices of the two ;s. */
static bool for_clauses(const struct source *s, int i, int *semi1, int *semi2, int *close)
{
    if (!is(s, i, "for") || !is(s, i + 1, "(") || s->tok[i + 1].match < 0)
        return false;
    *close = s->tok[i + 1].match;
    int found = 0;
    for (int k = i + 2; k < *close; k++) {
        if ((is(s, k, "(") || is(s, k, "[") || is(s, k, "{")) && s->tok[k].match > k) {
            k = s->tok[k].match;
        } else if (is(s, k, ";")) {
            if (found == 0)
                *semi1 = k;
            else
                *semi2 = k;
            found++;
        }
    }
    return found == 2;
}

/* The last token of a for condition's operand that starts at `first`. */
static int bound_end(const struct source *s, int first, int semi2)
{
    static const char *const ends[] = { "&&", "||", "?", ":", ",", NULL };
    int last = first;
    while (last + 1 < semi2 && !is_any(s, last + 1, ends) && !is_comparison(s, last + 1)) {
        last++;
        if (s->tok[last].match > last)
            last = s->tok[last].match;
    }
    return last;
}

/* Marks the comparisons of loops that start at a constant and stop at one,
 * for (int i = 0; i < 4; ++i), for (int k = 0; k < C::TM; ++k): loops over
 * a register tile or a warp's shuffles, the same trip for every thread,
 * which any case catches when they go wrong. Their comparisons are no
 * sites; a loop that starts where the thread is (int c = threadIdx.x) or
 * stops at a size (i < n) keeps its own. */
static void mark_fixed_loops(struct source *s)
{
    for (int i = 0; i < s->count; i++) {
        int semi1, semi2, close;
        if (!for_clauses(s, i, &semi1, &semi2, &close))
            continue;
        int assign = -1;
        for (int k = i + 2; k < semi1; k++)
            if (is(s, k, "=") && assign < 0)
                assign = k;
        if (assign < 0 || assign + 1 >= semi1 || !constant(s, assign + 1, semi1 - 1))
            continue;
        for (int k = semi1 + 1; k < semi2; k++) {
            if (s->tok[k].match > k) {
                k = s->tok[k].match;
                continue;
            }
            if (is_comparison(s, k) && k + 1 < semi2 && constant(s, k + 1, bound_end(s, k + 1, semi2)))
                s->tok[k].fixed = true;
        }
    }
}

/* for (...; ...; v += e): e to e / 2, where e is not a number. */
static void strides(struct mutants *ms, const struct source *s, int i)
{
    int semi1, semi2, close;
    if (!for_clauses(s, i, &semi1, &semi2, &close))
        return;
    for (int k = semi2 + 1; k < close; k++) {
        if (s->tok[k].match > k) {
            k = s->tok[k].match;
            continue;
        }
        if (!is(s, k, "+="))
            continue;
        int first = k + 1, last = first;
        while (last + 1 < close && !is(s, last + 1, ",")) {
            last++;
            if (s->tok[last].match > last)
                last = s->tok[last].match;
        }
        if (first > last || (first == last && is_kind(s, first, T_NUMBER)))
            continue;
        struct buffer text = { 0 };
        with_suffix(s, first, last, true, " / 2", &text);
        add(ms, s, OP_STRIDE_HALF, first, first, last, text.data);
        free(text.data);
    }
}

/* for (...; i < n; ...): n to n - 1 (and i > 0 to i > 0 + 1). */
static void loop_bounds(struct mutants *ms, const struct source *s, int i)
{
    int semi1, semi2, close;
    if (!for_clauses(s, i, &semi1, &semi2, &close))
        return;
    for (int k = semi1 + 1; k < semi2; k++) {
        if (s->tok[k].match > k) {
            k = s->tok[k].match;
            continue;
        }
        if (!is_comparison(s, k) || is(s, k, "==") || is(s, k, "!=") || s->tok[k].fixed)
            continue;
        int first = k + 1, last = bound_end(s, first, semi2);
        if (first >= semi2)
            continue;
        bool below = is(s, k, "<") || is(s, k, "<=");
        struct buffer text = { 0 };
        with_suffix(s, first, last, false, below ? " - 1" : " + 1", &text);
        add(ms, s, OP_LOOP_EARLY, first, first, last, text.data);
        free(text.data);
    }
}

static void syncs(struct mutants *ms, const struct source *s, int i)
{
    if (is(s, i, "__syncthreads") && is(s, i + 1, "(") && is(s, i + 2, ")") &&
        is(s, i + 3, ";"))
        add(ms, s, OP_SYNC_DROP, i, i, i + 3, ";");
}

/* A unary -INFINITY that is not compared with. */
static void infinities(struct mutants *ms, const struct source *s, int i)
{
    if (!is(s, i, "-") || !is(s, i + 1, "INFINITY"))
        return;
    bool binary = is_kind(s, i - 1, T_NAME) || is_kind(s, i - 1, T_NUMBER) || is(s, i - 1, ")") ||
                  is(s, i - 1, "]");
    if (is(s, i - 1, "return"))
        binary = false;
    if (binary || is_comparison(s, i - 1) || is_comparison(s, i + 2))
        return;
    add(ms, s, OP_NINF_ZERO, i, i, i + 1, "0.f");
}

/* size_t to int; (size_t)x to x. */
static void narrowings(struct mutants *ms, const struct source *s, int i)
{
    if (!is(s, i, "size_t") || s->tok[i].angle)
        return;
    if (is(s, i - 1, "(") && is(s, i + 1, ")") && !is(s, i - 2, "sizeof") &&
        i + 2 < s->count) {
        /* The operand: a parenthesised group, or a name or number with
         * its .member, ->member, calls and indices. */
        int first = i + 2, last = first;
        if (is(s, first, "(") && s->tok[first].match > first) {
            last = s->tok[first].match;
        } else if (is_kind(s, first, T_NAME) || is_kind(s, first, T_NUMBER)) {
            for (;;) {
                if ((is(s, last + 1, ".") || is(s, last + 1, "->")) && is_kind(s, last + 2, T_NAME))
                    last += 2;
                else if ((is(s, last + 1, "(") || is(s, last + 1, "[")) &&
                         s->tok[last + 1].match > last + 1)
                    last = s->tok[last + 1].match;
                else
                    break;
            }
        } else {
            return;
        }
        struct buffer text = { 0 };
        token_text(s, first, last, &text);
        append(&text, "", 1);
        add(ms, s, OP_NARROW, i - 1, i - 1, last, text.data);
        free(text.data);
        return;
    }
    if (is(s, i - 1, "sizeof") || is(s, i - 1, "::"))
        return;
    add(ms, s, OP_NARROW, i, i, i, "int");
}

static int by_site(const void *a, const void *b)
{
    const struct mutant *x = a, *y = b;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    if (x->column != y->column)
        return x->column < y->column ? -1 : 1;
    return (int)x->op - (int)y->op;
}

static void find_mutants(const struct source *s, struct mutants *ms)
{
    for (int i = 0; i < s->count; i++) {
        if (!s->tok[i].region)
            continue;
        comparisons(ms, s, i);
        guards(ms, s, i);
        terms(ms, s, i);
        indices(ms, s, i);
        strides(ms, s, i);
        syncs(ms, s, i);
        infinities(ms, s, i);
        narrowings(ms, s, i);
        loop_bounds(ms, s, i);
    }
    qsort(ms->m, (size_t)ms->count, sizeof *ms->m, by_site);
}

/* ---- Output ------------------------------------------------------------------ */

/* text on one line: runs of white space as one space. */
static void one_line(const char *text, size_t len, struct buffer *out)
{
    bool space = false;
    for (size_t i = 0; i < len; i++) {
        if (isspace((unsigned char)text[i])) {
            space = true;
            continue;
        }
        if (space && out->len > 0)
            append(out, " ", 1);
        space = false;
        append(out, text + i, 1);
    }
    append(out, "", 1);
}

/* A CSV field, quoted where it holds a comma, a quote or a line break (the
 * rule of grader/csv.c). */
static void put_field(const char *s, bool last)
{
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, stdout);
    } else {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"')
                putchar('"');
            putchar(*s);
        }
        putchar('"');
    }
    putchar(last ? '\n' : ',');
}

static void list(const struct source *s, const struct mutants *ms)
{
    puts("file,line,column,operator,original,mutated");
    struct buffer original = { 0 }, mutated = { 0 };
    for (int k = 0; k < ms->count; k++) {
        const struct mutant *m = &ms->m[k];
        original.len = mutated.len = 0;
        one_line(s->text + m->start, m->end - m->start, &original);
        one_line(m->replacement, strlen(m->replacement), &mutated);
        printf("%s,%d,%d,", s->name, m->line, m->column);
        put_field(op_name[m->op], false);
        put_field(original.data, false);
        put_field(mutated.data, true);
    }
    free(original.data);
    free(mutated.data);
}

static bool write_whole(const char *path, const char *a, size_t alen, const char *b,
                        size_t blen, const char *c, size_t clen)
{
    FILE *file = fopen(path, "wb");
    if (!file) {
        fprintf(stderr, "mw-mutate: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(a, 1, alen, file) == alen && fwrite(b, 1, blen, file) == blen &&
              fwrite(c, 1, clen, file) == clen;
    ok = (fclose(file) == 0) && ok;
    if (!ok)
        fprintf(stderr, "mw-mutate: error writing %s\n", path);
    return ok;
}

static bool make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return true;
    fprintf(stderr, "mw-mutate: cannot create %s: %s\n", path, strerror(errno));
    return false;
}

static bool write_mutants(const char *dir, const struct source *s, const struct mutants *ms)
{
    if (!make_dir(dir))
        return false;
    size_t size = strlen(dir) + strlen(s->name) + 32;
    char *path = grow(NULL, size);
    bool ok = true;
    for (int k = 0; k < ms->count && ok; k++) {
        const struct mutant *m = &ms->m[k];
        snprintf(path, size, "%s/%03d", dir, k + 1);
        ok = make_dir(path);
        snprintf(path, size, "%s/%03d/%s", dir, k + 1, s->name);
        ok = ok && write_whole(path, s->text, m->start, m->replacement, strlen(m->replacement),
                               s->text + m->end, s->size - m->end);
    }
    free(path);
    return ok;
}

int main(int argc, char **argv)
{
    const char *out_dir = NULL, *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            fputs(usage_text, stdout);
            return EXIT_SUCCESS;
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "mw-mutate: unknown or incomplete option '%s'\n%s", argv[i],
                    usage_text);
            return EXIT_USAGE_OR_IO;
        } else if (path) {
            fprintf(stderr, "mw-mutate: one FILE at a time\n%s", usage_text);
            return EXIT_USAGE_OR_IO;
        } else {
            path = argv[i];
        }
    }
    if (!path) {
        fprintf(stderr, "mw-mutate: expected FILE\n%s", usage_text);
        return EXIT_USAGE_OR_IO;
    }

    struct buffer text = { 0 };
    if (!read_file(path, &text))
        return EXIT_USAGE_OR_IO;
    append(&text, "", 1); /* a terminating NUL, not part of the file */
    text.len--;
    const char *slash = strrchr(path, '/');
    struct source s = { slash ? slash + 1 : path, text.data, text.len, NULL, 0, NULL, 0, 0 };
    char *in_region = NULL;
    if (!find_regions(path, &text, &in_region))
        return EXIT_REJECTED;
    tokenize(&s, in_region);
    match_brackets(&s);
    mark_templates(&s);
    mark_scope(&s, in_region);
    find_constants(&s);
    mark_fixed_loops(&s);

    struct mutants ms = { 0 };
    find_mutants(&s, &ms);
    int status = EXIT_SUCCESS;
    if (ms.count == 0) {
        report(path, 1, "no mutation site in a '%s' region: nothing to mutate", MARK_BEGIN);
        status = EXIT_REJECTED;
    } else {
        list(&s, &ms);
        if (out_dir && !write_mutants(out_dir, &s, &ms))
            status = EXIT_USAGE_OR_IO;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "mw-mutate: error writing the list\n");
        status = EXIT_USAGE_OR_IO;
    }
    for (int k = 0; k < ms.count; k++)
        free(ms.m[k].replacement);
    free(ms.m);
    free(s.tok);
    free(s.consts);
    free(in_region);
    free(text.data);
    return status;
}
