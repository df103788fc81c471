#!/bin/sh
# grid-order.sh [SMS] [HEADS] [L2_MIB]: the model behind 05.4's causal grid
# order (block_tile and head_groups in solutions/05-attention/04_flash_wgmma.cu).
# Each block of a causal grid does its query tile's key tiles (1 to Tc) plus
# one tile's worth of fixed cost (Q in, O out); SMS SMs (default 132, one
# block each) take the blocks in index order, each the next block as it
# frees up (greedy list scheduling). Prints, for B H = HEADS (default 64)
# and the shapes of make bench CH=05 at N = 4096 and 16384, the finish time
# over the ideal (total work / SMS) in head-major order, in groups of heads
# sized to an L2 of L2_MIB (default 50), and in one group of every head.
# No noise and no memory system: a model of the tail, not a timing.
#     sh instructor/dev/05-wgmma/grid-order.sh
awk -v sms="${1:-132}" -v heads="${2:-64}" -v l2mib="${3:-50}" '
function dur(qt, N, br, nk,    kv) { kv = (qt + 1) * br; if (kv > N) kv = N; return int((kv + nk - 1) / nk) + 1 }
# The finish time of blocks 0 .. n-1 (durations d[]) on sms SMs, greedily.
function finish(n,    i, j, best, t, end) {
    for (j = 0; j < sms; j++) free_at[j] = 0
    for (i = 0; i < n; i++) {
        best = 0
        for (j = 1; j < sms; j++) if (free_at[j] < free_at[best]) best = j
        free_at[best] += d[i]
    }
    end = 0
    for (j = 0; j < sms; j++) if (free_at[j] > end) end = free_at[j]
    return end
}
# The grid in block_tile order with g groups; returns the ideal finish.
function order(N, br, nk, g,    Tr, q, r, grp, gh, i, h, n, total) {
    Tr = int((N + br - 1) / br); q = int(heads / g); r = heads % g; n = 0; total = 0
    for (grp = 0; grp < g; grp++) {
        gh = grp < r ? q + 1 : q
        for (i = 0; i < Tr; i++)
            for (h = 0; h < gh; h++) { d[n] = dur(Tr - 1 - i, N, br, nk); total += d[n]; n++ }
    }
    nblocks = n
    return total / sms
}
BEGIN {
    print "N,d,Br,Bc,groups (L2),head-major,L2 groups,one group"
    split("4096 64 192 128|4096 128 128 128|16384 64 192 128|16384 128 128 128", shapes, "|")
    for (s = 1; s in shapes; s++) {
        split(shapes[s], f, " "); N = f[1]; D = f[2]; br = f[3]; nk = f[4]
        G = int(l2mib * 1048576 / (2 * 4 * N * D)); if (G < 1) G = 1; if (G > heads) G = heads
        g = int((heads + G - 1) / G)
        ideal = order(N, br, nk, heads); plain = finish(nblocks) / ideal
        order(N, br, nk, g); grouped = finish(nblocks) / ideal
        order(N, br, nk, 1); one = finish(nblocks) / ideal
        printf "%d,%d,%d,%d,%d,%.3f,%.3f,%.3f\n", N, D, br, nk, g, plain, grouped, one
    }
}'
