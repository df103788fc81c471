#!/bin/sh
# docs/samples.sh: the sample outputs that README.md and docs/*.md show come
# from real runs, so that they stay true as the code changes.
#
#   sh docs/samples.sh capture DIR [NAME...]   run the commands, save DIR/NAME.txt
#   sh docs/samples.sh render [DIR]            put each sample into the docs
#   sh docs/samples.sh check [DIR]             exit 1 when a doc differs from
#                                              its samples (tests/t0305-doc-samples.t)
#   sh docs/samples.sh list                    every sample: NAME NEEDS DOC FORM [slow]
#
# DIR is docs/samples in the repository. In a doc, a sample sits between
#
#   <!-- sample: NAME -->
#   ```
#   ...the text of DIR/NAME.txt...
#   ```
#   <!-- end sample -->
#
# A sample needs one of: `any` (runs anywhere), `nogpu` (what a machine
# without a GPU prints: captured only where there is none) or `gpu`
# (captured only on a GPU). A sample not captured yet is kept as
# NAME.placeholder.txt, the text the doc shows until then; capturing it
# writes NAME.txt and removes the placeholder. Captures are normalised: the
# repository's path, temporary folders and Makefile line numbers change
# from machine to machine and from edit to edit, and a doc would go stale
# with each.
set -u
# Run from make (make test), make's children would print `make[1]:` where a
# user's make prints `make:`.
unset MAKELEVEL MAKEFLAGS MFLAGS
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

# The docs that may show samples (MW_SAMPLE_DOCS: others, for the tests).
docs() { if [ -n "${MW_SAMPLE_DOCS:-}" ]; then echo "$MW_SAMPLE_DOCS"; else ls README.md docs/*.md tests/README.md; fi; }

# NAME NEEDS DOC FORM [slow]: the samples and where each is shown; FORM `md`
# is put in as it is (a Markdown table), `code` in a code block. `slow`:
# minutes of nvcc, which the fast tests do not capture again.
samples() {
    cat <<'EOF'
check-wrong-alignment gpu README.md code
check-no-gpu nogpu docs/troubleshooting.md code
check-todo gpu docs/troubleshooting.md code
check-emulated-race any docs/emulation.md code slow
dist any docs/instructors.md code
hidden-cases-bad any docs/instructors.md code
grade-no-submission any docs/instructors.md code
grade-no-gpu nogpu docs/instructors.md code
grade-class gpu docs/instructors.md code
gradebook gpu docs/instructors.md code
mutants-table any tests/README.md md
mutants-no-gpu nogpu docs/mutation-testing.md code slow
EOF
}

have_gpu() { build/01-vector-add/mw-chapter info >/dev/null 2>&1; }

# normalise SCRATCH: machine- and edit-specific strings replaced, on stdin;
# the build lines make prints (`  NVCC    build/...`), which only a tree
# not built yet shows, left out.
normalise() {
    sed -E -e '/^  (CC|CXX|AR|LINK|NVCC|SIMCC|STUB) +[^ ]/d' -e "s|$1/|/path/to/|g" -e "s|$root|/path/to/memwall|g" \
        -e "s|${TMPDIR:-/tmp}/[A-Za-z0-9._-]+|/tmp/XXXXXX|g" \
        -e 's/Makefile:[0-9]+:/Makefile:NNN:/g'
}

# excerpt: a check's output cut to what a reader needs: its first line (the
# seed), the case before the first failure, that failure with its
# diagnosis, then from the last case line to the end (the last case, the
# overall hints and the count).
excerpt() {
    awk '
        { line[NR] = $0 }
        /^  [A-Z]+ / { last = NR; if (first == 0 && $1 != "PASS") first = NR }
        END {
            if (first == 0) { for (i = 1; i <= NR; i++) print line[i]; exit }
            if (line[1] ~ /^memwall check /) print line[1]
            if (first > 1 && line[first - 1] ~ /^  PASS /) print line[first - 1]
            print line[first]
            for (i = first + 1; i <= NR && line[i] ~ /^      /; i++) print line[i]
            if (last > i) print "  ..."
            for (j = (last >= i ? last : i); j <= NR; j++) print line[j]
        }'
}

# capture_NAME SCRATCH: run the command; its output (stdout and stderr) on stdout.
capture_check_wrong_alignment() {
    # What `make check CH=01 EX=02 SEED=7` prints for this 02_fast.cu in
    # exercises/01-vector-add: the Makefile's check recipe, on a library
    # built from the known-wrong file.
    make -s --no-print-directory lib CH=01 \
        KERNEL=tests/wrong/01-vector-add/assumes-alignment/02_fast.cu LIBDIR="$1/lib" >/dev/null || return 2
    build/01-vector-add/mw-chapter check --lib-dir "$1/lib" --label exercises/01-vector-add \
        --timeout 30 --version 02 --seed 7 --quick-sanitize 2>&1 | excerpt
}
capture_check_todo() {
    # The skeletons as committed: every launcher still not implemented.
    [ -z "$(git status --porcelain exercises/01-vector-add)" ] || {
        echo "samples: check-todo: exercises/01-vector-add is edited: commit or stash it" >&2
        return 2
    }
    make -s --no-print-directory check CH=01 SEED=123456789 2>&1
}
capture_check_emulated_race() {
    # What `make check CH=03 EX=02 SEED=7 SIM=1` prints for chapter 03's
    # tiled kernel without its second __syncthreads (the known-wrong
    # submission missing-second-syncthreads) in exercises/03-matmul: the
    # Makefile's check recipe on the emulation, on a library that mw-simcc
    # and the emulation's flags build from the known-wrong file, as
    # grader/sim/host.mk builds one.
    make -s --no-print-directory build/sim/03-matmul/mw-chapter build/sim/tools/mw-simcc \
        >/dev/null || return 2
    kflags=$(make -s --no-print-directory print-sim-kflags) || return 2
    mkdir -p "$1/lib" || return 2
    build/sim/tools/mw-simcc tests/wrong/03-matmul/missing-second-syncthreads/02_tiled.cu \
        "$1/lib/02_tiled.cpp" &&
        g++ $kflags -Ichapters/03-matmul -Igrader -c "$1/lib/02_tiled.cpp" -o "$1/lib/02_tiled.o" &&
        g++ -shared -o "$1/lib/02_tiled.so" "$1/lib/02_tiled.o" || return 2
    build/sim/03-matmul/mw-chapter check --lib-dir "$1/lib" --label exercises/03-matmul \
        --timeout 30 --version 02 --seed 7 --quick-sanitize 2>&1 | excerpt
}
capture_check_no_gpu() {
    make -s --no-print-directory check CH=01 SIM=0 SEED=123456789 2>&1
}
capture_dist() {
    # Written into the scratch folder, named as make dist names it.
    MW_DIST_OUT="$1/memwall-student.tar.gz" make -s --no-print-directory dist 2>&1 |
        sed "s|$1/|dist/|g"
}
# The refusals are mw-batch's, which make grade runs after caching the GPU's
# roofs: run alone, they leave results/ untouched on a GPU that has none.
capture_hidden_cases_bad() {
    printf 'seed 1\ncase hidden 4097 0 0\n' >"$1/bad.cases"
    build/tools/mw-batch --chapter 01-vector-add --submissions tests/class/01-vector-add \
        --out "$1/grades" --timeout 30 --hidden "$1/bad.cases" 2>&1
}
capture_grade_no_submission() {
    mkdir -p "$1/submissions"
    build/tools/mw-batch --chapter 01-vector-add --submissions "$1/submissions" \
        --out "$1/grades" --timeout 30 2>&1 | grep -v '^warning: user nobody'
}
capture_grade_no_gpu() {
    # The permission warning depends on the user who runs it: left out.
    make -s --no-print-directory grade CH=01 SUBMISSIONS=tests/class/01-vector-add \
        OUT="$1/grades" 2>&1 | grep -v '^warning: user nobody'
}
capture_grade_class() {
    # Four students of the fixture class (tests/class/01-vector-add/EXPECTED.md
    # says what each should get): a pass, a build failure, a version not
    # handed in, and one file for both versions; default rubric, no hidden
    # cases. The rest of the class adds time (erin times out on every case).
    mkdir -p "$1/class"
    cp -R tests/class/01-vector-add/alice tests/class/01-vector-add/dave \
        tests/class/01-vector-add/ivan tests/class/01-vector-add/mallory.cu "$1/class/" || return 2
    make -s --no-print-directory grade CH=01 SUBMISSIONS="$1/class" OUT="$1/grades" \
        HIDDEN=/dev/null 2>&1 | grep -v '^warning: user nobody'
}
capture_gradebook() {
    # The gradebook that grade-class wrote (captured just before it).
    cat "$1/../grade-class/grades/gradebook.csv"
}

capture_mutants_no_gpu() {
    # Builds every mutant of chapter 01 (minutes of nvcc); the build time and
    # the number of parallel builds are the machine's.
    make -s --no-print-directory mutants CH=01 2>&1 |
        sed -E 's/built in [0-9]+ s/built in N s/; s/building them, [0-9]+ at a time/building them, J at a time/'
}
# stale_versions CHAPTER CSV: "FILE:N" for each version of CSV whose
# solution mw-mutate now finds other mutants in (N of them) than CSV lists;
# nothing where the solutions are not here (the student edition).
stale_versions() {
    for v in $(tail -n +2 "$2" | cut -d, -f2 | sort -u); do
        [ -f "solutions/$1/$v" ] || continue
        now=$(build/tools/mw-mutate "solutions/$1/$v" | tail -n +2 | cut -d, -f1-4 | sort)
        graded=$(tail -n +2 "$2" | awk -F, -v v="$v" '$2 == v' | cut -d, -f2-5 | sort)
        [ "$now" = "$graded" ] || printf '%s:%s ' "$v" "$(printf '%s\n' "$now" | grep -c .)"
    done
}

capture_mutants_table() {
    # Not a command's output: the mutation scores that make mutants wrote
    # in results/<gpu>/<chapter>/mutants.csv, one row per version, so that
    # the table follows each run of make mutants. A version whose solution
    # has other mutants now than the run graded (it was edited since) says
    # so in its score: that score is an older file's.
    make -s --no-print-directory build/tools/mw-mutate >/dev/null || exit 2
    for f in results/*/*/mutants.csv; do
        [ -f "$f" ] || continue
        gpu=$(basename "$(dirname "$(dirname "$f")")")
        ch=$(basename "$(dirname "$f")")
        awk -f plots/csv.awk -v gpu="$gpu" -v stale="$(stale_versions "$ch" "$f")" -f /dev/fd/3 "$f" 3<<'AWK'
NR == 1 { next }
{
    csvsplit($0, f); ch = f[1]; v = f[2]; sub(/\.cu$/, "", v)
    if (!(v in seen)) { seen[v] = 1; order[++n] = v }
    count[v]++; st[v, f[8]]++
    if (f[8] == "killed" && index(f[9], "compute-sanitizer") == 1) san[v]++
}
END {
    for (i = 1; i <= n; i++) {
        v = order[i]; k = st[v, "killed"] + 0; s = st[v, "survived"] + 0
        other = count[v] - k - s - st[v, "equivalent"] - st[v, "stillborn"]
        score = k + s ? sprintf("%.1f%%", 100 * k / (k + s)) : "-"
        padded = " " stale " "
        if (match(padded, " " v ".cu:[0-9]+ ")) {
            now = substr(padded, RSTART + length(" " v ".cu:")); sub(/ .*/, "", now)
            score = score " (of an older file: " now " mutants now)"
        }
        printf "| %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", ch, v, gpu, count[v],
            st[v, "stillborn"], k, san[v], st[v, "equivalent"], s, other, score
    }
}
AWK
    done | {
        echo '| chapter | version | GPU | mutants | stillborn | killed | of them by compute-sanitizer | equivalent | survived | not graded | score |'
        echo '|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|'
        cat
    }
}

capture() {
    out=$1
    shift
    mkdir -p "$out" || exit 2
    # Whether there is a GPU is the chapter program's answer: built first.
    make -s --no-print-directory build/01-vector-add/mw-chapter build/tools/mw-batch >/dev/null ||
        exit 2
    gpu=0
    have_gpu && gpu=1
    scratch=$(mktemp -d) || exit 2
    trap 'rm -rf "$scratch"' EXIT
    status=0
    samples | while read -r name needs doc _ _; do
        if [ $# -gt 0 ]; then
            case " $* " in *" $name "*) ;; *) continue ;; esac
        fi
        if [ "$needs" = gpu ] && [ $gpu = 0 ]; then
            echo "samples: $name: not captured (needs a GPU)"
            continue
        fi
        if [ "$needs" = nogpu ] && [ $gpu = 1 ]; then
            echo "samples: $name: not captured (shows a machine without a GPU)"
            continue
        fi
        mkdir -p "$scratch/$name"
        fn=capture_$(echo "$name" | tr - _)
        if ! $fn "$scratch/$name" | normalise "$scratch/$name" >"$scratch/$name.txt" ||
            [ ! -s "$scratch/$name.txt" ]; then
            echo "samples: $name: the capture failed or printed nothing" >&2
            exit 1
        fi
        mv "$scratch/$name.txt" "$out/$name.txt" && rm -f "$out/$name.placeholder.txt"
        echo "samples: $name: $out/$name.txt (for $doc)"
    done || status=1
    return $status
}

# sample_file DIR NAME: the captured file, else its placeholder.
sample_file() {
    if [ -f "$1/$2.txt" ]; then echo "$1/$2.txt"; elif [ -f "$1/$2.placeholder.txt" ]; then
        echo "$1/$2.placeholder.txt"
    else return 1; fi
}

# render_doc DIR DOC: DOC with each sample's text put in, on stdout; exit 1
# when a marker names no sample or has no end.
render_doc() {
    awk -v dir="$1" -v doc="$2" -v raw="$(samples | awk '$4 == "md" { printf " %s ", $1 }')" '
        function emit(name,   file, l, ok) {
            file = dir "/" name ".txt"
            if ((getline l < file) < 0) { file = dir "/" name ".placeholder.txt"
                if ((getline l < file) < 0) { print doc ":" NR ": no sample " name > "/dev/stderr"; bad = 1; return } }
            fence = index(raw, " " name " ") == 0
            if (fence) print "```"
            print l
            while ((getline l < file) > 0) print l
            close(file)
            if (fence) print "```"
        }
        inside && /^<!-- end sample -->$/ { inside = 0; print; next }
        inside { next }
        /^<!-- sample: [A-Za-z0-9_-]+ -->$/ {
            print; name = $3; inside = 1; start = NR; emit(name); next
        }
        /^[ \t]*<!-- *(end )?sample/ { print doc ":" NR ": malformed sample marker: " $0 > "/dev/stderr"; bad = 1 }
        { print }
        END {
            if (inside) { print doc ":" start ": sample " name " has no <!-- end sample -->" > "/dev/stderr"; bad = 1 }
            exit bad
        }' "$2"
}

render() {
    dir=${1:-docs/samples}
    status=0
    for doc in $(docs); do
        tmp=$(mktemp) || exit 2
        if render_doc "$dir" "$doc" >"$tmp"; then
            cmp -s "$tmp" "$doc" || { cat "$tmp" >"$doc" && echo "samples: rendered into $doc"; }
        else
            status=1
        fi
        rm -f "$tmp"
    done
    return $status
}

check() {
    dir=${1:-docs/samples}
    status=0
    for doc in $(docs); do
        tmp=$(mktemp) || exit 2
        if ! render_doc "$dir" "$doc" >"$tmp"; then
            status=1
        elif ! cmp -s "$tmp" "$doc"; then
            echo "samples: $doc differs from its samples in $dir (sh docs/samples.sh render):" >&2
            diff "$doc" "$tmp" | head -n 20 >&2
            status=1
        fi
        rm -f "$tmp"
    done
    # Every sample is shown where the list says, and every file is listed.
    [ -n "${MW_SAMPLE_DOCS:-}" ] && return $status
    for name in $(samples | awk '{ print $1 }'); do
        doc=$(samples | awk -v n="$name" '$1 == n { print $3 }')
        sample_file "$dir" "$name" >/dev/null || { echo "samples: $name: no $dir/$name.txt" >&2; status=1; }
        grep -q -x -F "<!-- sample: $name -->" "$doc" ||
            { echo "samples: $name: $doc has no <!-- sample: $name --> marker" >&2; status=1; }
    done
    for f in "$dir"/*.txt; do
        [ -f "$f" ] || continue
        name=$(basename "$f" .txt)
        name=${name%.placeholder}
        samples | awk '{ print $1 }' | grep -q -x -F "$name" ||
            { echo "samples: $f: not a sample docs/samples.sh captures" >&2; status=1; }
    done
    return $status
}

case ${1:-} in
capture)
    [ $# -ge 2 ] || { echo "usage: sh docs/samples.sh capture DIR [NAME...]" >&2; exit 2; }
    shift
    capture "$@"
    ;;
render) render "${2:-}" ;;
check) check "${2:-}" ;;
list) samples ;;
*)
    echo "usage: sh docs/samples.sh capture DIR [NAME...] | render [DIR] | check [DIR] | list" >&2
    exit 2
    ;;
esac
