#!/bin/sh
# dist.sh: the student edition, dist/memwall-student.tar.gz (`make dist`).
#
# The tarball unpacks into memwall-student/ and holds the repository's
# tracked files (`git ls-files`; outside a git checkout, every file of the
# tree but build/ and dist/), as they are in the working copy, except what
# would give answers away:
#
#   solutions/      the reference solutions
#   tests/wrong/    known-wrong submissions (each one names its mistake)
#   tests/class/    the fixture class for batch grading
#   instructor/     hidden tests, by default
#   *.hidden        any file or folder so named, anywhere
#
# plus any path listed in MW_DIST_EXCLUDE (space-separated, relative to the
# root: hidden tests kept elsewhere). Everything else ships: exercises/,
# chapters/, grader/, plots/, docs/, results/, tests/, .ci/, the Makefile.
# In the student edition `make check` grades exercises/, `make bench` runs
# without a reference, and the tests that need what is left out skip.
#
# Code of the chapters' own that answers an exercise (chapter 04's
# three-pass baseline is exercise 04.1) sits between two lines
#
#   // BEGIN INSTRUCTOR ONLY
#   // END INSTRUCTOR ONLY
#
# in any C or CUDA source (.c .h .cu .cuh): the edition ships such a file
# with those regions cut, markers included, and the code around them must
# build without them (chapter 04 then times cuDNN and the copy roof alone).
#
# The chapters' own kernels (chapters/NN-name/*.cu: library baselines, a
# mask) ship compiled, never as source: a baseline that streams an array at
# the roof is an answer to an exercise whatever its shape. Each, its
# instructor-only code cut, becomes chapters/NN-name/X.cu.o, a fat object
# (SASS for sm_70 to sm_90, PTX of compute_90 for later GPUs; sm_70 only
# with an nvcc that still builds it, which CUDA 13's does not) that the
# edition's Makefile links where the source is absent. nvcc ($NVCC, else
# the one on the PATH) must be there; the objects are cached under
# build/dist-kernels/ by the hash of what they are built from.
#
# Guards: the edition refuses to ship an exercise that holds solution
# markers, and any C or CUDA source that shares code with the solutions
# (compared below, where solutions/ holds marked code and perl is
# installed); it warns about exercises edited since the last commit (the
# working copy is what ships). MW_DIST_OUT overrides the output path. The
# tarball is written beside its final name and renamed into place: an
# interrupted run leaves the previous one intact.
#
#   sh grader/mk/dist.sh --compare SOLUTIONS_DIR [FILE...]
#
# runs that comparison alone: FILE... (or one name a line on standard input)
# against the code between the solution markers of SOLUTIONS_DIR/*/*; it
# names each file that shares code, and exits 1 if there is one.
set -eu

# The comparison, in perl (prove's language, so there wherever `make test`
# runs). Both sides are read as C: comments, preprocessor lines and layout
# dropped, the code cut into statements (at ; { } outside parentheses), and
# every name that is not a keyword, a type, a CUDA built-in or a math or
# library function renamed "I", so that a copy with its variables renamed
# still matches. Statements of fewer than 6 tokens ("}", "return x;") do not
# count. A file shares code with a solution when 5 statements in a row are
# those of the solution's marked code; when it holds the whole of a shorter
# marked region of 2 statements or more (chapter 01's kernel is 2); or when
# a __global__ or __device__ function of 4 statements or more has 60% of
# them in one function of the solution's. The known-wrong submissions and
# the fixture class (tests/wrong/, tests/class/: near copies of the
# solutions) are caught by it; the exercises, the grader and the chapters'
# own code are not.
compare_tool() {
    cat <<'PERL'
use strict;
use warnings;
my ($soldir, @files) = @ARGV;
@files = map { chomp; $_ } <STDIN> unless @files;
my $RUN = 5;      # statements in a row
my $SHARE = 0.6;  # share of a kernel function's statements
my %keep = map { $_ => 1 } qw(
  auto break case char const continue default do double else enum extern float for goto if
  inline int long register restrict return short signed sizeof static struct switch typedef
  union unsigned void volatile while bool template typename class namespace using
  size_t uint32_t uint64_t int64_t int32_t uintptr_t float2 float4 half __half __nv_bfloat16
  threadIdx blockIdx blockDim gridDim warpSize NULL nullptr INFINITY NAN
  make_float4 make_float2 reinterpret_cast static_cast min max);
sub ntok { my @t = split ' ', $_[0]; scalar @t }
# Text: its statements, and its kernel functions as lists of statement numbers.
sub parse {
    my ($text) = @_;
    my (@units, @cur, @funcs, $fn);
    my ($paren, $brace, $prev) = (0, 0, '');
    while ($text =~ m{\G(?:(\s+)|(/\*.*?\*/)|(//[^\n]*)|(\#[^\n]*)|("(?:\\.|[^"\\\n])*")
                     |('(?:\\.|[^'\\\n])*')|([A-Za-z_]\w*)|(\d[\w.]*(?:[eE][-+]?\d+)?)|(.))}gsx) {
        next if defined $1 || defined $2 || defined $3 || defined $4;
        my $tok = $5 // $6 // $8 // $9;
        if (defined $7) {
            my $id = $7;
            $tok = $id eq 'true' ? '1' : $id eq 'false' ? '0'
                 : ($keep{$id} || $prev eq '.' || $prev eq '->'
                    || $id =~ /^(__|cuda|cublas|cudnn)/
                    || $id =~ /^(exp|log|sqrt|rsqrt|fmax|fmin|fabs|fma|floor|ceil)f?$/) ? $id : 'I';
        }
        push @cur, $tok;
        $prev = $tok;
        $paren++ if $tok eq '(' || $tok eq '[';
        $paren-- if ($tok eq ')' || $tok eq ']') && $paren > 0;
        next unless $paren == 0 && ($tok eq ';' || $tok eq '{' || $tok eq '}');
        my $u = join ' ', @cur;
        @cur = ();
        if ($tok eq '{') {
            $fn = [] if $brace == 0 && $u =~ /\b__(global|device)__\b/;
            $brace++;
        }
        $brace-- if $tok eq '}' && $brace > 0;
        if (ntok($u) >= 6) {
            push @units, $u;
            push @$fn, $#units if $fn;
        }
        if ($fn && $brace == 0) {
            push @funcs, $fn if @$fn >= 4;
            undef $fn;
        }
    }
    return (\@units, \@funcs);
}
sub slurp {
    open my $fh, '<', $_[0] or die "dist: cannot read $_[0]: $!\n";
    local $/;
    my $s = <$fh>;
    return defined $s ? $s : '';
}
my (%run, @solfuncs, @regions);
for my $s (sort glob("$soldir/*/*.cu $soldir/*/*.cuh $soldir/*/*.c $soldir/*/*.h")) {
    (my $label = $s) =~ s{^\Q$soldir\E/*}{solutions/};
    my $text = slurp($s);
    while ($text =~ m{^[ \t]*//[ \t]*BEGIN SOLUTION[^\n]*\n(.*?)^[ \t]*//[ \t]*END SOLUTION}gms) {
        my ($u, $f) = parse($1);
        $run{join "\n", @$u[$_ .. $_ + $RUN - 1]} //= $label for 0 .. $#$u - $RUN + 1;
        push @regions, [$label, join("\n", @$u)] if @$u >= 2 && @$u < $RUN;
        for my $fn (@$f) {
            my %bag;
            $bag{$u->[$_]}++ for @$fn;
            push @solfuncs, [$label, \%bag];
        }
    }
}
die "dist: no solution code (BEGIN/END SOLUTION markers) under $soldir\n" unless %run;
my $found = 0;
for my $f (@files) {
    my ($u, $funcs) = parse(slurp($f));
    my %why;
    for my $i (0 .. $#$u - $RUN + 1) {
        my $s = $run{join "\n", @$u[$i .. $i + $RUN - 1]};
        $why{$s} //= "$RUN statements in a row" if $s;
    }
    my $all = "\n" . join("\n", @$u) . "\n";
    for my $r (@regions) {
        $why{$r->[0]} //= "a whole region of solution code" if index($all, "\n$r->[1]\n") >= 0;
    }
    for my $fn (@$funcs) {
        for my $sf (@solfuncs) {
            my %bag = %{$sf->[1]};
            my $common = 0;
            for (@$fn) { if ($bag{$u->[$_]}) { $bag{$u->[$_]}--; $common++ } }
            my $n = @$fn;
            $why{$sf->[0]} //= "$common of the $n statements of a kernel function"
                if $common >= 4 && $common >= $SHARE * $n;
        }
    }
    for my $s (sort keys %why) {
        print "$f: shares code with $s ($why{$s})\n";
        $found = 1;
    }
}
exit $found;
PERL
}

if [ "${1:-}" = --compare ]; then
    [ $# -ge 2 ] || { echo "usage: dist.sh --compare SOLUTIONS_DIR [FILE...]" >&2; exit 2; }
    shift
    tool=$(mktemp "${TMPDIR:-/tmp}/mw-compare.XXXXXX")
    compare_tool >"$tool"
    rc=0
    perl "$tool" "$@" || rc=$?
    rm -f "$tool"
    exit $rc
fi

name=memwall-student
out=${MW_DIST_OUT:-}
case $out in
    '') ;;
    /*) ;;
    *) out=$(pwd)/$out ;; # relative to where it was asked for
esac
cd "$(dirname "$0")/../.."
out=${out:-dist/$name.tar.gz}
outdir=$(dirname "$out")
mkdir -p "$outdir"

work=$(mktemp -d "${TMPDIR:-/tmp}/mw-dist.XXXXXX")
tmp=$outdir/.$(basename "$out").$$.tmp
cleanup() { rm -rf "$work"; rm -f "$tmp"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

die() { echo "dist: $*" >&2; exit 1; }

# ---- the file list --------------------------------------------------------

# One path a line, relative to the root. Names holding a newline cannot be
# listed this way, and git quotes them even with core.quotepath off: refuse
# them rather than ship a mangled name.
# A checkout whose index lists nothing (a copied tree with a bare .git
# folder) is treated as no checkout.
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ] &&
    git -c core.quotepath=off ls-files >"$work/all" 2>/dev/null && [ -s "$work/all" ]; then
    source='git'
    if grep -q '^"' "$work/all"; then
        die "a tracked file name holds a newline or control character: $(grep '^"' "$work/all" | head -n 1)"
    fi
else
    source='find'
    find . \( -path ./build -o -path ./dist -o -path ./.git \) -prune -o \
        \( -type f -o -type l \) -print | sed 's|^\./||' | LC_ALL=C sort >"$work/all"
fi

# Classify: a first field of "-" ships, anything else names why it is left out.
awk -v extra="${MW_DIST_EXCLUDE:-}" '
BEGIN {
    n = split("solutions/ tests/wrong/ tests/class/ instructor/ build/ dist/ " extra, pre, " ")
    for (i = 1; i <= n; i++) {
        p = pre[i]
        sub(/^\.\//, "", p)
        if (p != "" && p !~ /\/$/) p = p "/"
        if (p != "") prefix[++np] = p
    }
}
{
    why = "-"
    for (i = 1; i <= np && why == "-"; i++)
        if (substr($0 "/", 1, length(prefix[i])) == prefix[i])
            why = prefix[i]
    if (why == "-" && ("/" $0 "/") ~ /\/[^\/]*\.hidden\//)
        why = "*.hidden"
    print why "\t" $0
}' "$work/all" >"$work/classified"

: >"$work/ship"
while IFS="$(printf '\t')" read -r why path; do
    [ "$why" = "-" ] || continue
    # A tracked file deleted from the working copy has nothing to ship.
    if [ -e "$path" ] || [ -L "$path" ]; then
        printf './%s\n' "$path" >>"$work/ship"
    fi
done <"$work/classified"

count=$(wc -l <"$work/ship" | tr -d ' ')
[ "$count" -gt 0 ] || die "nothing to ship"
for need in Makefile README.md; do
    grep -qx "\./$need" "$work/ship" || die "$need is missing: run from a memwall tree"
done

# ---- guards against shipping answers -----------------------------------------

leaks=$(grep '^\./exercises/' "$work/ship" | while read -r f; do
    if [ -f "$f" ] && grep -q -E '(BEGIN|END) SOLUTION' "$f"; then echo "$f"; fi
done)
if [ -n "$leaks" ]; then
    die "exercises holding solution markers (regenerate them with 'make skeletons'):
$leaks"
fi
if [ "$source" = git ]; then
    edited=$(git diff --name-only HEAD -- exercises 2>/dev/null || true)
    if [ -n "$edited" ]; then
        echo "dist: warning: exercises edited since the last commit ship as they are now:" >&2
        printf '%s\n' "$edited" | sed 's/^/dist:   /' >&2
    fi
fi

# ---- the tarball ------------------------------------------------------------

mkdir "$work/stage" "$work/stage/$name"
tar -cf - -T "$work/ship" | tar -xpf - -C "$work/stage/$name"

# Instructor-only regions cut from the staged C and CUDA sources.
stage=$work/stage/$name
(cd "$stage" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) -print) |
    sed 's|^\./||' | LC_ALL=C sort >"$work/sources"
: >"$work/cut"
while IFS= read -r f; do
    grep -q -E '^[[:space:]]*// (BEGIN|END) INSTRUCTOR ONLY' "$stage/$f" || continue
    awk -v file="$f" '
        /^[ \t]*\/\/ BEGIN INSTRUCTOR ONLY/ {
            if (inside) { print file ":" NR ": BEGIN INSTRUCTOR ONLY inside a region" >"/dev/stderr"; exit 1 }
            inside = NR; next
        }
        /^[ \t]*\/\/ END INSTRUCTOR ONLY/ {
            if (!inside) { print file ":" NR ": END INSTRUCTOR ONLY without a BEGIN" >"/dev/stderr"; exit 1 }
            inside = 0; next
        }
        !inside { print }
        END {
            if (inside) { print file ":" inside ": BEGIN INSTRUCTOR ONLY never ended" >"/dev/stderr"; exit 1 }
        }' "$stage/$f" >"$work/cut.tmp" || die "instructor-only markers that do not pair up (above)"
    cat "$work/cut.tmp" >"$stage/$f" # rewrite in place: the file keeps its mode
    printf '%s\n' "$f" >>"$work/cut"
done <"$work/sources"

# No shipped source may share code with a solution.
compared=''
if grep -q -s -E '^[[:space:]]*// BEGIN SOLUTION' solutions/*/*.cu; then
    if command -v perl >/dev/null 2>&1; then
        compare_tool >"$work/compare.pl"
        solutions=$(pwd)/solutions
        rc=0
        (cd "$stage" && perl "$work/compare.pl" "$solutions" <"$work/sources") >"$work/shared" || rc=$?
        if [ $rc -eq 1 ]; then
            die "these files would give solutions away:
$(cat "$work/shared")
cut that code with '// BEGIN INSTRUCTOR ONLY' and '// END INSTRUCTOR ONLY' lines (the chapter must build without it), or leave the file out (MW_DIST_EXCLUDE)"
        fi
        [ $rc -eq 0 ] || die "comparing the sources with solutions/ failed (exit $rc)"
        compared=$(wc -l <"$work/sources" | tr -d ' ')
    else
        echo "dist: warning: perl not found: the sources were not compared with solutions/" >&2
    fi
fi

# The chapters' own kernels, compiled (header above), after the comparison
# has seen their source: code that shares a solution's must be cut even
# from an object.
nvcc=${NVCC:-nvcc}
kernel_gencode='-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80
    -gencode arch=compute_86,code=sm_86 -gencode arch=compute_89,code=sm_89
    -gencode arch=compute_90,code=[sm_90,compute_90]'
if command -v "$nvcc" >/dev/null 2>&1 &&
    "$nvcc" --list-gpu-arch 2>/dev/null | grep -qx compute_70; then
    kernel_gencode="-gencode arch=compute_70,code=sm_70 $kernel_gencode"
fi
: >"$work/compiled"
for f in $(grep -E '^chapters/[^/]+/[^/]+\.cu$' "$work/sources" || true); do
    command -v "$nvcc" >/dev/null 2>&1 ||
        die "nvcc not found: the chapters' own kernels ($f) ship compiled; put the CUDA toolkit's bin/ on the PATH or name it with NVCC="
    ch=$(dirname "$f")
    key=$( { cat "$stage/$f" "$stage/$ch"/*.h "$stage"/grader/*.h 2>/dev/null; "$nvcc" --version; echo $kernel_gencode; } |
        cksum | tr ' ' '-')
    cached=build/dist-kernels/$(basename "$f" .cu)-$key.o
    if [ ! -f "$cached" ]; then
        mkdir -p build/dist-kernels
        # shellcheck disable=SC2086 # the gencode list is words
        (cd "$stage" && "$nvcc" -O3 $kernel_gencode -Igrader -I"$ch" -Xcompiler -fPIC \
            -c "$f" -o "$work/kernel.o") || die "$f does not compile (above)"
        mv -f "$work/kernel.o" "$cached.$$" && mv -f "$cached.$$" "$cached"
    fi
    cp "$cached" "$stage/$f.o"
    rm -f "$stage/$f"
    printf '%s\n' "$f" >>"$work/compiled"
done

set -- -cf -
if tar --version 2>/dev/null | grep -q 'GNU tar'; then
    # Nothing of the machine that made it: owner root, names sorted, every
    # file dated as the commit it comes from (SOURCE_DATE_EPOCH overrides):
    # file times differ from checkout to checkout, and the size with them.
    set -- "$@" --owner=0 --group=0 --numeric-owner
    tar --sort=name --version >/dev/null 2>&1 && set -- "$@" --sort=name
    epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || true)}
    [ -n "$epoch" ] && set -- "$@" --mtime="@$epoch"
fi
(cd "$work/stage" && tar "$@" "$name") | gzip -9n >"$tmp"

# The tarball must list what was staged, and nothing held back.
tar -tzf "$tmp" >"$work/listed" || die "the tarball does not read back"
if grep -E "^$name/(solutions|tests/wrong|tests/class|instructor)/|\.hidden(/|$)" "$work/listed" >"$work/bad"; then
    die "left-out paths reached the tarball: $(head -n 3 "$work/bad" | tr '\n' ' ')"
fi
files=$(grep -c -v '/$' "$work/listed" || true)

mv -f "$tmp" "$out"

# ---- what it did --------------------------------------------------------------

size=$(wc -c <"$out" | tr -d ' ')
human=$(awk -v b="$size" 'BEGIN {
    if (b >= 1048576) printf "%.1f MiB", b / 1048576
    else if (b >= 1024) printf "%.0f KiB", b / 1024
    else printf "%d bytes", b }')
echo "dist: wrote $out: $files files, $human, unpacks into $name/ (from $source)"
left=$(awk -F'\t' '$1 != "-" { print $1 }' "$work/classified" | LC_ALL=C sort | uniq -c |
    awk '{ printf "%s%s (%d)", (NR > 1 ? ", " : ""), $2, $1 }')
[ -n "$left" ] && echo "dist: left out: $left"
if [ -s "$work/cut" ]; then
    echo "dist: instructor-only code cut from: $(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $0 }' "$work/cut")"
fi
if [ -s "$work/compiled" ]; then
    echo "dist: shipped compiled, without source: $(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $0 }' "$work/compiled")"
fi
[ -n "$compared" ] && echo "dist: $compared C and CUDA sources compared with solutions/: none shares code"
exit 0
