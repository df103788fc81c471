# sass-stalls.awk: ncu's source page of one kernel (--csv --page source
# --print-source sass: a line naming the kernel, a header, then a row an
# instruction) as "path,class,samples,share_pct,executed,top_stall" lines,
# one a class of instruction, most samples first, with path from -v path.
#   class      the opcode without its predicate or modifiers (MUFU keeps
#              its function: MUFU.EX2); WARPGROUP.DEPBAR keeps the number
#              of wgmma groups it lets stay in flight: WARPGROUP.DEPBAR<=1
#              is wgmma.wait_group 1
#   samples    the warp-state samples taken at its instructions, issued or
#              not (ncu's "Warp Stall Sampling (All Samples)")
#   share_pct  their percent of the kernel's samples
#   executed   its warp-level instructions executed
#   top_stall  the stall reason with the most of its samples (ncu's
#              stall_ columns, "selected" being the sample of an issue)
# Lines before the header (the program's own output, ncu's) are skipped;
# numbers may carry thousands separators. Prints nothing for a page
# without the header or without samples.
function unquote(s) { gsub(/^"|"$/, "", s); return s }
function num(s) { gsub(/,/, "", s); return s + 0 }
function class_of(src,    t, k, op, w) {
    k = split(src, t, " ")
    op = t[1] ~ /^@/ ? t[2] : t[1]
    if (op ~ /^WARPGROUP\.DEPBAR/)
        return "WARPGROUP.DEPBAR<=" (t[k] ~ /^0x/ ? sprintf("%d", hex(t[k])) : t[k])
    split(op, w, ".")
    if (w[1] == "MUFU" || w[1] == "WARPGROUP")
        return w[1] "." w[2]
    return w[1]
}
function hex(s,    i, v) {
    v = 0
    for (i = 3; i <= length(s); i++)
        v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
    return v
}
{
    sub(/\r$/, "")
    n = split($0, f, "\",\"")
    for (i = 1; i <= n; i++) f[i] = unquote(f[i])
}
!header && f[1] == "Address" && f[2] == "Source" {
    for (i = 1; i <= n; i++) {
        if (f[i] == "Source") c_src = i
        else if (f[i] == "Warp Stall Sampling (All Samples)") c_samples = i
        else if (f[i] == "Instructions Executed") c_exec = i
        else if (f[i] ~ /^stall_/ && f[i] !~ /Not Issued/) { reasons++; c_reason[reasons] = i; reason[reasons] = substr(f[i], 7) }
    }
    header = c_src && c_samples && c_exec ? n : 0
    next
}
header && n >= header {
    c = class_of(f[c_src])
    if (!(c in samples)) { classes++; name[classes] = c; samples[c] = 0 }
    s = num(f[c_samples])
    samples[c] += s
    executed[c] += num(f[c_exec])
    total += s
    for (k = 1; k <= reasons; k++) by_reason[c, k] += num(f[c_reason[k]])
}
END {
    if (!total) exit
    # most samples first (insertion sort: a kernel has a few dozen classes)
    for (i = 2; i <= classes; i++) {
        c = name[i]
        for (j = i - 1; j >= 1 && samples[name[j]] < samples[c]; j--) name[j + 1] = name[j]
        name[j + 1] = c
    }
    for (i = 1; i <= classes; i++) {
        c = name[i]
        if (!samples[c]) continue
        top = ""; best = -1
        for (k = 1; k <= reasons; k++)
            if (by_reason[c, k] > best) { best = by_reason[c, k]; top = reason[k] }
        printf "%s,%s,%d,%.1f,%d,%s\n", path, c, samples[c], 100 * samples[c] / total, executed[c], top
    }
}
