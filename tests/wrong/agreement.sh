#!/bin/sh
# agreement.sh [WRONGDIR]: the known-wrong submissions, what a GPU answers
# beside what the CPU emulation answers, as a Markdown table on stdout,
# from each one's `expect` file (tests/wrong/<chapter>/<name>/expect):
# `exit`, `diagnostic` for the GPU (which tests/t0510-gpu-wrong.t checks);
# `emulation-exit`, `emulation-diagnostic`, or `emulation: gpu-only REASON`
# for the emulation (which tests/t0151-sim-wrong.t checks). A `# not yet
# run on a GPU` line marks the GPU's answer as reasoned, not yet seen. Ends
# with the share the emulation rejects, how many of the rest need a case
# past its budget and how many it refuses to build (PTX it does not run).
# A folder whose `exit` is 0 holds a right submission (both must pass it):
# it is counted apart.
dir=${1:-tests/wrong}
for expect in "$dir"/*/*/expect; do
    [ -f "$expect" ] || continue
    name=${expect%/expect}
    echo "$(basename "$(dirname "$name")")/$(basename "$name")|$expect"
done | LC_ALL=C sort | awk -F'|' '
    function field(file, key,    line, value) {
        value = ""
        while ((getline line < file) > 0)
            if (index(line, key ": ") == 1) value = substr(line, length(key) + 3)
            else if (key == "unseen" && line ~ /^# not yet run on a GPU/) value = "1"
        close(file)
        return value
    }
    function exit_word(code) {
        if (code == 1) return "1 wrong"
        if (code == 2) return "2 error"
        gsub(/ /, " or ", code)
        return code
    }
    BEGIN {
        print "| known-wrong | GPU: exit, phrase | emulation: exit, phrase |"
        print "|---|---|---|"
    }
    {
        file = $2
        if (field(file, "exit") == "0") { right++; next } # a right submission, no known-wrong
        gpu = exit_word(field(file, "exit")) ", \"" field(file, "diagnostic") "\""
        if (field(file, "unseen") == "1") gpu = gpu " (not yet run on a GPU)"
        only = field(file, "emulation")
        if (only ~ /^gpu-only/) {
            sub(/^gpu-only */, "", only)
            emu = "GPU only: " only
            if (only ~ /budget/) budget++
        } else if (field(file, "emulation-exit") == "build") {
            # Refused for instructions it does not run: that is no catch.
            emu = "does not build: \"" field(file, "emulation-diagnostic") "\""
            refused++
        } else {
            emu = exit_word(field(file, "emulation-exit")) ", \"" field(file, "emulation-diagnostic") "\""
            caught++
        }
        n++
        print "| `" $1 "` | " gpu " | " emu " |"
    }
    END {
        printf "\nThe emulation rejects %d of %d (%.0f%%); of the other %d, %d need a case past its budget",
               caught, n, n ? 100 * caught / n : 0, n - caught, budget
        if (refused) printf " and %d use instructions it does not run (it refuses to build them)", refused
        printf "."
        if (right) printf " Left out: %d right submission%s (exit 0), which both must pass.", right, (right > 1 ? "s" : "")
        print ""
    }'
