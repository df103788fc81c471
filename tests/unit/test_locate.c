/* test_locate.c: unit tests of the localisation of wrong elements
 * (grader/locate.c) and of its place in the mismatch accounting: the
 * summary merged from parts equals one pass, and each pattern a wrong
 * kernel leaves (a partial tile, one tile, a residue in every tile, a side
 * of the diagonal, a constant factor, NaN from the inputs) gives its hint. */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"
#include "merge_check.h"

#include "compare.h"
#include "locate.h"
#include "rng.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* O[b, h, i, k] of chapter 05: 2 x 3 x n x d, i tiled. */
static mw_shape attention_shape(size_t n, size_t d)
{
    mw_shape s;
    mw_shape_init(&s);
    mw_shape_axis(&s, "b", 2);
    mw_shape_axis(&s, "h", 3);
    int i = mw_shape_axis(&s, "i", n);
    mw_shape_axis(&s, "k", d);
    s.tiled = 1u << i;
    s.full = 1;
    return s;
}

typedef int (*wrong_at)(const size_t *coord);
typedef double (*value_of)(double ref);

static double times_two(double ref)
{
    return ref * 2 + 0.5; /* not one factor: a shift as well */
}

/* Every element of s passed through mw_mismatch_add: wrong where `where`
 * says, with the value `how` gives; the reference is 1 + index / 7. */
static mw_mismatch check_all(const mw_shape *s, wrong_at where, value_of how)
{
    mw_mismatch m;
    mw_mismatch_init(&m);
    mw_mismatch_shape(&m, s);
    mw_tol tol = {1e-6, 1e-6};
    size_t n = mw_shape_count(s), coord[MW_LOC_AXES];
    for (size_t i = 0; i < n; i++) {
        mw_shape_coords(s, i, coord);
        double ref = 1.0 + (double)i / 7;
        float got = where(coord) ? (float)(how ? how(ref) : ref + 1) : (float)ref;
        mw_mismatch_add(&m, i, got, ref, tol);
    }
    return m;
}

static int hint_has(const mw_mismatch *m, const char *needle, char *text)
{
    int made = mw_locate_hint(&m->loc, &m->shape, text, 256);
    if (made && strstr(text, needle))
        printf("#   hint: %s\n", text);
    if (!made || !strstr(text, needle)) {
        printf("#   hint: %s\n#   wanted: %s\n", made ? text : "(none)", needle);
        return 0;
    }
    return 1;
}

static int last_partial_rows(const size_t *x) { return x[2] >= 96; }
static int one_tile_rows(const size_t *x) { return x[2] >= 64 && x[2] < 96; }
static int last_of_each_32(const size_t *x) { return x[2] % 32 == 31; }
static int everywhere(const size_t *x) { return x[3] % 2 == 0 || x[3] % 2 == 1; }
static int first_rows(const size_t *x) { return x[2] < 3; }
static int last_columns(const size_t *x) { return x[3] >= 62; }
static int above_diagonal(const size_t *x) { return x[1] > x[0]; }

static void test_where(void)
{
    char text[256];
    mw_shape s = attention_shape(100, 64);
    mw_mismatch m = check_all(&s, last_partial_rows, NULL);
    ok(m.loc.wrong == m.wrong && m.loc.axis[2].lo == 96 && m.loc.axis[2].hi == 99,
       "partial tile: rows 96..99 located");
    ok(hint_has(&m, "i = 96..99 of 100", text) && hint_has(&m, "last, partial tile of i (past 96, a multiple of 32)", text) &&
           hint_has(&m, "(any b, h, k)", text),
       "partial tile: the hint names the rows, the partial tile and the axes all wrong");
    ok(strlen(text) < 256, "partial tile: the hint fits a hint line");

    s = attention_shape(4096, 4);
    m = check_all(&s, one_tile_rows, NULL);
    ok(hint_has(&m, "i = 64..95 of 4096", text) && hint_has(&m, "one tile of 32 along i", text),
       "one tile: rows 64..95 are one tile of 32");

    s = attention_shape(256, 4);
    m = check_all(&s, last_of_each_32, NULL);
    ok(hint_has(&m, "i % 32 is 31", text) && hint_has(&m, "every tile", text),
       "residue: the last row of each tile of 32");

    m = check_all(&s, everywhere, NULL);
    ok(!mw_locate_hint(&m.loc, &m.shape, text, sizeof text),
       "everywhere: wrong in every place, nothing to localise");
    s.reduce_name = "j";
    s.reduce_extent = 100;
    m = check_all(&s, everywhere, NULL);
    ok(hint_has(&m, "wrong throughout: 100 values of j", text) &&
           hint_has(&m, "partial tile of j needs bounds checks (j < 100)", text),
       "everywhere, summed over 100 keys: the last partial tile of keys is the suspect");
    s.reduce_extent = 128;
    m = check_all(&s, everywhere, NULL);
    ok(!mw_locate_hint(&m.loc, &m.shape, text, sizeof text),
       "everywhere, summed over whole tiles of keys: nothing to say");
    s.reduce_name = NULL;
    s.reduce_extent = 0;

    s = attention_shape(64, 64);
    s.causal = 1;
    m = check_all(&s, first_rows, NULL);
    ok(hint_has(&m, "i = 0..2 of 64", text) && hint_has(&m, "causal mask", text),
       "causal: the first rows point at the mask");
    s.causal = 0;
    s.tiled = 0;
    m = check_all(&s, last_columns, NULL);
    ok(hint_has(&m, "k = 62..63 of 64", text) && hint_has(&m, "last elements along k", text),
       "last columns: the end of the loop along the last axis");

    mw_shape sq;
    mw_shape_init(&sq);
    sq.diag_row = mw_shape_axis(&sq, "m", 40);
    sq.diag_col = mw_shape_axis(&sq, "n", 40);
    sq.full = 1;
    m = check_all(&sq, above_diagonal, NULL);
    ok(m.loc.diag[0] == 0 && m.loc.diag[1] == 0 && m.loc.diag[2] == 780,
       "diagonal: 780 wrong above, none on or below");
    ok(hint_has(&m, "above the diagonal", text), "diagonal: the hint names the side");

    mw_shape none;
    mw_shape_init(&none);
    mw_mismatch_init(&m);
    mw_mismatch_add(&m, 5, 2.f, 1.0, (mw_tol){0, 1e-6});
    ok(m.loc.wrong == 0 && !mw_locate_hint(&m.loc, &m.shape, text, sizeof text),
       "no shape: nothing located, no hint");
}

static double base2(double ref) { return ref / log(2.0); }
static double ln2(double ref) { return ref * log(2.0); }
static double scaled(double ref) { return ref * 0.125; }
static double unscaled(double ref) { return ref * 8; }
static int all_wrong(const size_t *x) { (void)x; return 1; }

static void test_how(void)
{
    char text[256];
    mw_shape s = attention_shape(20, 1);
    mw_mismatch m = check_all(&s, all_wrong, base2);
    ok(hint_has(&m, "(log2 e) times the reference", text) && hint_has(&m, "base mix-up", text),
       "factor: 1/ln 2 is named log2 e, a base mix-up");
    m = check_all(&s, all_wrong, ln2);
    ok(hint_has(&m, "(ln 2) times", text), "factor: ln 2");
    s.scale = 0.125;
    m = check_all(&s, all_wrong, scaled);
    ok(hint_has(&m, "(the scale) times", text), "factor: the case's scale");
    m = check_all(&s, all_wrong, unscaled);
    ok(hint_has(&m, "(1/scale) times", text), "factor: one over the scale");
    m = check_all(&s, all_wrong, times_two);
    ok(!strstr(mw_locate_hint(&m.loc, &m.shape, text, sizeof text) ? text : "", "times the"),
       "factor: values off by a factor and a shift are not one factor");
    const char *cause = NULL;
    ok(mw_locate_factor_name(3.7, 0, &cause) == NULL, "factor: 3.7 has no name");

    /* NaN in the output, finite reference, in a case whose inputs hold NaN. */
    mw_mismatch_init(&m);
    s = attention_shape(20, 4);
    s.inputs_nonfinite = 1;
    mw_mismatch_shape(&m, &s);
    mw_mismatch_add(&m, 7, NAN, 0.5, (mw_tol){0, 1e-6});
    mw_mismatch_add(&m, 300, INFINITY, 0.5, (mw_tol){0, 1e-6});
    ok(hint_has(&m, "0 * NaN", text), "NaN from the inputs: a masked term multiplied in");
    s.inputs_nonfinite = 0;
    mw_mismatch_shape(&m, &s);
    ok(!mw_locate_hint(&m.loc, &m.shape, text, sizeof text) || !strstr(text, "0 * NaN"),
       "NaN where the inputs hold none: not blamed on the inputs");
}

static void test_merge(void)
{
    enum { N = 40 };
    mw_shape s = attention_shape(10, 4); /* 240 elements */
    s.diag_row = 2, s.diag_col = 3;
    size_t index[N];
    float got[N];
    double ref[N];
    for (int j = 0; j < N; j++) {
        index[j] = (size_t)j * 6 + (size_t)(j % 5);
        ref[j] = j % 7 == 0 ? 0.0 : 1.0 + j;
        got[j] = j % 3 == 0 ? (float)ref[j] : (float)(ref[j] * (1.5 + 0.01 * j));
    }
    got[4] = NAN, got[8] = mw_from_bits(MW_POISON_BITS);
    mw_tol tol = {1e-6, 1e-6};
    mw_mismatch whole, merged;
    count_elements(&whole, &s, index, got, ref, 0, N, tol);
    ok(every_split_merges(&whole, &s, index, got, ref, N, tol, offsetof(mw_mismatch, loc),
                          sizeof whole.loc),
       "locate: the summary merged from parts equals one pass, for every split in three");
    ok(whole.loc.wrong == whole.wrong && whole.loc.unwritten == 1 && whole.loc.nonfinite == 1 &&
           whole.loc.ratios > 10 && whole.loc.ratio_lo < whole.loc.ratio_hi &&
           whole.loc.diag[0] + whole.loc.diag[1] + whole.loc.diag[2] == whole.wrong,
       "locate: the sequence merged has unwritten, non-finite and proportional elements");
    mw_mismatch_init(&merged);
    mw_mismatch_merge(&merged, &whole);
    ok(merged.shape.naxes == 4, "merge: a mismatch without a shape takes its part's");
}

static void test_layout(void)
{
    mw_shape s;
    mw_shape_init(&s);
    mw_shape_axis(&s, "b", 2);
    mw_shape_axis(&s, "h", 3);
    mw_shape_axis(&s, "i", 4);
    size_t coord[3];
    int round = 1;
    for (size_t i = 0; i < 24; i++) {
        mw_shape_coords(&s, i, coord);
        round &= mw_shape_index(&s, coord) == i;
    }
    ok(round, "coords: flat index to coordinates and back");
    /* Stored as [b][i][h]: flat 1 holds (b 0, i 0, h 1), flat 3 (b 0, i 1, h 0). */
    int perm[3] = {0, 2, 1};
    size_t want1[3] = {0, 1, 0}, want3[3] = {0, 0, 1};
    ok(mw_shape_permuted(&s, perm, 1) == mw_shape_index(&s, want1) &&
           mw_shape_permuted(&s, perm, 3) == mw_shape_index(&s, want3),
       "permuted: a [b][i][h] layout stores (h 1) at 1 and (i 1) at 3");
    int id[3] = {0, 1, 2}, same = 1;
    for (size_t i = 0; i < 24; i++)
        same &= mw_shape_permuted(&s, id, i) == i;
    ok(same, "permuted: the identity moves nothing");
    int p[4] = {0, 1, 2, 3}, count = 1;
    while (mw_shape_next_perm(p, 4))
        count++;
    is_int(count, 24, "next_perm: 24 orders of 4 axes");
    char text[64];
    mw_shape_layout_text(&s, perm, text, sizeof text);
    is_str(text, "[b][i][h]", "layout text");
}

int main(void)
{
    test_where();
    test_how();
    test_merge();
    test_layout();
    return done_testing();
}
