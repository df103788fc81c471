/* simcc.c: mw-simcc IN.cu OUT.cpp, the CUDA syntax the host compiler cannot
 * take rewritten into calls into the emulation (sim.h, mw_sim_kernel.h):
 *
 *   K<<<G, B[, S[, ST]]>>>(ARGS)   ::mw_sim::launcher(__FILE__, __LINE__, "K",
 *                                  G, B[, S[, ST]]).go(K[, ARGS])
 *   __shared__ T a[N], b;          one struct per declarator, its storage in
 *                                  the block's shared window
 *   extern __shared__ T s[];       T *const s = the dynamic shared memory
 *   asm volatile("..." : o : i);   ::mw_sim_asm("...", __FILE__, __LINE__,
 *                                  {outputs}, {inputs})
 *
 * and nothing else. Each construct's replacement is written on the line the
 * construct starts on, followed by as many newlines as the construct spans,
 * so that every other token stays on its line, and a #line directive first
 * names the student's file: the compiler's and the emulation's reports name
 * the student's lines. What it cannot rewrite faithfully (shared memory at
 * namespace scope, a launch it cannot parse, a launch in device code, PTX the
 * emulation does not run, any of the three inside a macro) is refused with
 * file:line and exit status 2, at build time rather than as a wrong answer.
 * PTX in an `#ifdef MW_ARCH_SPECIFIC` branch is not checked: only an
 * architecture-specific GPU build defines it. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { T_IDENT, T_NUMBER, T_STRING, T_CHAR, T_PUNCT, T_PP };

typedef struct token {
    enum kind kind;
    size_t start, end; /* bytes of the source */
    int line;
} token;

static const char *path;
static const char *src;
static size_t src_len;
static token *toks;
static size_t ntoks;

static void refuse(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void refuse(int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s:%d: ", path, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "mw-simcc: out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- growing strings ---------------------------------------------------------- */

typedef struct buf {
    char *s;
    size_t len, cap;
} buf;

static void put_n(buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void put(buf *b, const char *s)
{
    put_n(b, s, strlen(s));
}

static void putf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(buf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    put(b, tmp);
}

/* ---- the tokenizer -------------------------------------------------------------- */

static void add_token(enum kind kind, size_t start, size_t end, int line)
{
    if ((ntoks & (ntoks - 1)) == 0)
        toks = xrealloc(toks, (ntoks ? ntoks * 2 : 1) * sizeof *toks);
    toks[ntoks++] = (token){kind, start, end, line};
}

/* A raw string R"delim( ... )delim" from the quote at q; returns the end. */
static size_t raw_string_end(size_t q, int line)
{
    size_t open = q + 1;
    while (open < src_len && src[open] != '(' && open - q <= 17)
        open++;
    if (open >= src_len || src[open] != '(')
        refuse(line, "a raw string literal without its '('");
    const char *delim = src + q + 1;
    size_t dlen = open - q - 1;
    for (size_t i = open + 1; i + dlen + 1 < src_len; i++)
        if (src[i] == ')' && memcmp(src + i + 1, delim, dlen) == 0 && src[i + 1 + dlen] == '"')
            return i + dlen + 2;
    refuse(line, "a raw string literal that never ends");
}

static size_t quoted_end(size_t q, int line)
{
    char close = src[q];
    size_t i = q + 1;
    while (i < src_len && src[i] != close) {
        if (src[i] == '\n')
            refuse(line, "a %s literal that runs past its line", close == '"' ? "string" : "character");
        i += src[i] == '\\' ? 2 : 1;
    }
    if (i >= src_len)
        refuse(line, "a literal that never ends");
    return i + 1;
}

static const char *const puncts[] = {"<<<", ">>>", "<<=", ">>=", "...", "->*", "::", "->", "<<",
                                     ">>",  "<=",  ">=",  "==",  "!=",  "&&",  "||", "++", "--",
                                     "+=",  "-=",  "*=",  "/=",  "%=",  "&=",  "|=", "^=", ".*"};

static void tokenize(void)
{
    size_t i = 0;
    int line = 1, line_start = 1; /* only blanks so far on this line */
    while (i < src_len) {
        char c = src[i];
        if (c == '\n') {
            line++, i++, line_start = 1;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < src_len && src[i + 1] == '\n') {
            i += 2, line++;
            continue;
        }
        if (c == '/' && i + 1 < src_len && src[i + 1] == '/') {
            while (i < src_len && src[i] != '\n')
                i++;
            continue;
        }
        if (c == '/' && i + 1 < src_len && src[i + 1] == '*') {
            const char *e = strstr(src + i + 2, "*/");
            if (!e)
                refuse(line, "a comment that never ends");
            for (; src + i < e + 2; i++)
                line += src[i] == '\n';
            continue;
        }
        size_t start = i;
        int first_line = line;
        if (c == '#' && line_start) {
            /* A preprocessor line, continuations included: copied as it is. */
            while (i < src_len && src[i] != '\n') {
                if (src[i] == '\\' && i + 1 < src_len && src[i + 1] == '\n')
                    i++, line++;
                else if (src[i] == '/' && i + 1 < src_len && src[i + 1] == '*') {
                    const char *e = strstr(src + i + 2, "*/");
                    if (!e)
                        refuse(line, "a comment that never ends");
                    for (; src + i < e + 1; i++)
                        line += src[i] == '\n';
                }
                i++;
            }
            add_token(T_PP, start, i, first_line);
            continue;
        }
        line_start = 0;
        if (isalpha((unsigned char)c) || c == '_') {
            while (i < src_len && (isalnum((unsigned char)src[i]) || src[i] == '_'))
                i++;
            size_t n = i - start;
            int prefix = (n == 1 && strchr("LuUR", c)) || (n == 2 && !memcmp(src + start, "u8", 2)) ||
                         (n == 2 && src[start + 1] == 'R' && strchr("LuU", c)) ||
                         (n == 3 && !memcmp(src + start, "u8R", 3));
            if (prefix && i < src_len && (src[i] == '"' || src[i] == '\'')) {
                int raw = src[i - 1] == 'R' && src[i] == '"';
                i = raw ? raw_string_end(i, line) : quoted_end(i, line);
                for (size_t k = start; k < i; k++)
                    line += src[k] == '\n';
                add_token(src[i - 1] == '\'' ? T_CHAR : T_STRING, start, i, first_line);
                continue;
            }
            add_token(T_IDENT, start, i, line);
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < src_len && isdigit((unsigned char)src[i + 1]))) {
            while (i < src_len) {
                char d = src[i];
                if ((d == '+' || d == '-') && strchr("eEpP", src[i - 1]))
                    i++;
                else if (isalnum((unsigned char)d) || d == '_' || d == '.' ||
                         (d == '\'' && i + 1 < src_len && isalnum((unsigned char)src[i + 1])))
                    i++;
                else
                    break;
            }
            add_token(T_NUMBER, start, i, line);
            continue;
        }
        if (c == '"' || c == '\'') {
            i = quoted_end(i, line);
            add_token(c == '"' ? T_STRING : T_CHAR, start, i, line);
            continue;
        }
        size_t n = 1;
        for (size_t k = 0; k < sizeof puncts / sizeof *puncts; k++) {
            size_t len = strlen(puncts[k]);
            if (!strncmp(src + i, puncts[k], len)) {
                n = len;
                break;
            }
        }
        i += n;
        add_token(T_PUNCT, start, i, line);
    }
}

/* ---- looking at tokens ----------------------------------------------------------- */

static int is(size_t t, const char *text)
{
    size_t n = strlen(text);
    return t < ntoks && toks[t].end - toks[t].start == n && !memcmp(src + toks[t].start, text, n);
}

static int is_ident(size_t t)
{
    return t < ntoks && toks[t].kind == T_IDENT;
}

static int opens(size_t t)
{
    return is(t, "(") || is(t, "[") || is(t, "{");
}

static int closes(size_t t)
{
    return is(t, ")") || is(t, "]") || is(t, "}");
}

/* The token that closes the bracket opened at t (or ntoks). */
static size_t match_forward(size_t t)
{
    int depth = 0;
    for (size_t k = t; k < ntoks; k++) {
        if (opens(k))
            depth++;
        else if (closes(k) && --depth == 0)
            return k;
    }
    return ntoks;
}

/* The token that opens the bracket closed at t (or (size_t)-1). */
static size_t match_backward(size_t t)
{
    int depth = 0;
    for (size_t k = t + 1; k-- > 0;) {
        if (closes(k))
            depth++;
        else if (opens(k) && --depth == 0)
            return k;
    }
    return (size_t)-1;
}

/* Tokens [a, b) as one line: comments dropped, any gap one blank. A
 * preprocessor line inside cannot be put on one line: refused. */
static void put_flat(buf *b, size_t a, size_t e)
{
    for (size_t k = a; k < e; k++) {
        if (toks[k].kind == T_PP)
            refuse(toks[k].line, "a preprocessor line inside a construct mw-simcc rewrites");
        if (memchr(src + toks[k].start, '\n', toks[k].end - toks[k].start))
            refuse(toks[k].line, "a raw string over several lines inside a construct mw-simcc "
                                 "rewrites");
        if (k > a && toks[k].start > toks[k - 1].end)
            put(b, " ");
        put_n(b, src + toks[k].start, toks[k].end - toks[k].start);
    }
}

static void put_escaped_flat(buf *b, size_t a, size_t e)
{
    buf flat = {0};
    put_flat(&flat, a, e);
    for (size_t k = 0; k < flat.len; k++) {
        if (flat.s[k] == '"' || flat.s[k] == '\\')
            put(b, "\\");
        put_n(b, flat.s + k, 1);
    }
    free(flat.s);
}

/* Splits [a, e) at the commas outside every bracket, template angles
 * included: at most max parts, their bounds in from[]/to[]. Returns the
 * count. */
static int split_commas(size_t a, size_t e, size_t *from, size_t *to, int max, int angles)
{
    int n = 0, depth = 0, angle = 0;
    size_t part = a;
    for (size_t k = a; k < e; k++) {
        if (opens(k))
            depth++;
        else if (closes(k))
            depth--;
        else if (angles && depth == 0 && is(k, "<"))
            angle++;
        else if (angles && depth == 0 && angle > 0 && is(k, ">"))
            angle--;
        else if (angles && depth == 0 && angle > 0 && is(k, ">>"))
            angle = angle > 2 ? angle - 2 : 0;
        else if (depth == 0 && angle == 0 && is(k, ",")) {
            if (n == max)
                return max + 1;
            from[n] = part, to[n++] = k, part = k + 1;
        }
    }
    if (n == max)
        return max + 1;
    from[n] = part, to[n++] = e;
    return n;
}

/* ---- launches ----------------------------------------------------------------------- */

/* The kernel expression ending just before the <<< at t: name, name<...>,
 * ns::name<...>. Returns its first token. */
static size_t kernel_start(size_t t)
{
    size_t k = t - 1;
    if (t == 0)
        refuse(toks[t].line, "a launch without a kernel before '<<<'");
    if (is(k, ">") || is(k, ">>")) {
        int depth = 0;
        for (;; k--) {
            if (closes(k) && !is(k, "}"))
                k = match_backward(k);
            else if (is(k, ">"))
                depth++;
            else if (is(k, ">>"))
                depth += 2;
            else if (is(k, "<"))
                depth--;
            else if (is(k, "<<"))
                depth -= 2;
            else if (is(k, ";") || is(k, "{") || is(k, "}"))
                k = 0;
            if (k == 0 || k == (size_t)-1)
                refuse(toks[t].line, "a launch whose kernel mw-simcc cannot parse before '<<<'");
            if (depth == 0)
                break;
        }
        k--;
    }
    if (!is_ident(k))
        refuse(toks[t].line, "a launch whose kernel mw-simcc cannot parse before '<<<'");
    while (k >= 1 && is(k - 1, "::")) {
        k--;
        if (k >= 1 && is_ident(k - 1) && !is(k - 1, "return"))
            k--;
        else
            break;
    }
    return k;
}

/* Rewrites the launch whose <<< is token t; returns the last token taken. */
static size_t rewrite_launch(buf *out, size_t t, size_t *first)
{
    int line = toks[t].line;
    size_t kstart = kernel_start(t);
    size_t close = t + 1;
    int depth = 0;
    for (; close < ntoks; close++) {
        if (opens(close))
            depth++;
        else if (closes(close) && --depth < 0)
            break;
        else if (depth == 0 && (is(close, ">>>") || is(close, ";")))
            break;
    }
    if (close >= ntoks || !is(close, ">>>"))
        refuse(line, "a launch whose '<<<' has no '>>>' mw-simcc can find");
    size_t from[5], to[5];
    int nconf = close == t + 1 ? 0 : split_commas(t + 1, close, from, to, 4, 0);
    if (nconf < 2 || nconf > 4)
        refuse(line, "a launch configuration needs 2 to 4 arguments (grid, block, shared, stream)");
    for (int i = 0; i < nconf; i++)
        if (from[i] == to[i])
            refuse(line, "a launch configuration with an empty argument");
    if (!is(close + 1, "("))
        refuse(line, "a launch without its argument list after '>>>'");
    size_t end = match_forward(close + 1);
    if (end >= ntoks)
        refuse(line, "a launch whose argument list never closes");
    put(out, "::mw_sim::launcher(__FILE__, __LINE__, \"");
    put_escaped_flat(out, kstart, t);
    put(out, "\", ");
    put_flat(out, t + 1, close);
    put(out, ").go(");
    put_flat(out, kstart, t);
    if (end > close + 2) {
        put(out, ", ");
        put_flat(out, close + 2, end);
    }
    put(out, ")");
    *first = kstart;
    return end;
}

/* ---- __shared__ ---------------------------------------------------------------------- */

static int shared_counter;

/* The name of the declarator [a, e): the identifier before its trailing
 * [dims]. */
static size_t declarator_name(size_t a, size_t e, int line)
{
    size_t k = e;
    while (k > a && is(k - 1, "]")) {
        k = match_backward(k - 1);
        if (k == (size_t)-1 || k < a)
            refuse(line, "a __shared__ declaration mw-simcc cannot parse");
    }
    if (k == a || !is_ident(k - 1))
        refuse(line, "a __shared__ declaration mw-simcc cannot parse");
    return k - 1;
}

static int is_storage(size_t t)
{
    return is(t, "extern") || is(t, "static") || is(t, "__device__") || is(t, "__shared__");
}

/* Rewrites the declaration whose __shared__ is token t (its storage
 * specifiers may come before it); returns its ';'. */
static size_t rewrite_shared(buf *out, size_t t, size_t *first)
{
    int line = toks[t].line;
    size_t a = t;
    int is_extern = 0;
    while (a > 0 && (is_storage(a - 1) || is(a - 1, "volatile") || is(a - 1, "const")))
        a--;
    size_t semi = t;
    int depth = 0;
    for (; semi < ntoks; semi++) {
        if (opens(semi))
            depth++;
        else if (closes(semi) && --depth < 0)
            break;
        else if (depth == 0 && is(semi, ";"))
            break;
    }
    if (semi >= ntoks || !is(semi, ";"))
        refuse(line, "a __shared__ declaration without its ';'");
    for (size_t k = a; k < semi; k++) {
        is_extern |= is(k, "extern");
        if (is(k, "="))
            refuse(line, "a __shared__ variable cannot have an initializer");
    }
    size_t from[65], to[65];
    int n = split_commas(a, semi, from, to, 64, 1);
    if (n > 64)
        refuse(line, "a __shared__ declaration with more than 64 declarators");
    size_t name0 = declarator_name(from[0], to[0], line);

    /* The type, storage specifiers dropped: what each declarator's member and
     * the dynamic pointer are declared with. */
    buf spec = {0}, type = {0};
    for (size_t k = from[0]; k < name0; k++) {
        if (is_storage(k))
            continue;
        size_t e = k + 1;
        if (is(k, "__align__") && is(k + 1, "("))
            e = match_forward(k + 1) + 1;
        if (spec.len)
            put(&spec, " ");
        put_flat(&spec, k, e);
        if (!is(k, "__align__")) {
            if (type.len)
                put(&type, " ");
            put_flat(&type, k, e);
        }
        k = e - 1;
    }
    if (!type.len)
        refuse(line, "a __shared__ declaration without a type");
    if (is_extern) {
        if (n != 1 || name0 + 3 != to[0] || !is(name0 + 1, "[") || !is(name0 + 2, "]"))
            refuse(line, "extern __shared__ must declare one array of unknown size, as T name[]");
        buf name = {0};
        put_flat(&name, name0, name0 + 1);
        putf(out, "%s *const %s = ::mw_sim::shared_dynamic<%s>(\"%s\", __FILE__, __LINE__)",
             type.s, name.s, type.s, name.s);
        free(name.s);
    } else {
        int decl = shared_counter++;
        for (int i = 0; i < n; i++) {
            size_t d0 = i == 0 ? name0 : from[i];
            size_t nm = declarator_name(d0, to[i], line);
            buf name = {0}, dtext = {0};
            put_flat(&name, nm, nm + 1);
            put_flat(&dtext, d0, to[i]);
            putf(out, "%sstruct mw_sim_sh_%d_%d { ", i ? " " : "", decl, i);
            put(out, spec.s);
            put(out, " ");
            put(out, dtext.s);
            putf(out, "; }; static char mw_sim_key_%d_%d; auto &%s = static_cast<mw_sim_sh_%d_%d *>(",
                 decl, i, name.s, decl, i);
            putf(out, "::mw_sim::shared_static<decltype(mw_sim_sh_%d_%d::%s)>(", decl, i, name.s);
            putf(out, "&mw_sim_key_%d_%d, sizeof(mw_sim_sh_%d_%d), ", decl, i, decl, i);
            putf(out, "alignof(mw_sim_sh_%d_%d), \"%s\", __FILE__, __LINE__))->%s", decl, i, name.s,
                 name.s);
            if (i + 1 < n)
                put(out, ";");
            free(name.s);
            free(dtext.s);
        }
    }
    free(spec.s);
    free(type.s);
    *first = a;
    return semi - 1; /* the ';' stays the source's own */
}

/* ---- inline PTX ------------------------------------------------------------------------- */

/* The PTX the emulation runs (ptx.c); each entry a mnemonic exactly. */
static const char *const emulated[] = {
    "cp.async.ca.shared.global",
    "cp.async.cg.shared.global",
    "cp.async.commit_group",
    "cp.async.wait_group",
    "cp.async.wait_all",
    "ldmatrix.sync.aligned.m8n8.x1.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16",
    "ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16",
    "ldmatrix.sync.aligned.m8n8.x2.shared::cta.b16",
    "ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16",
    "ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16",
    "ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16",
    "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16",
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
    "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
    "ex2.approx.ftz.f32",
    "cvt.rna.tf32.f32",
    "mov.u32", /* of %laneid only: checked below */
};
static const char emulated_list[] =
    "cp.async.{ca,cg}.shared.global, cp.async.commit_group, cp.async.wait_group, "
    "cp.async.wait_all, ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{,.trans}.shared{,::cta}.b16, "
    "mma.sync.aligned.m16n8k16.row.col.f32.{bf16.bf16,f16.f16}.f32, "
    "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32, ex2.approx.ftz.f32, cvt.rna.tf32.f32, "
    "mov.u32 %r, %laneid";

/* Appends the text a string literal token stands for. */
static void decode_string(buf *b, size_t t)
{
    const char *s = src + toks[t].start, *e = src + toks[t].end;
    while (*s != '"')
        s++;
    if (s > src + toks[t].start && s[-1] == 'R') {
        const char *open = strchr(s, '(');
        size_t dlen = (size_t)(open - s - 1);
        put_n(b, open + 1, (size_t)(e - open - 1) - dlen - 2);
        return;
    }
    for (s++; s < e - 1; s++) {
        if (*s != '\\') {
            put_n(b, s, 1);
            continue;
        }
        char c = *++s, v = c;
        if (c == 'n')
            v = '\n';
        else if (c == 't')
            v = '\t';
        else if (c == 'r')
            v = '\r';
        else if (c >= '0' && c <= '7') {
            v = 0;
            for (int k = 0; k < 3 && *s >= '0' && *s <= '7'; k++, s++)
                v = (char)(v * 8 + (*s - '0'));
            s--;
        } else if (c == 'x') {
            v = (char)strtol(s + 1, NULL, 16);
            while (isxdigit((unsigned char)s[1]))
                s++;
        }
        put_n(b, &v, 1);
    }
}

/* Conditional blocks open at this point of the file, innermost last: 1 for
 * the branch of an `#ifdef MW_ARCH_SPECIFIC` (or `#if
 * defined(MW_ARCH_SPECIFIC)`), 0 for any other. The Makefile defines it only
 * for an architecture-specific build ("Tuned for" in the header), never
 * here: PTX in such a branch never reaches the emulation, so it is not
 * checked. */
static char conds[64];
static int nconds, arch_specific_open;

static void track_conditional(size_t t)
{
    const char *s = src + toks[t].start + 1, *e = src + toks[t].end;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    size_t n = (size_t)(e - s);
#define STARTS(word) (n >= strlen(word) && !strncmp(s, word, strlen(word)))
    if (STARTS("if")) {
        int mine = STARTS("ifdef MW_ARCH_SPECIFIC") || STARTS("if defined(MW_ARCH_SPECIFIC)");
        if (nconds < (int)sizeof conds)
            conds[nconds] = (char)mine;
        nconds++;
        arch_specific_open += mine;
    } else if ((STARTS("else") || STARTS("elif")) && nconds > 0 && nconds <= (int)sizeof conds &&
               conds[nconds - 1]) {
        conds[nconds - 1] = 0;
        arch_specific_open--;
    } else if (STARTS("endif") && nconds > 0) {
        nconds--;
        if (nconds < (int)sizeof conds && conds[nconds])
            arch_specific_open--;
    }
#undef STARTS
}

/* Refuses a template holding an instruction the emulation does not run. */
static void check_ptx(const char *tmpl, int line)
{
    if (arch_specific_open > 0)
        return;
    const char *s = tmpl;
    while (*s) {
        while (*s && (isspace((unsigned char)*s) || *s == ';'))
            s++;
        if (!*s)
            break;
        const char *e = s;
        while (*e && !isspace((unsigned char)*e) && *e != ';')
            e++;
        char mnemonic[128];
        snprintf(mnemonic, sizeof mnemonic, "%.*s", (int)(e - s), s);
        int known = 0;
        for (size_t k = 0; k < sizeof emulated / sizeof *emulated; k++)
            known |= !strcmp(mnemonic, emulated[k]);
        const char *stmt_end = strchr(e, ';');
        if (!stmt_end)
            stmt_end = e + strlen(e);
        if (known && !strcmp(mnemonic, "mov.u32")) {
            char ops[96];
            size_t j = 0;
            for (const char *p = e; p < stmt_end && j + 1 < sizeof ops; p++)
                if (!isspace((unsigned char)*p))
                    ops[j++] = *p;
            ops[j] = 0;
            const char *comma = strchr(ops, ',');
            known = comma && !strcmp(comma, ",%laneid");
            if (!known)
                snprintf(mnemonic, sizeof mnemonic, "mov.u32 %s", ops);
        }
        if (!known)
            refuse(line, "inline PTX '%s' is not emulated (the emulation runs: %s)", mnemonic,
                   emulated_list);
        s = stmt_end;
    }
}

/* Writes one operand list ([a, e): "c"(x), ...) as {::mw_sim_asm_<dir>(...), ...}. */
static void put_operands(buf *out, size_t a, size_t e, const char *dir, int line)
{
    size_t from[65], to[65];
    int n = a == e ? 0 : split_commas(a, e, from, to, 64, 0);
    if (n > 64)
        refuse(line, "inline asm with more than 64 operands");
    put(out, "{");
    for (int i = 0; i < n; i++) {
        size_t c = from[i];
        if (is(c, "["))
            refuse(line, "inline asm with named operands ([name]) is not emulated");
        if (toks[c].kind != T_STRING || !is(c + 1, "(") || match_forward(c + 1) + 1 != to[i])
            refuse(line, "an inline asm operand mw-simcc cannot parse (\"constraint\"(expression))");
        buf constraint = {0};
        decode_string(&constraint, c);
        if (constraint.s[0] == '=' || constraint.s[0] == '+') {
            if (strcmp(dir, "out"))
                refuse(line, "inline asm input with the output constraint \"%s\"", constraint.s);
        } else if (!strcmp(dir, "out"))
            refuse(line, "inline asm output without '=' or '+' (\"%s\")", constraint.s);
        free(constraint.s);
        putf(out, "%s::mw_sim_asm_%s(", i ? ", " : "", dir);
        put_flat(out, c, c + 1);
        put(out, ", ");
        put_flat(out, c + 2, to[i] - 1);
        put(out, ")");
    }
    put(out, "}");
}

/* Rewrites the asm statement whose keyword is token t; returns its ')'. */
static size_t rewrite_asm(buf *out, size_t t)
{
    int line = toks[t].line;
    size_t k = t + 1;
    while (is(k, "volatile") || is(k, "__volatile__") || is(k, "__volatile") || is(k, "inline"))
        k++;
    if (is(k, "goto"))
        refuse(line, "asm goto is not emulated");
    size_t close = match_forward(k);
    if (close >= ntoks)
        refuse(line, "an inline asm statement that never closes");
    /* sections: 0 the template, 1 outputs, 2 inputs, 3 clobbers */
    size_t sec_from[4] = {k + 1, close, close, close}, sec_to[4] = {close, close, close, close};
    int sec = 0, depth = 0;
    for (size_t j = k + 1; j < close; j++) {
        if (opens(j))
            depth++;
        else if (closes(j))
            depth--;
        else if (depth == 0 && (is(j, ":") || is(j, "::"))) {
            int steps = is(j, "::") ? 2 : 1;
            for (int s = 0; s < steps; s++) {
                sec_to[sec] = j;
                if (++sec > 3)
                    refuse(line, "asm goto labels are not emulated");
                sec_from[sec] = s + 1 == steps ? j + 1 : j;
                sec_to[sec] = close;
            }
        }
    }
    if (sec_from[0] == sec_to[0])
        refuse(line, "an inline asm statement without its template");
    buf tmpl = {0};
    for (size_t j = sec_from[0]; j < sec_to[0]; j++) {
        if (toks[j].kind != T_STRING)
            refuse(line, "an inline asm template that is not string literals");
        decode_string(&tmpl, j);
    }
    check_ptx(tmpl.s ? tmpl.s : "", line);
    free(tmpl.s);
    put(out, "::mw_sim_asm(");
    put_flat(out, sec_from[0], sec_to[0]);
    put(out, ", __FILE__, __LINE__, ");
    put_operands(out, sec_from[1], sec_to[1], "out", line);
    put(out, ", ");
    put_operands(out, sec_from[2], sec_to[2], "in", line);
    put(out, ")");
    return close;
}

/* ---- the file ----------------------------------------------------------------------------- */

static int is_asm(size_t t)
{
    return is(t, "asm") || is(t, "__asm__") || is(t, "__asm");
}

/* A macro that launches, declares shared memory or holds inline asm would
 * reach the compiler unrewritten, and fail there with a message about
 * syntax: refused here with one that says why. Comments and literals of
 * the directive are skipped. */
static void check_directive(size_t t)
{
    const char *s = src + toks[t].start + 1, *e = src + toks[t].end;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    if (e - s < 6 || strncmp(s, "define", 6))
        return;
    for (const char *p = s + 6; p < e; p++) {
        if (*p == '"' || *p == '\'') {
            for (char q = *p++; p < e && *p != q; p++)
                p += *p == '\\';
            continue;
        }
        if (p + 1 < e && p[0] == '/' && p[1] == '*') {
            const char *c = strstr(p + 2, "*/");
            p = c ? c + 1 : e;
            continue;
        }
        if (p + 1 < e && p[0] == '/' && p[1] == '/')
            break;
        if (p + 3 <= e && !strncmp(p, "<<<", 3))
            refuse(toks[t].line, "a launch inside a macro is not emulated: write it out");
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *w = p;
            while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
                p++;
            size_t n = (size_t)(p - w);
            if ((n == 10 && !strncmp(w, "__shared__", n)) || (n == 3 && !strncmp(w, "asm", n)) ||
                (n == 7 && !strncmp(w, "__asm__", n)))
                refuse(toks[t].line, "%.*s inside a macro is not emulated: write it out", (int)n, w);
            p--;
        }
    }
}

/* Whether the '{' at t opens a function's body (its previous token ends a
 * declarator: ')' or a trailing qualifier). */
static int opens_function(size_t t)
{
    size_t p = t;
    while (p > 0 && toks[p - 1].kind == T_PP)
        p--;
    if (p == 0)
        return 0;
    p--;
    return is(p, ")") || is(p, "const") || is(p, "noexcept") || is(p, "override") ||
           is(p, "final") || is(p, "mutable");
}

/* The execution space of the declaration being read at namespace scope. */
enum { SPACE_GLOBAL = 1, SPACE_DEVICE = 2, SPACE_HOST = 4 };

static void rewrite(buf *out)
{
    /* per open brace: 0 outside functions, 1 in a function, 2 in one that
     * runs on the device (__global__, or __device__ without __host__) */
    char *scope = xrealloc(NULL, ntoks + 1);
    int depth = 0, space = 0;
    scope[0] = 0;
    size_t copied = 0;
    for (size_t t = 0; t < ntoks; t++) {
        if (toks[t].kind == T_PP) {
            check_directive(t);
            track_conditional(t);
            continue;
        }
        if (is(t, "{")) {
            char s = scope[depth];
            if (!s && opens_function(t))
                s = (space & SPACE_GLOBAL) || space == SPACE_DEVICE ? 2 : 1;
            space = 0;
            scope[++depth] = s;
            continue;
        }
        if (is(t, "}")) {
            if (depth > 0)
                depth--;
            space = 0;
            continue;
        }
        if (!scope[depth]) {
            if (is(t, ";"))
                space = 0;
            else if (is(t, "__global__"))
                space |= SPACE_GLOBAL;
            else if (is(t, "__device__"))
                space |= SPACE_DEVICE;
            else if (is(t, "__host__"))
                space |= SPACE_HOST;
        }
        size_t first = t, last;
        if (is(t, "<<<")) {
            if (scope[depth] == 2)
                refuse(toks[t].line, "a launch in device code (dynamic parallelism) is not "
                                     "emulated");
            buf r = {0};
            last = rewrite_launch(&r, t, &first);
            if (toks[first].start < copied)
                refuse(toks[t].line, "a launch mw-simcc cannot parse");
            put_n(out, src + copied, toks[first].start - copied);
            put(out, r.s);
            free(r.s);
        } else if (is(t, "__shared__")) {
            if (!scope[depth])
                refuse(toks[t].line, "__shared__ at namespace scope is not emulated: declare it "
                                     "inside the kernel");
            buf r = {0};
            last = rewrite_shared(&r, t, &first);
            put_n(out, src + copied, toks[first].start - copied);
            put(out, r.s);
            free(r.s);
        } else if (is_asm(t) && scope[depth]) {
            size_t k = t + 1;
            while (is(k, "volatile") || is(k, "__volatile__") || is(k, "__volatile") ||
                   is(k, "inline") || is(k, "goto"))
                k++;
            if (!is(k, "("))
                continue;
            buf r = {0};
            last = rewrite_asm(&r, t);
            put_n(out, src + copied, toks[first].start - copied);
            put(out, r.s);
            free(r.s);
        } else
            continue;
        for (size_t i = toks[first].start; i < toks[last].end; i++)
            if (src[i] == '\n')
                put(out, "\n");
        copied = toks[last].end;
        t = last;
    }
    put_n(out, src + copied, src_len - copied);
    free(scope);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: mw-simcc IN.cu OUT.cpp\n");
        return 1;
    }
    path = argv[1];
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    buf in = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        put_n(&in, chunk, n);
    fclose(f);
    src = in.s ? in.s : "";
    src_len = in.len;
    tokenize();
    /* The compiler's diagnostics, __FILE__ and the debug lines then name the
     * student's file; #line numbers the line after it, so every line keeps
     * its number. */
    buf out = {0};
    put(&out, "#line 1 \"");
    for (const char *p = path; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(&out, "\\");
        put_n(&out, p, 1);
    }
    put(&out, "\"\n");
    rewrite(&out);
    FILE *o = fopen(argv[2], "wb");
    if (!o || fwrite(out.s, 1, out.len, o) != out.len || fclose(o) != 0) {
        perror(argv[2]);
        return 1;
    }
    return 0;
}
