#!/bin/sh
# chapter.sh NAME: print the chapter folder NAME stands for ("01",
# "01-vector-add" or "vector-add"); on no match, list the chapters and fail.
name=$1
if [ -z "$name" ]; then
    echo "no chapter given: use CH=01 (or CH=01-vector-add, CH=vector-add)" >&2
    exit 1
fi
for dir in chapters/[0-9][0-9]-*/; do
    ch=${dir%/}
    ch=${ch#chapters/}
    num=${ch%%-*}
    case "$name" in
    "$ch" | "$num" | "${ch#*-}") echo "$ch"; exit 0 ;;
    esac
    # A single digit means the same as its zero-padded form: CH=1 is 01.
    [ "0$name" = "$num" ] && { echo "$ch"; exit 0; }
done
{
    echo "unknown chapter '$name'. The chapters are:"
    for dir in chapters/[0-9][0-9]-*/; do
        ch=${dir%/}
        echo "  ${ch#chapters/}"
    done
    echo "use CH=NN or CH=NN-name, e.g. CH=01"
} >&2
exit 1
