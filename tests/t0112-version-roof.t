#!/usr/bin/env bash
# A kernel library may name the roof its bench rows of one series are
# measured against (grader/impls.h, mw_version_roof): 05.2's reference does
# at "-d128" where it is built with its sm_90a path (ARCH sm_90, the default
# without a GPU) and that path is on (the default, or MW_FLASH_TF32X3=always),
# naming TF32 wgmma, a roof of roofs.c's table; for the main series, and with
# the path off (MW_FLASH_TF32X3=never), it names none. Without that path it
# exports no such function. No GPU needed: the function touches none.
. tests/lib.sh
lib=build/solutions/05-attention/02_flash.so
[ -f solutions/05-attention/02_flash.cu ] || skip_all "no solutions/ here (the student edition)"
[ -f "$lib" ] || skip_all "$lib is not built (run 'make build')"
command -v gcc >/dev/null 2>&1 || skip_all "no gcc"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/roof.c" <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) { printf("cannot load: %s\n", dlerror()); return 2; }
    const char *(*roof)(const char *) = (const char *(*)(const char *))dlsym(h, "mw_version_roof");
    if (!roof) { printf("none exported\n"); return 0; }
    for (int i = 2; i < argc; i++) { const char *r = roof(argv[i]); printf("%s=%s\n", argv[i], r ? r : "(null)"); }
    return 0;
}
C
gcc -o "$scratch/roof" "$scratch/roof.c" -ldl
ok $? "a probe that loads a kernel library and asks it for its roofs compiles"

level=$(sh grader/mk/detect-arch.sh | sed 's/^sm_\([0-9]*\).*/\1/')
out=$(env -u MW_FLASH_TF32X3 "$scratch/roof" "$lib" -d128 "" -d32 2>&1)
if [ "$level" = 90 ]; then
    [ "$out" = "$(printf -- '-d128=tf32_wgmma\n=(null)\n-d32=(null)')" ]
    ok $? "02_flash, its sm_90a path on (the default): TF32 wgmma at -d128, its own roof elsewhere" || diag "$out"
    out=$(MW_FLASH_TF32X3=always "$scratch/roof" "$lib" -d128 2>&1)
    [ "$out" = "-d128=tf32_wgmma" ]
    ok $? "02_flash, MW_FLASH_TF32X3=always: TF32 wgmma at -d128" || diag "$out"
    out=$(MW_FLASH_TF32X3=never "$scratch/roof" "$lib" -d128 2>&1)
    [ "$out" = "-d128=(null)" ]
    ok $? "02_flash, its sm_90a path off (MW_FLASH_TF32X3=never): its own roof at -d128 too" || diag "$out"
    roofs=$(ls results/*/roofs.csv 2>/dev/null | head -n 1)
    [ -n "$roofs" ] && build/tools/mw-facts --roofs "$roofs" 2>/dev/null | cut -d, -f1 | grep -qx tf32_wgmma
    ok $? "tf32_wgmma is a roof of roofs.c's table (mw-facts --roofs)"
else
    [ "$out" = "none exported" ]
    ok $? "02_flash without its sm_90a path (sm_$level) names no roof" || diag "$out"
fi
done_testing
