/* A stand-in for the rewriter part's mw_sim_ptx.h: empty, as the core's
 * tests use no inline PTX. */
