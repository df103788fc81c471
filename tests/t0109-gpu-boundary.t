#!/usr/bin/env bash
# One boundary to the GPU (grader/gpu.h): no file of grader/, in any
# subfolder, calls the CUDA runtime (or driver) or includes its headers,
# except
#   gpu.c, gpu.h   the boundary itself;
#   device.cu      the harness's own kernels, reached through device.h;
#   student.h      the student interface, which the student's .cu includes;
#   sim/           the CPU emulation, which is the other side of the
#                  boundary: it defines the runtime, and includes its own
#                  stand-in headers.
# Comments and strings do not count (the grader's messages and hints name
# runtime calls). Calls into cuBLAS and cuDNN are not the runtime's: they
# stay with the library baselines. Each offence is named as file:line. No
# GPU needed. The check is tried on a scratch copy too, with offences
# planted, so that it is known to be able to fail.
. tests/lib.sh
command -v perl >/dev/null || skip_all "perl is not installed"

# scan DIR: prints DIR/FILE:LINE: TEXT for each offence under DIR (run from
# DIR's parent); silent when there is none.
scan() {
    find "$1" -path '*/sim' -prune -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print |
        LC_ALL=C sort | perl -e '
my %exempt = map { $_ => 1 } qw(gpu.c gpu.h device.cu student.h);
sub blank { (my $s = shift) =~ s/[^\n]/ /g; $s }
# Comments blanked always, string and character literals when asked;
# newlines kept, so offsets still give line numbers.
sub strip {
    my ($t, $strings) = @_;
    $t =~ s{(/\*.*?\*/|//[^\n]*)|("(?:\\.|[^"\\\n])*"|\x27(?:\\.|[^\x27\\\n])*\x27)}
           {defined $1 ? blank($1) : $strings ? blank($2) : $2}gse;
    return $t;
}
while (my $f = <STDIN>) {
    chomp $f;
    (my $base = $f) =~ s{.*/}{};
    next if $exempt{$base};
    open my $fh, "<", $f or die "$f: $!";
    my $raw = do { local $/; <$fh> };
    my @lines = split /\n/, $raw, -1;
    my %hit;
    my $code = strip($raw, 0);
    while ($code =~ /^[ \t]*#[ \t]*include[ \t]*[<"](cuda_runtime\w*\.h|cuda\.h)[>"]/mg) {
        $hit{1 + (substr($code, 0, $-[0]) =~ tr/\n//)} = 1;
    }
    $code = strip($raw, 1);
    # A call: a runtime (cudaX) or driver (cuX) name before "(", not a
    # type (cudaError_t, cudaStream_t) that a cast or declarator puts there.
    while ($code =~ /\b(cuda[A-Z]\w*|cu[A-Z]\w*)\s*\(/g) {
        next if $1 =~ /_t$/;
        $hit{1 + (substr($code, 0, $-[0]) =~ tr/\n//)} = 1;
    }
    for my $n (sort { $a <=> $b } keys %hit) {
        (my $text = $lines[$n - 1]) =~ s/^\s+//;
        print "$f:$n: $text\n";
    }
}'
}

# point STATUS NAME: ok, and the last scan's output as comments when it failed.
point() {
    ok "$1" "$2"
    [ "$1" -eq 0 ] || printf '%s\n' "$out" | diag
}

out=$(scan grader)
[ -z "$out" ]
point $? "no file of grader/ but the boundary calls the CUDA runtime or includes its header"

# The boundary itself is seen: without its exemption, gpu.c is all calls.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/grader/sub"
cp grader/gpu.c "$scratch/grader/sub/gpu_copy.c"
out=$(cd "$scratch" && scan grader)
n=$(printf '%s\n' "$out" | grep -c '^grader/sub/gpu_copy\.c:[0-9]*: .*cuda[A-Z]')
[ "$n" -ge 20 ]
point $? "the boundary's own calls are found when it is not exempt ($n lines)"

# A scratch copy of grader/ with offences planted: a call in harness.c, a
# runtime header in a header of a subfolder, and beside them what is no
# offence (a comment, a string, a type, a cuBLAS call).
rm -rf "$scratch/grader"
cp -a grader "$scratch/grader"
line=$(grep -n '^cudaError_t mw_views_alloc(' grader/harness.c | cut -d: -f1)
[ -n "$line" ]
ok $? "harness.c has mw_views_alloc to plant a call in"
sed -i "$((line + 1))a\\    cudaDeviceSynchronize();" "$scratch/grader/harness.c"
mkdir -p "$scratch/grader/run"
cat >"$scratch/grader/run/planted.h" <<'EOF'
/* cudaMalloc(&p, n) in a comment, and in a string: */
static const char *planted = "cudaMemcpy(dst, src, n, kind)";
static cudaError_t (*planted_fn)(cudaStream_t);
static int planted_blas(void *h) { return cublasCreate_v2(h); }
#include <cuda_runtime.h>
EOF
out=$(cd "$scratch" && scan grader)
printf '%s\n' "$out" | grep -qx "grader/harness.c:$((line + 2)): cudaDeviceSynchronize();"
point $? "a planted call is named by file and line"
printf '%s\n' "$out" | grep -qx "grader/run/planted.h:5: #include <cuda_runtime.h>"
point $? "a planted include in a subfolder is named by file and line"
! printf '%s\n' "$out" | grep -q '^grader/run/planted\.h:[1-4]:'
point $? "comments, strings, types and cuBLAS calls are not offences"

done_testing
