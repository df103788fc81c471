# prep.awk: turn a chapter's result CSVs into plain data files for gnuplot.
#
#   awk -f plots/csv.awk -f plots/prep.awk -v tmp=DIR -v bench=F -v roofs=F [-v traffic=F] [-v env=F]
#       [-v only=REGEX]   (a view: only the series whose impl matches)
#
# All work happens in BEGIN, reading the files with getline, so that each CSV
# is parsed once here (quoted fields included) and gnuplot only ever sees
# tab-separated numbers and labels. Writes into DIR:
#   speed.dat    one block per implementation (two blank lines apart), sorted by
#                size: size, speed, speed at q3 time, speed at q1 time
#   traffic.dat  label, model MB, measured MB (NaN if none), measured/model text
#   roofline.dat x, y, label x, label y, colour (24-bit int), label, L|R
#                (label left of its anchor, or right)
# and prints shell assignments (values single-quoted) for plot.sh to eval.
# The x label of the speed plot comes from the shape ("n=...": elements);
# an xlabel key in env.csv overrides it. The roofs come from `mw-facts
# --roofs` (the table in grader/roofs.c with this GPU's measured values):
# each row's role says how the roofline draws it, its legend and
# speed_label what the plots write; no roof is known here by name.

# Read a CSV with a header row into T[row, column name]. Returns the number of
# data rows, or -1 when the file is missing, unreadable or empty.
function load(file, T,    line, h, f, n, i, r) {
    if (file == "" || (getline line < file) <= 0) return -1
    n = csvsplit(line, h)
    r = 0
    while ((getline line < file) > 0) {
        if (line ~ /^[ \t\r]*$/) continue
        csvsplit(line, f); r++
        for (i = 1; i <= n; i++) T[r, h[i]] = f[i]
    }
    close(file)
    return r
}

# Value of the row whose first column (keycol) is key, in a two-column file.
function lookup(T, n, keycol, key,    r) {
    for (r = 1; r <= n; r++) if (T[r, keycol] == key) return T[r, "value"]
    return ""
}

# Quote a value for the shell's eval.
function sq(s) { gsub(/'/, "'\\''", s); return "'" s "'" }
# Quote a value as a gnuplot string: inside '...' a quote is written ''.
function gq(s) { gsub(/'/, "''", s); return "'" s "'" }

# Rows without a timing (wrong answer, not implemented) are never plotted;
# bench.csv's timed column says which (decided in C, grader/facts.c).
function timed(r) { return B[r, "timed"] == 1 }

function kindrank(k) {
    return k == "student" ? 1 : k == "reference" ? 2 : k == "library" ? 3 : k == "roof" ? 4 : 5
}

# 2^k for an exact power of two from 2^4 up, else the number itself.
function pow2(v,    k) {
    if (v !~ /^[0-9]+$/ || v + 0 < 16) return v
    for (k = 4; 2 ^ k < v + 0; k++) ;
    return 2 ^ k == v + 0 ? "2^" k : v
}

# The k-th (0-based, cycling) of three space-separated words.
function word_cycle(list, k,    w, n) {
    n = split(list, w, " ")
    return w[k % n + 1]
}

# Shape text with its powers of two written 2^k ("n=16777216" -> "n=2^24").
function shapelabel(shape, size,    out, m) {
    if (shape == "") return "size=" pow2(size)
    out = ""
    while (match(shape, /[0-9]+/)) {
        out = out substr(shape, 1, RSTART - 1) pow2(substr(shape, RSTART, RLENGTH))
        shape = substr(shape, RSTART + RLENGTH)
    }
    return out shape
}

# Smallest and largest positive value seen, for the traffic axis.
function span(v) {
    if (v + 0 <= 0) return
    if (tmax == 0 || v + 0 < tmin) tmin = v + 0
    if (v + 0 > tmax) tmax = v + 0
}

function log10(v) { return log(v) / log(10) }
# Whole decades; the slack absorbs rounding in log (log10(1000) = 2.9999...).
function floor(v) { v += 1e-9; return v == int(v) || v > 0 ? int(v) : int(v) - 1 }
function ceil(v) { v -= 1e-9; return v == int(v) || v < 0 ? int(v) : int(v) + 1 }
function num(v) { return sprintf("%.6g", v) }

BEGIN {
    nb = load(bench, B)
    if (nb <= 0) { print "prep: " bench ": no data rows" > "/dev/stderr"; exit 1 }
    ne = load(env, E); nr = load(roofs, R); nt = load(traffic, T)

    gpu = lookup(E, ne, "key", "gpu"); date = lookup(E, ne, "key", "date")
    title = lookup(E, ne, "key", "title")
    if (title == "") title = lookup(E, ne, "key", "chapter")
    if (title == "") title = B[1, "chapter"]
    # The measured roofs: the memory roof (the roofline's slope), the compute
    # roof (its flat top) and any extra ones (dashed); 0 where unmeasured.
    memroof = comproof = 0; nextra = 0
    for (r = 1; r <= nr; r++) {
        if (R[r, "value"] == "") continue
        if (R[r, "role"] == "memory") { memroof = R[r, "value"] + 0; memlegend = R[r, "legend"] }
        else if (R[r, "role"] == "compute") { comproof = R[r, "value"] + 0; complegend = R[r, "legend"] }
        else { nextra++; extra[nextra] = R[r, "value"] + 0; extralegend[nextra] = R[r, "legend"]
               extralabel[nextra] = R[r, "speed_label"]; extracounts[nextra] = R[r, "counts"]
               extraname[nextra] = R[r, "name"] }
    }

    # The chapter's roof says what "speed" means: bytes or FLOPs per second.
    # bench.csv names it (chapter_roof) and gives, with each row measured
    # against it, what the roof table says of it (grader/roofs.c): its
    # measured value (roof_value: the value the run used), unit, what its
    # rate counts (roof_counts: bytes or flops) and its label.
    roof = B[1, "chapter_roof"]
    if (roof == "" || B[1, "timed"] == "" || !((1, "roof_counts") in B)) {
        print "prep: " bench ": no chapter_roof, timed or roof_counts column (not as the bench writes it: build/tools/mw-facts adds them)" > "/dev/stderr"
        exit 1
    }
    roofval = 0
    for (r = 1; r <= nb && !roofval; r++) if (B[r, "roof"] == roof) roofval = B[r, "roof_value"] + 0
    for (r = 1; r <= nb && B[r, "roof"] != roof; r++) ;
    counts = B[r, "roof_counts"]; unit = B[r, "roof_unit"]; rooflabel = B[r, "roof_label"]
    if (counts != "bytes" && counts != "flops") {
        print "prep: " bench ": roof " roof " counts neither bytes nor flops (roof_counts '" counts "': a roof grader/roofs.c lacks?)" > "/dev/stderr"
        exit 1
    }
    # The columns that count it: gbps and model_bytes, or gflops and model_flops.
    rate = counts == "bytes" ? "gbps" : "gflops"; amount = "model_" counts

    # x label: "n=1048576" means the size is a count of elements.
    xlabel = lookup(E, ne, "key", "xlabel")
    if (xlabel == "") {
        s = B[1, "shape"]
        if (s ~ /^n=[0-9]+$/) xlabel = "elements (n)"
        else if (s ~ /^[A-Za-z_]+=[0-9]+$/) { sub(/=.*/, "", s); xlabel = "size (" s ")" }
        else xlabel = "size"
    }

    # Implementations in kind order (student, reference, library, roof), then
    # in order of first appearance; largest timed size of each.
    # A view (plot.sh, a chapter's plot-views) keeps the series whose name
    # matches `only`.
    ni = 0
    for (r = 1; r <= nb; r++)
        if (only != "" && B[r, "impl"] !~ only) continue
        else if (!(B[r, "impl"] in seen)) { seen[B[r, "impl"]] = ++ni; impl[ni] = B[r, "impl"]; kind[ni] = B[r, "kind"] }
    for (a = 2; a <= ni; a++)            # insertion sort: stable, few items
        for (b = a; b > 1 && kindrank(kind[b]) < kindrank(kind[b - 1]); b--) {
            t = impl[b]; impl[b] = impl[b - 1]; impl[b - 1] = t
            t = kind[b]; kind[b] = kind[b - 1]; kind[b - 1] = t
        }
    for (i = 1; i <= ni; i++) seen[impl[i]] = i
    for (r = 1; r <= nb; r++) {
        i = seen[B[r, "impl"]]
        if (timed(r) && (!(i in big) || B[r, "size"] + 0 > B[big[i], "size"] + 0)) big[i] = r
    }

    # Colours (Okabe-Ito, readable by colour-blind readers): a student version
    # and the reference of the same name share one, told apart by dashes.
    np = split("#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #8C564B #F0E442", pal, " ")
    nv = 0
    for (i = 1; i <= ni; i++) {
        # Libraries in black, then dark purple, olive, dark red, dark teal and
        # brown, maroon and slate (chapter 05 has three libraries in four series each); roofs
        # in greys.
        if (kind[i] == "library") {
            colour[i] = word_cycle("#000000 #6A3D9A #7F7F00 #8B1A1A #1B5E5E #6B4226 #B03060 #2F4F4F", nlib++)
            continue
        }
        if (kind[i] == "roof") { colour[i] = word_cycle("#8C8C8C #BDBDBD #5A5A5A", nroof++); continue }
        v = impl[i]; sub(/^[^\/]*\//, "", v)
        if (!(v in vcol)) vcol[v] = pal[nv++ % np + 1]
        colour[i] = vcol[v]
    }

    # speed.dat
    f = tmp "/speed.dat"; printf "" > f
    impls = kinds = colours = ""; ns = 0; ymax = 0
    for (i = 1; i <= ni; i++) {
        if (!(i in big)) continue                     # nothing timed
        # A roof row that does none of what speed counts (a copy has no FLOPs).
        if (kind[i] == "roof" && !(B[big[i], amount] + 0 > 0)) continue
        m = 0
        for (r = 1; r <= nb; r++) if (B[r, "impl"] == impl[i] && timed(r)) row[++m] = r
        for (a = 2; a <= m; a++)
            for (b = a; b > 1 && B[row[b], "size"] + 0 < B[row[b - 1], "size"] + 0; b--) {
                t = row[b]; row[b] = row[b - 1]; row[b - 1] = t
            }
        if (ns++) printf "\n\n" > f
        for (a = 1; a <= m; a++) {
            r = row[a]; t = B[r, "median_ms"]
            y = B[r, rate] != "" ? B[r, rate] : B[r, amount] / t / 1e6
            # Speed scales as 1/time: the q3 time gives the low end of the bar.
            lo = B[r, "q3_ms"] + 0 > 0 ? y * t / B[r, "q3_ms"] : y
            hi = B[r, "q1_ms"] + 0 > 0 ? y * t / B[r, "q1_ms"] : y
            if (hi > ymax) ymax = hi
            if (B[r, "roof"] == roof && hi > ymain) ymain = hi
            if (lo > 0 && (ylo == "" || lo < ylo)) ylo = lo
            if (smin == "" || B[r, "size"] + 0 < smin) smin = B[r, "size"] + 0
            if (B[r, "size"] + 0 > smax) smax = B[r, "size"] + 0
            printf "%s\t%s\t%s\t%s\n", B[r, "size"], num(y), num(lo), num(hi) > f
        }
        impls = impls (ns > 1 ? " " : "") impl[i]
        kinds = kinds (ns > 1 ? " " : "") kind[i]
        colours = colours (ns > 1 ? " " : "") colour[i]
    }
    close(f)
    # A tick at every power of two unless that makes more than a dozen.
    if (smin == "") { smin = 1024; smax = 1048576 }
    xstep = smax / smin > 4096 ? 4 : 2
    # A line of another precision far above the chapter's own (TF32 tensor
    # cores at 8x the FP32 roof) would flatten every other line at the bottom
    # of a linear axis: then the y axis is logarithmic.
    base = roofval
    if (ymain > base) base = ymain
    ylog = base > 0 && ymax > 3 * base ? 1 : 0
    if (ylo == "") ylo = 1

    # traffic.dat: from traffic.csv, or else the model bytes of bench.csv at
    # each implementation's largest size.
    f = tmp "/traffic.dat"; printf "" > f
    m = 0; measured = 0
    if (nt > 0) {
        for (r = 1; r <= nt; r++) {
            if (T[r, "kind"] == "roof" || T[r, "impl"] ~ /^roof\//) continue
            row[++m] = r
            for (i = 1; i <= ni && impl[i] != T[r, "impl"]; i++) ;
            rank[m] = i
        }
        # Clusters by size, then implementation: neighbours compare at one size.
        for (a = 2; a <= m; a++)
            for (b = a; b > 1 && (T[row[b], "size"] + 0 < T[row[b - 1], "size"] + 0 || \
                 T[row[b], "size"] + 0 == T[row[b - 1], "size"] + 0 && rank[b] < rank[b - 1]); b--) {
                t = row[b]; row[b] = row[b - 1]; row[b - 1] = t
                t = rank[b]; rank[b] = rank[b - 1]; rank[b - 1] = t
            }
        for (a = 1; a <= m; a++) {
            r = row[a]
            model = (T[r, "model_read"] + T[r, "model_write"]) / 1e6
            meas = "NaN"; ratio = ""
            if (T[r, "source"] == "ncu" && T[r, "dram_read"] != "" && T[r, "dram_write"] != "") {
                meas = (T[r, "dram_read"] + T[r, "dram_write"]) / 1e6; measured++
                if (model > 0) ratio = sprintf("%.2fx", meas / model)
                meas = num(meas)
            }
            span(model); if (meas != "NaN") span(meas)
            label = T[r, "impl"] " " pow2(T[r, "size"])
            if (length(label) > tlabel) tlabel = length(label)
            printf "%s\t%s\t%s\t%s\n", label, num(model), meas, ratio > f
        }
        tmode = measured == m ? "ncu" : measured ? "mixed" : "model"
    } else {
        for (i = 1; i <= ni; i++) {
            if (kind[i] == "roof" || !(i in big)) continue
            r = big[i]; m++; span(B[r, "model_bytes"] / 1e6)
            label = impl[i] " " pow2(B[r, "size"])
            if (length(label) > tlabel) tlabel = length(label)
            printf "%s\t%s\tNaN\t\n", label, num(B[r, "model_bytes"] / 1e6) > f
        }
        tmode = "bench"
    }
    close(f); ntraffic = m
    # Whole decades, with room above the bars for the ratio labels.
    if (tmax == 0) { tmin = 1; tmax = 10 }
    tylo = 10 ^ floor(log10(tmin)); tyhi = 10 ^ ceil(log10(tmax * 2))
    if (tyhi / tylo < 1000) tylo = tyhi / 1000

    # roofline.dat: one point per implementation at its largest timed size.
    np = 0; pxlo = pylo = 1e300; pxhi = pyhi = 0
    for (i = 1; i <= ni; i++) {
        if (kind[i] == "roof" || !(i in big)) continue
        r = big[i]; flops = B[r, "model_flops"] + 0
        if (flops <= 0) continue
        bytes = B[r, "model_bytes"] + 0; note = " (model bytes)"
        for (s = 1; s <= nt; s++)
            if (T[s, "impl"] == impl[i] && T[s, "size"] + 0 == B[r, "size"] + 0 && T[s, "source"] == "ncu" && \
                T[s, "dram_read"] != "" && T[s, "dram_write"] != "" && T[s, "dram_read"] + T[s, "dram_write"] > 0) {
                bytes = T[s, "dram_read"] + T[s, "dram_write"]; note = ""
            }
        if (bytes <= 0) continue
        np++; px[np] = flops / bytes; py[np] = flops / B[r, "median_ms"] / 1e6
        pc[np] = colour[i]
        pl[np] = sprintf("%s %s GFLOP/s%s", impl[i], py[np] >= 100 ? sprintf("%.0f", py[np]) : sprintf("%.3g", py[np]), note)
        if (px[np] < pxlo) pxlo = px[np]; if (px[np] > pxhi) pxhi = px[np]
        if (py[np] < pylo) pylo = py[np]; if (py[np] > pyhi) pyhi = py[np]
    }
    # Axes in whole decades, wide enough for the points, the ridge points and
    # the labels to the right of the points.
    if (np == 0) { pxlo = 0.1; pxhi = 10; pylo = 1; pyhi = 1000 }
    xlo = pxlo / 10; xhi = pxhi * 30; ylo = pylo / 10; yhi = pyhi * 3
    if (memroof > 0 && comproof > 0) {
        if (comproof / memroof / 10 < xlo) xlo = comproof / memroof / 10
        if (comproof / memroof * 10 > xhi) xhi = comproof / memroof * 10
        for (e = 1; e <= nextra; e++) {
            if (extracounts[e] != "flops") continue   # a slope: no ridge, no flat roof
            if (extra[e] / memroof * 4 > xhi) xhi = extra[e] / memroof * 4
            if (extra[e] * 2 > yhi) yhi = extra[e] * 2
        }
        if (comproof * 2 > yhi) yhi = comproof * 2
        if (memroof * xlo < ylo) ylo = memroof * xlo
    }
    xlo = 10 ^ floor(log10(xlo)); xhi = 10 ^ ceil(log10(xhi))
    ylo = 10 ^ floor(log10(ylo)); yhi = 10 ^ ceil(log10(yhi))
    # Labels a line below their points (the roofs run above them), pushed
    # further down so that no two overlap: points of one chapter often sit on
    # top of each other. The plot area
    # is about 1000 x 560 pixels; a line of text needs about 22 of them.
    sep = 22 * log10(yhi / ylo) / 560; dx = 10 ^ (25 * log10(xhi / xlo) / 1000)
    for (a = 1; a <= np; a++) ord[a] = a
    for (a = 2; a <= np; a++)
        for (b = a; b > 1 && py[ord[b]] > py[ord[b - 1]]; b--) { t = ord[b]; ord[b] = ord[b - 1]; ord[b - 1] = t }
    f = tmp "/roofline.dat"; printf "" > f
    for (a = 1; a <= np; a++) {
        k = ord[a]; ly = log10(py[k]) - sep    # below: roofs are above
        if (a > 1 && ly > prev - sep) ly = prev - sep
        prev = ly
        c = 0; hex = "0123456789ABCDEF"
        for (b = 2; b <= 7; b++) c = c * 16 + index(hex, toupper(substr(pc[k], b, 1))) - 1
        # Right of the point, unless the point is in the right 40% of the plot.
        if (log10(px[k] / xlo) < 0.6 * log10(xhi / xlo)) { lx = px[k] * dx; al = "L" }
        else { lx = px[k] / dx; al = "R" }
        printf "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", num(px[k]), num(py[k]), num(lx), num(10 ^ ly), c, pl[k], al > f
    }
    close(f)

    print "gpu=" sq(gpu); print "date=" sq(date); print "title=" sq(title)
    print "roof=" sq(roof); print "roofval=" num(roofval); print "xlabel=" sq(xlabel)
    print "unit=" sq(unit); print "counts=" sq(counts); print "rooflabel=" sq(rooflabel)
    # The extra roofs as gnuplot assignments: the roofline draws each
    # (extraN, extralegendN); the speed plot those that count what its speed
    # counts, other than the chapter's own (slineN, slabelN).
    rv = "nextra=" nextra; ns2 = 0
    for (e = 1; e <= nextra; e++) {
        rv = rv "; extra" e "=" num(extra[e]) "; extralegend" e "=" gq(extralegend[e]) "; extracounts" e "=" gq(extracounts[e])
        if (extracounts[e] == counts && extraname[e] != roof) {
            ns2++; rv = rv "; sline" ns2 "=" num(extra[e]) "; slabel" ns2 "=" gq(extralabel[e])
        }
    }
    print "memroof=" num(memroof); print "comproof=" num(comproof)
    print "memlegend=" sq(memlegend); print "complegend=" sq(complegend)
    print "extraroofs=" sq(rv "; nsline=" ns2)
    print "impls=" sq(impls); print "kinds=" sq(kinds); print "colours=" sq(colours)
    print "ymax=" num(ymax); print "ylog=" ylog; print "symin=" num(ylo); print "smin=" num(smin); print "smax=" num(smax); print "xstep=" xstep; print "tmode=" tmode; print "ntraffic=" ntraffic
    print "tlabel=" (tlabel ? tlabel : 10)
    print "tylo=" num(tylo); print "tyhi=" num(tyhi)
    print "npoints=" np; print "xlo=" num(xlo); print "xhi=" num(xhi); print "ylo=" num(ylo); print "yhi=" num(yhi)
}
