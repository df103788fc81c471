/* locate.c: the summary of where wrong elements lie, and its hint. */
#include "locate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void mw_shape_init(mw_shape *s)
{
    memset(s, 0, sizeof *s);
    s->diag_row = s->diag_col = -1;
}

int mw_shape_axis(mw_shape *s, const char *name, size_t extent)
{
    if (s->naxes >= MW_LOC_AXES)
        return -1;
    s->name[s->naxes] = name;
    s->extent[s->naxes] = extent;
    return s->naxes++;
}

size_t mw_shape_count(const mw_shape *s)
{
    size_t n = s->naxes > 0;
    for (int a = 0; a < s->naxes; a++)
        n *= s->extent[a];
    return n;
}

void mw_shape_coords(const mw_shape *s, size_t index, size_t *coord)
{
    for (int a = s->naxes - 1; a >= 0; a--) {
        size_t e = s->extent[a] ? s->extent[a] : 1;
        coord[a] = index % e;
        index /= e;
    }
}

size_t mw_shape_index(const mw_shape *s, const size_t *coord)
{
    size_t index = 0;
    for (int a = 0; a < s->naxes; a++)
        index = index * s->extent[a] + coord[a];
    return index;
}

void mw_locate_init(mw_locate *l)
{
    memset(l, 0, sizeof *l);
}

void mw_locate_add(mw_locate *l, const mw_shape *s, size_t index, float got, double ref,
                   int unwritten)
{
    if (s->naxes == 0)
        return;
    size_t coord[MW_LOC_AXES];
    mw_shape_coords(s, index, coord);
    for (int a = 0; a < s->naxes; a++) {
        mw_loc_axis *x = &l->axis[a];
        if (l->wrong == 0 || coord[a] < x->lo)
            x->lo = coord[a];
        if (l->wrong == 0 || coord[a] > x->hi)
            x->hi = coord[a];
        x->residues |= (uint64_t)1 << (coord[a] % 64);
    }
    if (s->diag_row >= 0 && s->diag_col >= 0) {
        size_t r = coord[s->diag_row], c = coord[s->diag_col];
        l->diag[c < r ? 0 : c == r ? 1 : 2]++;
    }
    if (unwritten) {
        l->unwritten++;
    } else if (isfinite(ref) && !isfinite(got)) {
        l->nonfinite++;
    } else if (isfinite(ref) && ref != 0) {
        double ratio = (double)got / ref;
        if (l->ratios == 0 || ratio < l->ratio_lo)
            l->ratio_lo = ratio;
        if (l->ratios == 0 || ratio > l->ratio_hi)
            l->ratio_hi = ratio;
        l->ratios++;
    }
    l->wrong++;
}

void mw_locate_merge(mw_locate *l, const mw_locate *next)
{
    if (next->wrong == 0)
        return;
    if (l->wrong == 0) {
        *l = *next;
        return;
    }
    for (int a = 0; a < MW_LOC_AXES; a++) {
        mw_loc_axis *x = &l->axis[a];
        const mw_loc_axis *y = &next->axis[a];
        x->lo = y->lo < x->lo ? y->lo : x->lo;
        x->hi = y->hi > x->hi ? y->hi : x->hi;
        x->residues |= y->residues;
    }
    for (int k = 0; k < 3; k++)
        l->diag[k] += next->diag[k];
    if (next->ratios > 0) {
        if (l->ratios == 0 || next->ratio_lo < l->ratio_lo)
            l->ratio_lo = next->ratio_lo;
        if (l->ratios == 0 || next->ratio_hi > l->ratio_hi)
            l->ratio_hi = next->ratio_hi;
    }
    l->ratios += next->ratios;
    l->wrong += next->wrong;
    l->unwritten += next->unwritten;
    l->nonfinite += next->nonfinite;
}

/* ---- how: one factor ------------------------------------------------------ */

const char *mw_locate_factor_name(double ratio, double scale, const char **cause)
{
    static const struct {
        double value;
        const char *name, *cause;
    } known[] = {
        {1.4426950408889634, "log2 e",
         "an exp/log base mix-up: exp2 or log2 where exp or log is meant, or a missing ln 2"},
        {0.6931471805599453, "ln 2",
         "an exp/log base mix-up: a natural exp or log where base 2 is meant, or ln 2 applied twice"},
        {2.0, "2", "a term added twice (two threads, or a loop, adding the same part)"},
        {0.5, "1/2", "half of the terms (a loop or grid that covers half)"},
        {-1.0, "-1", "a flipped sign"},
    };
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
        if (fabs(ratio - known[k].value) <= 1e-3 * fabs(known[k].value)) {
            *cause = known[k].cause;
            return known[k].name;
        }
    if (scale != 0 && fabs(scale) != 1 && fabs(ratio - scale) <= 1e-3 * fabs(scale)) {
        *cause = "the scale applied once too often, or where it does not belong";
        return "the scale";
    }
    if (scale != 0 && fabs(scale) != 1 && fabs(ratio * scale - 1) <= 1e-3) {
        *cause = "the scale missing, or divided by";
        return "1/scale";
    }
    return NULL;
}

/* Every wrong value is one factor (to 1e-3) times the reference. */
static int factor_hint(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    if (l->ratios < 2 || l->ratios != l->wrong)
        return 0;
    double mid = 0.5 * (l->ratio_lo + l->ratio_hi);
    if (l->ratio_hi - l->ratio_lo > 1e-3 * fabs(mid) || fabs(mid - 1) <= 1e-3 || mid == 0)
        return 0;
    const char *cause = NULL, *name = mw_locate_factor_name(mid, s->scale, &cause);
    if (name)
        snprintf(text, len, "every wrong value is %.5g (%s) times the reference: %s", mid, name,
                 cause);
    else
        snprintf(text, len,
                 "every wrong value is %.5g times the reference, the same factor everywhere: a "
                 "normalisation or scale factor is wrong, not the values it multiplies",
                 mid);
    return 1;
}

/* Every wrong value is a NaN or Inf that the inputs of the case hold. */
static int nonfinite_hint(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    if (!s->inputs_nonfinite || l->nonfinite == 0 || l->nonfinite != l->wrong - l->unwritten)
        return 0;
    snprintf(text, len,
             "NaN or Inf where the reference is finite, in a case whose inputs hold NaN or Inf: "
             "an input's NaN reaches outputs it must not; a masked or zero-weighted term is "
             "still multiplied in (0 * NaN = NaN): skip it instead");
    return 1;
}

/* ---- where ---------------------------------------------------------------- */

static int residue_period(const mw_locate *l, const mw_shape *s, int a);

/* The wrong coordinates of axis a leave out a part of it: they start after
 * its first tile's worth or end before its last, where a tile is the
 * period of a pattern that repeats in each (i % 32 is 31 spans 31..255 of
 * 256, and is not a range), else one element. */
static int restricted(const mw_locate *l, const mw_shape *s, int a)
{
    size_t t = (size_t)residue_period(l, s, a);
    t = t ? t : 1;
    return l->axis[a].lo >= t || l->axis[a].hi + t < s->extent[a];
}

/* The residues of coordinates modulo t (a power of two up to 64). */
static uint64_t fold(uint64_t residues, int t)
{
    uint64_t out = 0;
    for (int r = 0; r < 64; r++)
        if (residues >> r & 1)
            out |= (uint64_t)1 << (r % t);
    return out;
}

static int popcount64(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* The period t (8..64) whose residues leave out most of a tile, when the
 * wrong coordinates span at least two periods and take at most half of
 * them: "i % 32 is 31". 0: no such pattern. */
static int residue_period(const mw_locate *l, const mw_shape *s, int a)
{
    const mw_loc_axis *x = &l->axis[a];
    int best = 0;
    double best_share = 0.5;
    for (int t = 8; t <= 64; t *= 2) {
        if (s->extent[a] < 2 * (size_t)t || x->hi - x->lo < (size_t)t)
            continue;
        double share = popcount64(fold(x->residues, t)) / (double)t;
        if (share <= best_share - 1e-9 || (best == 0 && share <= best_share)) {
            best = t;
            best_share = share;
        }
    }
    return best;
}

/* "i % 32 is 31" or "i % 16 in {0, 1, 2}" into text. */
static void residue_text(const mw_locate *l, const mw_shape *s, int a, int t, char *text,
                         size_t len)
{
    uint64_t f = fold(l->axis[a].residues, t);
    int n = popcount64(f), shown = 0;
    size_t at = (size_t)snprintf(text, len, "%s %% %d %s", s->name[a], t, n == 1 ? "is" : "in {");
    for (int r = 0; r < t && at < len; r++)
        if (f >> r & 1) {
            if (shown == 4) {
                at += (size_t)snprintf(text + at, len - at, ", ...");
                break;
            }
            at += (size_t)snprintf(text + at, len - at, "%s%d", shown++ ? ", " : " ", r);
        }
    if (n > 1 && at < len)
        snprintf(text + at, len - at, " }");
}

/* A tile t (8..1024) such that a's wrong coordinates all lie in its last,
 * partial tile: of those whose partial tile starts last (the tightest
 * fit), the largest (of 100 rows, 96..99 are past the last tile of 8, 16
 * and 32: 32). 0: none. */
static size_t partial_tile(const mw_locate *l, const mw_shape *s, int a)
{
    size_t e = s->extent[a], best = 0;
    for (size_t t = 8; t <= 1024 && t < e; t *= 2)
        if (e % t != 0 && l->axis[a].lo >= e / t * t && (best == 0 || e / t * t == e / best * best))
            best = t;
    return best;
}

/* The tile t (8..1024, smaller than the axis) holding every wrong
 * coordinate of a, smallest first. 0: none. */
static size_t one_tile(const mw_locate *l, const mw_shape *s, int a)
{
    for (size_t t = 8; t <= 1024 && t < s->extent[a]; t *= 2)
        if (l->axis[a].lo / t == l->axis[a].hi / t && l->axis[a].hi - l->axis[a].lo + 1 > t / 4)
            return t;
    return 0;
}

/* "i = 64..95 of 4100" for each restricted axis, into text. */
static size_t ranges_text(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    size_t at = 0;
    text[0] = '\0';
    for (int a = 0; a < s->naxes && at < len; a++) {
        if (!restricted(l, s, a))
            continue;
        const mw_loc_axis *x = &l->axis[a];
        if (x->lo == x->hi)
            at += (size_t)snprintf(text + at, len - at, "%s%s = %zu of %zu", at ? ", " : "",
                                   s->name[a], x->lo, s->extent[a]);
        else
            at += (size_t)snprintf(text + at, len - at, "%s%s = %zu..%zu of %zu",
                                   at ? ", " : "", s->name[a], x->lo, x->hi, s->extent[a]);
    }
    return at;
}

/* No tiled output axis confines the wrong elements, and the axis summed
 * over ends in a partial tile: its last tile is the suspect (chapter 05's
 * keys past N read as keys change every row of a head). A guess, said as
 * one: the cases of whole tiles tell. */
static int reduce_partial(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    if (!s->reduce_name || s->reduce_extent % 16 == 0)
        return 0;
    for (int a = 0; a < s->naxes; a++)
        if ((s->tiled >> a & 1) && restricted(l, s, a))
            return 0;
    snprintf(text, len,
             ": %zu values of %s, not a multiple of 16: if cases of whole tiles pass, the last, "
             "partial tile of %s needs bounds checks (%s < %zu)",
             s->reduce_extent, s->reduce_name, s->reduce_name, s->reduce_name, s->reduce_extent);
    return 1;
}

/* What the most telling restriction suggests, into text; "" when nothing. */
static void where_cause(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    text[0] = '\0';
    for (int a = 0; a < s->naxes; a++) {
        if (!restricted(l, s, a))
            continue;
        size_t t = (s->tiled >> a & 1) ? partial_tile(l, s, a) : 0;
        if (t) {
            snprintf(text, len,
                     ": the last, partial tile of %s (past %zu, a multiple of %zu): bounds checks "
                     "missing there",
                     s->name[a], s->extent[a] / t * t, t);
            return;
        }
    }
    for (int a = 0; a < s->naxes; a++) {
        if (!restricted(l, s, a))
            continue;
        if (s->causal && (s->tiled >> a & 1) && l->axis[a].lo == 0) {
            snprintf(text, len,
                     ": the first rows, which the causal mask leaves the fewest keys: check the "
                     "mask at the diagonal (keys j <= i)");
            return;
        }
        size_t t = one_tile(l, s, a);
        if (t) {
            snprintf(text, len, ": inside one tile of %zu along %s: the index or the loads of that "
                                "tile",
                     t, s->name[a]);
            return;
        }
    }
    if (reduce_partial(l, s, text, len))
        return;
    int last = s->naxes - 1;
    if (last >= 0 && restricted(l, s, last) && s->extent[last] >= 8) {
        size_t e = s->extent[last];
        if (l->axis[last].hi < e / 8)
            snprintf(text, len, ": the first elements along %s: the loop's start", s->name[last]);
        else if (l->axis[last].lo >= e - e / 8)
            snprintf(text, len, ": the last elements along %s: the loop's end (an off-by-one?)",
                     s->name[last]);
    }
}

/* " (every b, h, k)": the axes every wrong element's range covers whole. */
static void every_text(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    size_t at = 0;
    text[0] = '\0';
    for (int a = 0; a < s->naxes && at < len; a++)
        if (!restricted(l, s, a) && !residue_period(l, s, a) && s->extent[a] > 1)
            at += (size_t)snprintf(text + at, len - at, "%s%s", at ? ", " : " (any ",
                                   s->name[a]);
    if (at && at < len)
        snprintf(text + at, len - at, ")");
}

static const char *diag_text(const mw_locate *l, const mw_shape *s)
{
    if (s->diag_row < 0 || s->diag_col < 0 || l->wrong < 2)
        return NULL;
    const size_t *d = l->diag;
    if (d[0] == 0 && d[1] == 0)
        return "wrong only above the diagonal (column > row)";
    if (d[2] == 0 && d[1] == 0)
        return "wrong only below the diagonal (column < row)";
    if (d[0] == 0 && d[2] == 0)
        return "wrong only on the diagonal (column == row)";
    if (d[1] == 0 && s->full && s->extent[s->diag_row] > 1)
        return "wrong only off the diagonal, which is right: rows and columns swapped?";
    return NULL;
}

static int where_hint(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    char ranges[160], cause[160], every[64], period[64] = "";
    size_t at = ranges_text(l, s, ranges, sizeof ranges);
    for (int a = 0; a < s->naxes && !period[0]; a++) {
        int t = residue_period(l, s, a);
        if (t)
            residue_text(l, s, a, t, period, sizeof period);
    }
    const char *diag = diag_text(l, s);
    if (diag) { /* a side of the diagonal says more than the rows and columns it spans */
        snprintf(text, len, "%s", diag);
        return 1;
    }
    if (at == 0 && !period[0]) {
        if (!s->full || !reduce_partial(l, s, cause, sizeof cause))
            return 0;
        snprintf(text, len, "wrong throughout%s", cause);
        return 1;
    }
    where_cause(l, s, cause, sizeof cause);
    every_text(l, s, every, sizeof every);
    if (at == 0)
        snprintf(text, len,
                 "wrong only where %s%s: the same place in every tile; look at how that "
                 "index within a tile is computed",
                 period, s->full ? every : "");
    else
        snprintf(text, len, "wrong only at %s%s%s%s%s", ranges, period[0] ? ", where " : "",
                 period, s->full ? every : "", cause);
    return 1;
}

int mw_locate_hint(const mw_locate *l, const mw_shape *s, char *text, size_t len)
{
    if (l->wrong == 0 || s->naxes == 0 || len == 0)
        return 0;
    return factor_hint(l, s, text, len) || nonfinite_hint(l, s, text, len) ||
           where_hint(l, s, text, len);
}

size_t mw_shape_permuted(const mw_shape *s, const int *perm, size_t index)
{
    size_t stored[MW_LOC_AXES], coord[MW_LOC_AXES];
    for (int j = s->naxes - 1; j >= 0; j--) {
        size_t e = s->extent[perm[j]] ? s->extent[perm[j]] : 1;
        stored[j] = index % e;
        index /= e;
    }
    for (int j = 0; j < s->naxes; j++)
        coord[perm[j]] = stored[j];
    return mw_shape_index(s, coord);
}

int mw_shape_next_perm(int *perm, int n)
{
    int i = n - 2;
    while (i >= 0 && perm[i] > perm[i + 1])
        i--;
    if (i < 0)
        return 0;
    int j = n - 1;
    while (perm[j] < perm[i])
        j--;
    int t = perm[i];
    perm[i] = perm[j], perm[j] = t;
    for (int a = i + 1, b = n - 1; a < b; a++, b--)
        t = perm[a], perm[a] = perm[b], perm[b] = t;
    return 1;
}

void mw_shape_layout_text(const mw_shape *s, const int *perm, char *text, size_t len)
{
    size_t at = 0;
    text[0] = '\0';
    for (int j = 0; j < s->naxes && at < len; j++)
        at += (size_t)snprintf(text + at, len - at, "[%s]", s->name[perm ? perm[j] : j]);
}
