/* which.h: finding a program the way every part of the grader does. */
#ifndef MW_WHICH_H
#define MW_WHICH_H

#include <stddef.h>

/* The executable `name` on the PATH, then in the toolkit's usual place,
 * /usr/local/cuda/bin (where ncu and compute-sanitizer live when only nvcc
 * was put on the PATH); its path in out and 0, or -1 with out empty. */
int mw_which(const char *name, char *out, size_t len);

#endif
