# grader/sim/simcc.mk: the rewriter's and the PTX's builds and tests
# (included by sim.mk).
#
# build/sim/tools/mw-simcc     sim.mk's rule; built with the tests
# build/tests/sim/ptx_*        ptx.c's unit tests (tests/unit/sim/ptx_*.cpp),
#                              linked against ptx.c alone and a stand-in of
#                              the running thread (tests/unit/sim/standin/ptx/):
#                              lanes one at a time, a warp collective as two
#                              passes over the 32 lanes, so that each
#                              instruction is checked against hand-computed
#                              results without the scheduler
SIM_PTX_STANDIN := tests/unit/sim/standin/ptx
SIM_PTX_TESTS   := $(patsubst tests/unit/sim/%.cpp,$(BUILD)/tests/sim/%,$(wildcard tests/unit/sim/ptx_*.cpp))
SIM_PTX_TEST_OBJS := $(BUILD)/sim/ptx-test/ptx.o $(BUILD)/sim/ptx-test/standin.o

# The stand-in's headers come after the emulation's own, so that the real
# ones are used once they exist.
$(BUILD)/sim/ptx-test/ptx.o: grader/sim/ptx.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_CFLAGS) -I$(SIM_PTX_STANDIN) -c $< -o $@

$(BUILD)/sim/ptx-test/standin.o: $(SIM_PTX_STANDIN)/standin.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_CFLAGS) -I$(SIM_PTX_STANDIN) -c $< -o $@

$(BUILD)/tests/sim/ptx_%: tests/unit/sim/ptx_%.cpp $(SIM_PTX_TEST_OBJS) \
                          $(SIM_INCLUDE)/mw_sim_ptx.h $(wildcard $(SIM_PTX_STANDIN)/*.h)
	$(call say,CXX,$@)
	@mkdir -p $(@D)
	$(Q)$(SIM_CXX) -std=c++17 -O1 -g -Wall -Wextra -Werror -Igrader/sim -I$(SIM_INCLUDE) \
	    -I$(SIM_PTX_STANDIN) -Itests/unit -o $@ $< $(SIM_PTX_TEST_OBJS) -lm

build build-fast: $(BUILD)/sim/tools/mw-simcc $(SIM_PTX_TESTS)

# What t0141 compiles the rewritten kernel files with, once the kernel
# header is in the tree.
print-sim-kflags:
	@echo $(SIM_KFLAGS)
.PHONY: print-sim-kflags
