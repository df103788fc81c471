/* skip_marker.h: a version built for an older GPU than it needs. make
 * writes <lib-dir>/<file>.skip in place of <file>.so, one line saying why
 * ("needs sm_80 or newer (...); built for sm_75"): check reports each of
 * the version's cases as skipped with that line, bench leaves it out. */
#ifndef MW_SKIP_MARKER_H
#define MW_SKIP_MARKER_H

#include <stddef.h>

/* 1 when lib_dir holds file's marker: `why` gets its first line (a
 * fallback when it is empty); 0 when there is none. */
int mw_skip_marker(const char *lib_dir, const char *file, char *why, size_t len);

#endif
