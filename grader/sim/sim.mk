# grader/sim/sim.mk: the CPU emulation's build (included by the Makefile).
#
# build/sim/libmwsim.a        the emulation's runtime (grader/sim/*.c but
#                             simcc.c), built with the host C compiler
# build/sim/tools/mw-simcc    the source rewriter (grader/sim/simcc.c)
#
# A kernel file is compiled for the emulation as C++ by the host compiler:
# mw-simcc rewrites it, then $(SIM_CXX) $(SIM_KFLAGS). -fsanitize=thread
# only instruments: its __tsan_* hooks are libmwsim's own (checks.c), so
# no sanitizer runtime is linked. -fno-tree-sra keeps a float4 load one
# 16-byte access, so that a misaligned one is seen as on the GPU, instead
# of four float loads.
SIM_CXX      ?= g++
SIM_INCLUDE  := grader/sim/include
SIM_CFLAGS   := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-missing-field-initializers -MMD -MP \
                -fPIC -Igrader/sim -I$(SIM_INCLUDE)
SIM_KFLAGS   := -x c++ -std=c++17 -O1 -g -fPIC -fsanitize=thread -fno-tree-vectorize -fno-tree-sra \
                -I$(SIM_INCLUDE) -include cuda_runtime.h
SIM_RT_SRCS  := $(filter-out grader/sim/simcc.c,$(wildcard grader/sim/*.c))
SIM_RT_OBJS  := $(SIM_RT_SRCS:grader/sim/%.c=$(BUILD)/sim/rt/%.o)

$(BUILD)/sim/rt/%.o: grader/sim/%.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_CFLAGS) -c $< -o $@

$(BUILD)/sim/libmwsim.a: $(SIM_RT_OBJS)
	$(call say,AR,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/sim/tools/mw-simcc: grader/sim/simcc.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -std=c11 -O2 -g -Wall -Wextra -Werror -o $@ $<

# Each part adds its own rules and tests in grader/sim/<part>.mk.
-include $(filter-out grader/sim/sim.mk,$(wildcard grader/sim/*.mk))
