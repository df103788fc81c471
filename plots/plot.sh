#!/bin/sh
# plot.sh DIR: draw a chapter's benchmark results as PNG and SVG.
#
# DIR is a chapter's results folder, e.g. results/<gpu>/01-vector-add. Reads
# DIR/bench.csv (required), DIR/traffic.csv, DIR/env.csv, DIR/footprint.csv
# and DIR/../roofs.csv (optional; its roofs reach the plots through
# `build/tools/mw-facts --roofs`, or $MW_FACTS, which `make build` builds); writes DIR/{speed,traffic,roofline}.{png,svg}
# (and footprint.{png,svg} where footprint.csv exists; the views of
# chapters/<chapter>/plot-views where it exists, below) and prints their paths. Exit status: 0 drawn, 1 bad input or a gnuplot
# error, 2 gnuplot not installed (the GPU machine has none: copy the CSVs to a
# machine that has it and run this there).
set -eu

if [ $# -ne 1 ]; then
    echo "usage: plots/plot.sh RESULTS_DIR   (e.g. results/<gpu>/01-vector-add)" >&2
    exit 1
fi
dir=${1%/}
if [ ! -f "$dir/bench.csv" ]; then
    ch=${dir##*/}; ch=${ch%%-*}         # results/<gpu>/01-vector-add -> 01
    case $ch in [0-9][0-9]) ;; *) ch=NN ;; esac
    echo "plot: $dir/bench.csv not found; run 'make bench CH=$ch' first to produce it" >&2
    exit 1
fi
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plot: gnuplot not found; install it (Debian/Ubuntu: apt-get install gnuplot-nox) to draw plots. The data is in $dir/*.csv" >&2
    exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
facts=${MW_FACTS:-$here/../build/tools/mw-facts}
if [ ! -x "$facts" ]; then
    echo "plot: $facts not found: run 'make build' first (it lists the roofs the plots draw)" >&2
    exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memwall-plot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

opt() { if [ -f "$1" ]; then printf '%s' "$1"; fi; }

# prep.awk parses the CSVs once, writes plain data files into $tmp and prints
# shell assignments (gpu, title, impls, the measured roofs, the chapter's roof, its
# value, unit, what it counts and its label as bench.csv gives them, axis
# ranges, ...).
"$facts" --roofs "$dir/../roofs.csv" >"$tmp/roofs.csv" ||
    { echo "plot: $facts --roofs failed" >&2; exit 1; }
prep() {   # prep DATA_DIR [REGEX]: prep.awk's data files into DATA_DIR, its variables
    # into $vars (REGEX: only the series it matches, for a view)
    vars=$(awk -f "$here/csv.awk" -f "$here/prep.awk" -v tmp="$1" -v bench="$dir/bench.csv" \
        -v traffic="$(opt "$dir/traffic.csv")" -v env="$(opt "$dir/env.csv")" \
        -v roofs="$tmp/roofs.csv" -v only="${2:-}")
}
prep "$tmp"
eval "$vars"

# A value as a gnuplot string literal: inside '...' a quote is written ''.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

common="title=$(q "$title"); gpu=$(q "$gpu"); date=$(q "$date")"

draw() {   # draw NAME GNUPLOT-VARIABLES [KIND]: KIND.gp (default NAME.gp) into NAME.png, .svg
    kind=${3:-$1}
    rm -f "$dir/$1.png" "$dir/$1.svg"     # so that a stale plot cannot pass
    gnuplot -e "out=$(q "$dir/$1"); data=$(q "$data_dir/$kind.dat"); $common; $2" \
        "$here/common.gp" "$here/$kind.gp" || { echo "plot: gnuplot failed on $kind.gp for $1" >&2; exit 1; }
    for ext in png svg; do
        [ -s "$dir/$1.$ext" ] || { echo "plot: $dir/$1.$ext was not written" >&2; exit 1; }
        echo "$dir/$1.$ext"
    done
}
draw_speed() {   # draw_speed NAME
    draw "$1" "height=850; impls=$(q "$impls"); kinds=$(q "$kinds"); colours=$(q "$colours"); unit=$(q "$unit"); counts=$(q "$counts"); rooflabel=$(q "$rooflabel"); roofval=$roofval; $extraroofs; xlabel=$(q "$xlabel"); ymax=$ymax; ylog=$ylog; symin=$symin; smin=$smin; smax=$smax; xstep=$xstep" speed
}
draw_roofline() {   # draw_roofline NAME
    draw "$1" "n=$npoints; memroof=$memroof; comproof=$comproof; memlegend=$(q "$memlegend"); complegend=$(q "$complegend"); $extraroofs; xlo=$xlo; xhi=$xhi; ylo=$ylo; yhi=$yhi" roofline
}

# A chapter's views (chapters/<chapter>/plot-views, optional): lines
# "NAME REGEX TITLE", each a speed or roofline plot of the series whose
# name matches REGEX (an awk regular expression), NAME.png and .svg;
# NAME "speed" or "roofline" narrows the main plot of that kind (a
# chapter with more series than one plot can show), "speed-..." or
# "roofline-..." draws one more, titled TITLE after the chapter's.
views=${MW_PLOT_VIEWS:-$here/../chapters/${dir##*/}/plot-views}   # MW_PLOT_VIEWS: for the tests
view_of() {   # view_of NAME: the REGEX and TITLE of view NAME, or nothing
    if [ -f "$views" ]; then
        awk -v name="$1" '$1 == name { $1 = ""; sub(/^ +/, ""); print; exit }' "$views"
    fi
}
prepare_view() {   # prepare_view "REGEX TITLE": prep.awk's variables and data files for the view
    regex=${1%% *}
    label=$(printf '%s' "${1#"$regex"}" | sed 's/^ *//')
    data_dir=$(mktemp -d "$tmp/view.XXXXXX")
    prep "$data_dir" "$regex"
    eval "$vars"
    [ -z "$label" ] || title="$title: $label"
    common="title=$(q "$title"); gpu=$(q "$gpu"); date=$(q "$date")"
}
restore_all() {   # the variables, title and data files of the whole chapter again
    eval "$all_vars"; common=$all_common; data_dir=$tmp
}
draw_main() {   # draw_main KIND: the main plot, narrowed where a view says so
    view=$(view_of "$1")
    if [ -n "$view" ]; then
        prepare_view "$view"
    fi
    "draw_$1" "$1"
    if [ -n "$view" ]; then restore_all; fi
}
data_dir=$tmp
all_vars=$vars
all_common=$common

draw_main speed
# Taller when the rotated labels are long.
draw traffic "tmode=$(q "$tmode"); n=$ntraffic; tylo=$tylo; tyhi=$tyhi; tlabel=$tlabel; height=$((600 + 8 * tlabel))"
draw_main roofline
if [ -f "$views" ]; then
    for name in $(awk '$1 ~ /^(speed|roofline)-/ { print $1 }' "$views"); do
        view=$(view_of "$name")
        prepare_view "$view"
        "draw_${name%%-*}" "$name"
    done
    restore_all
fi
# Device memory against size, where some implementation needs a workspace.
if [ -f "$dir/footprint.csv" ]; then
    fvars=$(awk -f "$here/csv.awk" -f "$here/footprint.awk" -v out="$tmp/footprint.dat" "$dir/footprint.csv")
    eval "$fvars"
    draw footprint "fimpls=$(q "$fimpls"); gpugb=$gpugb; fmin=$fmin; fmax=$fmax; fymax=$fymax; xlabel=$(q "$xlabel")"
fi
