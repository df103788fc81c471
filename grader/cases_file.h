/* cases_file.h: extra cases from a file (an instructor's hidden tests).
 *
 *   # comment
 *   seed 20261122
 *   #    group   n/M  N  K   offsets     gen      scale sampled a    s
 *   case hidden  4097 0  0   1 1 1 0     uniform  1     0       1.5  0.75
 *
 * gen is uniform, special, smallint, neginf or rarenan (grader/rng.h).
 * Pure C, unit-tested. */
#ifndef MW_CASES_FILE_H
#define MW_CASES_FILE_H

#include "mw.h"

typedef struct mw_cases_file {
    mw_case *cases; /* malloc'd; groups strdup'd */
    int ncases;
    uint64_t seed;
    int have_seed;
} mw_cases_file;

/* Returns 0, or -1 with "FILE:LINE: what" in err. */
int mw_cases_file_load(const char *path, mw_cases_file *f, char *err, size_t errlen);
void mw_cases_file_free(mw_cases_file *f);

#endif
