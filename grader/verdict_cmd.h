/* verdict_cmd.h: mw-chapter verdict DIR, a chapter's verdict read from a
 * bench.csv already written. Pure C. */
#ifndef MW_VERDICT_CMD_H
#define MW_VERDICT_CMD_H

#include "mw.h"

/* Prints ch's verdict from DIR/bench.csv, with the copy roof of
 * DIR/../roofs.csv where there is one. 0 done, 2 a missing or malformed
 * file, or another chapter's. */
int mw_cmd_verdict(const mw_chapter *ch, const char *dir);

#endif
