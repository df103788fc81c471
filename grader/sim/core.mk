# grader/sim/core.mk: the emulation's core (fibers, scheduler, warps, shared
# memory, checks) and its unit tests (tests/t0140-sim-core.t).
#
# Each tests/unit/sim/core_*.cpp is kernels and their checks, compiled as a
# kernel file is ($(SIM_KFLAGS)) and linked with libmwsim and stand-ins for
# host.c's functions (tests/unit/sim/standin/core/): the core is tested on
# its own. The stand-in headers there (cuda_runtime.h, cuda_runtime_api.h,
# mw_sim_ptx.h) are found only when grader/sim/include has none.
SIM_CORE_STANDIN := tests/unit/sim/standin/core
ifeq ($(wildcard $(SIM_INCLUDE)/cuda_runtime_api.h),)
SIM_CFLAGS += -I$(SIM_CORE_STANDIN)
endif
SIM_CORE_TESTS := $(patsubst tests/unit/sim/%.cpp,$(BUILD)/sim/tests/%,\
                    $(wildcard tests/unit/sim/core_*.cpp))
SIM_CORE_HEADERS := $(wildcard $(SIM_INCLUDE)/*.h $(SIM_CORE_STANDIN)/*.h grader/sim/sim.h \
                      tests/unit/sim/core_*.h) grader/sim/sim.mk grader/sim/core.mk

$(BUILD)/sim/tests/core_standin.o: $(SIM_CORE_STANDIN)/host_standin.c $(SIM_CORE_HEADERS)
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_CFLAGS) -I$(SIM_CORE_STANDIN) -c $< -o $@

$(BUILD)/sim/tests/core_%: tests/unit/sim/core_%.cpp $(BUILD)/sim/tests/core_standin.o \
                           $(BUILD)/sim/libmwsim.a $(SIM_CORE_HEADERS)
	$(call say,CXX,$@)
	@mkdir -p $(@D)
	$(Q)$(SIM_CXX) $(SIM_KFLAGS) -I$(SIM_CORE_STANDIN) -Itests/unit/sim -c $< -o $@.o
	$(Q)$(SIM_CXX) -o $@ $@.o $(BUILD)/sim/tests/core_standin.o $(BUILD)/sim/libmwsim.a -ldl

# make test runs t0140 in its fast tier.
build-fast build: $(SIM_CORE_TESTS)
