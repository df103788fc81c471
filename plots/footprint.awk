# footprint.awk: footprint.csv (device memory per implementation and size)
# into footprint.dat for footprint.gp: one block per implementation (two
# blank lines apart), each row "size<TAB>GB"; prints shell assignments:
# fimpls (the block names, space-separated), gpugb (the GPU's memory, GB),
# fmin, fmax (range of sizes), fymax (largest footprint, GB).
#
#   awk -f plots/csv.awk -f plots/footprint.awk -v out=FILE footprint.csv

FNR == 1 { csvsplit($0, h); for (i in h) col[h[i]] = i; next }
/^[ \t\r]*$/ { next }
{
    csvsplit($0, f)
    im = f[col["impl"]]
    if (!(im in seen)) { seen[im] = ++n; name[n] = im }
    k = seen[im]; rows[k] = rows[k] sprintf("%s\t%.6g\n", f[col["size"]], f[col["total_bytes"]] / 1e9)
    if (f[col["gpu_bytes"]] + 0 > gpu) gpu = f[col["gpu_bytes"]] + 0
    s = f[col["size"]] + 0
    if (fmin == "" || s < fmin) fmin = s
    if (s > fmax) fmax = s
    if (f[col["total_bytes"]] / 1e9 > fymax) fymax = f[col["total_bytes"]] / 1e9
}
END {
    for (k = 1; k <= n; k++) { printf "%s%s", (k > 1 ? "\n\n" : ""), rows[k] > out; list = list (k > 1 ? " " : "") name[k] }
    close(out)
    printf "fimpls='%s'\ngpugb=%.6g\nfmin=%s\nfmax=%s\nfymax=%.6g\n", list, gpu / 1e9, fmin + 0, fmax + 0, fymax + 0
}
