/* locate.h: where the wrong elements of an output lie, in the interface's
 * own coordinates, and how they are wrong, as one hint.
 *
 * A chapter describes each output as up to four named axes, row-major
 * (chapter 05's O is b, h, i, k); the comparison (compare.c) gives every
 * wrong element to mw_locate_add, which keeps a bounded summary that
 * merges exactly (parts of one check are counted on several threads):
 * per axis the range of wrong coordinates and which residues modulo 64
 * they take, the side of the diagonal for a square pair of axes, and the
 * range of got / ref. mw_locate_hint turns it into one line: a constant
 * factor (log2 e, ln 2, the scale), NaN only where the inputs hold NaN, or
 * the rows, columns and tiles the wrong elements are confined to.
 *
 * Pure C with no CUDA: unit-tested on the CPU (tests/unit/test_locate.c). */
#ifndef MW_LOCATE_H
#define MW_LOCATE_H

#include <stddef.h>
#include <stdint.h>

#define MW_LOC_AXES 4

/* The shape of one output buffer, as its chapter names it. */
typedef struct mw_shape {
    int naxes;                       /* 0: unknown, nothing is located */
    const char *name[MW_LOC_AXES];   /* "b", "h", "i", "k"; the last varies fastest */
    size_t extent[MW_LOC_AXES];
    unsigned tiled;                  /* axes a kernel tiles (1u << axis) */
    int diag_row, diag_col;          /* a square pair of axes with a diagonal, or -1 */
    int causal;                      /* the case masks keys past the row (chapter 05) */
    double scale;                    /* the case's scale, a factor to name (0: none) */
    const char *reduce_name;         /* the axis a kernel sums over in tiles, not an */
    size_t reduce_extent;            /* output's: chapter 05's keys j (N), 03's k (K); 0: none */
    int full;                        /* every element is checked, not a sample */
    int inputs_nonfinite;            /* the case's inputs hold NaN or Inf */
} mw_shape;

/* One axis: the coordinates of its wrong elements. */
typedef struct mw_loc_axis {
    size_t lo, hi;       /* smallest and largest wrong coordinate */
    uint64_t residues;   /* bit r: a wrong element has coordinate % 64 == r */
} mw_loc_axis;

typedef struct mw_locate {
    size_t wrong;                    /* wrong elements seen */
    size_t unwritten;                /* of them, never written */
    size_t nonfinite;                /* of them, NaN or Inf (not the poison) where ref is finite */
    mw_loc_axis axis[MW_LOC_AXES];
    size_t diag[3];                  /* wrong below (col < row), on, above the diagonal */
    size_t ratios;                   /* wrong pairs, both finite, ref != 0 */
    double ratio_lo, ratio_hi;       /* the range of got / ref over them */
} mw_locate;

/* An empty shape: no axes, no diagonal. */
void mw_shape_init(mw_shape *s);
/* Appends an axis; returns its index. */
int mw_shape_axis(mw_shape *s, const char *name, size_t extent);
size_t mw_shape_count(const mw_shape *s);

void mw_locate_init(mw_locate *l);
/* Element `index` (flat, row-major over the shape) is wrong: got, not ref.
 * `unwritten` when got is the poison. */
void mw_locate_add(mw_locate *l, const mw_shape *s, size_t index, float got, double ref,
                   int unwritten);
/* Adds `next`'s elements to l's: the same as adding them one by one. */
void mw_locate_merge(mw_locate *l, const mw_locate *next);

/* Coordinates of flat index `index`. */
void mw_shape_coords(const mw_shape *s, size_t index, size_t *coord);
/* Flat index of coordinates. */
size_t mw_shape_index(const mw_shape *s, const size_t *coord);

/* The flat index of the element whose value a kernel stores at flat
 * `index` when it lays the output out with its axes in the order perm
 * (perm[0] slowest) instead of 0, 1, ...: got[index] == ref[result]. */
size_t mw_shape_permuted(const mw_shape *s, const int *perm, size_t index);
/* The next permutation of perm[0..n) in lexicographic order; 0 after the last. */
int mw_shape_next_perm(int *perm, int n);
/* "[b][i][h][k]": the axes in the order perm (NULL: their own). */
void mw_shape_layout_text(const mw_shape *s, const int *perm, char *text, size_t len);

/* One hint of at most len - 1 characters about how or where the elements
 * are wrong, or 0 when the summary says nothing a student can act on
 * (wrong everywhere, in no pattern). */
int mw_locate_hint(const mw_locate *l, const mw_shape *s, char *text, size_t len);

/* The named factor within 1e-3 of `ratio` ("log2 e", "ln 2", "the scale",
 * ...), with what usually causes it, or NULL. */
const char *mw_locate_factor_name(double ratio, double scale, const char **cause);

#endif
