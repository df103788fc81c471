/* table_plus.h: the project's roof table plus one made-up row, as the unit
 * tests of the roofs and of the facts add one: all it takes to add a roof. */
#ifndef MW_TEST_TABLE_PLUS_H
#define MW_TEST_TABLE_PLUS_H

#include "roofs.h"

#include <string.h>

/* rows must hold MW_MAX_ROOFS entries; the table lives as long as rows. */
static inline mw_roof_table mw_table_plus(mw_roof *rows, mw_roof extra)
{
    memcpy(rows, mw_roofs.roof, (size_t)mw_roofs.count * sizeof rows[0]);
    rows[mw_roofs.count] = extra;
    return (mw_roof_table){rows, mw_roofs.count + 1};
}

#endif
