/* skip_marker.c: reads the marker make writes for a version that needs a
 * newer GPU than the build's (skip_marker.h). */
#include "skip_marker.h"

#include <stdio.h>
#include <string.h>

int mw_skip_marker(const char *lib_dir, const char *file, char *why, size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.skip", lib_dir, file);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (len > 0) {
        why[0] = '\0';
        if (!fgets(why, (int)len, f))
            why[0] = '\0';
        why[strcspn(why, "\r\n")] = '\0';
        if (!why[0])
            snprintf(why, len, "built for an older GPU than it needs (%s)", path);
    }
    fclose(f);
    return 1;
}
