# grader/sim/host.mk: the emulation's host side (included by sim.mk).
#
# build/sim/<chapter>/mw-chapter   the chapter program for the emulation: the
#                                  GPU build's grader/ and chapters/NN/*.c
#                                  sources, compiled by $(CC) with -DMW_SIM
#                                  against grader/sim/include alone (never the
#                                  toolkit's: it builds where there is none),
#                                  linked with the whole of libmwsim.a and its
#                                  symbols exported, for the kernel libraries
#                                  it loads. No cuBLAS or cuDNN: the library
#                                  code is left out (cublas_lazy.c; in
#                                  vector_libs.c and the chapters, under
#                                  MW_SIM: vector_libs.c's copy roof stays).
# build/sim/tests/host_api         host.c's unit tests, with the stand-in
#                                  scheduler (tests/t0143-sim-host.t)
#
# A chapter's kernels (chapters/NN/*.cu) are rewritten by mw-simcc, then
# compiled as C++ with $(SIM_KFLAGS); the harness's (grader/device.cu) are
# replaced by plain loops, grader/device_emulated.c.
#
SIM_HOST_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation \
                   -Wno-missing-field-initializers -MMD -MP -DMW_SIM -Igrader -Igrader/sim \
                   -I$(SIM_INCLUDE)
SIM_HOST_LDLIBS := -lstdc++ -ldl -lm -lpthread

# The chapter program's objects less cuBLAS's loader, and its main.
SIM_GRADER_NAMES := $(filter-out cublas_lazy,$(GRADER_SHARED) $(MW_CHAPTER_PURE) \
                      $(MW_CHAPTER_CUDA)) main
SIM_GRADER_OBJS  := $(SIM_GRADER_NAMES:%=$(BUILD)/sim/grader/%.o) $(BUILD)/sim/grader/device_emulated.o

$(BUILD)/sim/grader/%.o: grader/%.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_HOST_CFLAGS) -c $< -o $@

# sim_kernel SOURCE.cu,OUT.o,INCLUDES: a kernel file for the emulation,
# rewritten (OUT.cpp beside OUT.o) then compiled.
SIM_SIMCC := $(BUILD)/sim/tools/mw-simcc
SIM_SIMCC_DEP := $(SIM_SIMCC)
sim_kernel = $(Q)$(SIM_SIMCC) $(1) $(2:.o=.cpp) && $(SIM_CXX) $(SIM_KFLAGS) $(3) -c $(2:.o=.cpp) -o $(2)

sim_so = $(call sim_kernel,$(1),$(2:.so=.o),$(3)) && $(SIM_CXX) -shared -o $(2) $(2:.so=.o)

# The harness's own kernels (grader/device.cu) as plain loops: trusted
# code, run natively (grader/device_emulated.c says why).
$(BUILD)/sim/grader/device_emulated.o: grader/device_emulated.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_HOST_CFLAGS) -c $< -o $@

define sim_chapter_rules
# The student edition ships a chapter's own kernels compiled for GPUs alone
# (chapters/NN/X.cu.o without X.cu: grader/mk/dist.sh). The emulation links,
# for each launcher such an object defines (its unmangled global functions),
# a stand-in that returns cudaErrorNotSupported: only the bench calls them,
# and the bench needs a GPU.
$(1)_SIM_SHIPPED := $$($(1)_SHIPPED:chapters/$(1)/%.cu.o=$(BUILD)/sim/$(1)/%.gpu-only.o)
$(1)_SIM_OBJS := $$(patsubst chapters/$(1)/%.c,$(BUILD)/sim/$(1)/%.o,$$($(1)_C)) \
                 $$(patsubst chapters/$(1)/%.cu,$(BUILD)/sim/$(1)/%.cu.o,$$($(1)_CU)) \
                 $$($(1)_SIM_SHIPPED)

$(BUILD)/sim/$(1)/%.gpu-only.o: chapters/$(1)/%.cu.o
	$$(call say,STUB,$$@)
	@mkdir -p $$(@D)
	$(Q)nm -g --defined-only $$< | awk '$$$$2 == "T" && $$$$3 !~ /^(_Z|__)/ { \
	    printf "int %s(void) { return 801; /* cudaErrorNotSupported */ }\n", $$$$3 }' >$$(@:.o=.c)
	$(Q)$$(CC) $$(SIM_HOST_CFLAGS) -c $$(@:.o=.c) -o $$@

$(BUILD)/sim/$(1)/%.o: chapters/$(1)/%.c
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(SIM_HOST_CFLAGS) -Ichapters/$(1) -c $$< -o $$@

$(BUILD)/sim/$(1)/%.cu.o: chapters/$(1)/%.cu $$(SIM_SIMCC_DEP)
	$$(call say,SIMCC,$$@)
	@mkdir -p $$(@D)
	$$(call sim_kernel,$$<,$$@,-Ichapters/$(1) -Igrader)

$(BUILD)/sim/$(1)/folder.o: grader/chapter_folder.c
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(SIM_HOST_CFLAGS) -DMW_CHAPTER_FOLDER='"$(1)"' -c $$< -o $$@

# Every part of libmwsim, used by the harness or not: the kernel libraries
# it loads call into the emulation through the program's own symbols.
$(BUILD)/sim/$(1)/mw-chapter: $$($(1)_SIM_OBJS) $(SIM_GRADER_OBJS) $(BUILD)/sim/$(1)/folder.o \
                              $(BUILD)/sim/libmwsim.a
	$$(call say,LINK,$$@)
	$(Q)$$(CC) -rdynamic -o $$@ $$(filter %.o,$$^) -Wl,--whole-archive $(BUILD)/sim/libmwsim.a \
	    -Wl,--no-whole-archive $(SIM_HOST_LDLIBS)

# A kernel version for the emulation: rewritten, compiled, and linked as a
# shared library whose emulation symbols (cudaMalloc, mw_sim_*, __tsan_*)
# stay undefined: the mw-chapter that loads it exports them.
$(BUILD)/sim/exercises/$(1)/%.so: exercises/$(1)/%.cu $$(SIM_SIMCC_DEP)
	$$(call say,SIMCC,$$@)
	@mkdir -p $$(@D)
	$$(call sim_so,$$<,$$@,-Ichapters/$(1) -Igrader)

$(BUILD)/sim/solutions/$(1)/%.so: solutions/$(1)/%.cu $$(SIM_SIMCC_DEP)
	$$(call say,SIMCC,$$@)
	@mkdir -p $$(@D)
	$$(call sim_so,$$<,$$@,-Ichapters/$(1) -Igrader)

endef
$(foreach ch,$(CHAPTERS),$(eval $(call sim_chapter_rules,$(ch))))

# The tests run side by side (make test), and several of them run the
# emulation's programs: built here, before any test starts, no two tests
# build one at once. The full tier (t0151) grades every reference on it.
build build-fast: $(foreach ch,$(CHAPTERS),$(BUILD)/sim/$(ch)/mw-chapter) $(BUILD)/sim/tests/host_api \
                  $(BUILD)/sim/tests/device_emulated \
                  $(call sim_libs_of,$(FAST_SRC),01-vector-add)
build: $(foreach ch,$(CHAPTERS),$(call sim_libs_of,$(FAST_SRC),$(ch)))

# device_emulated.c's contract, on hand-made buffers (tests/t0144).
$(BUILD)/sim/tests/device_emulated: tests/unit/sim/device_emulated.c grader/device_emulated.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_HOST_CFLAGS) -Itests/unit -o $@ $^ -lm

$(BUILD)/sim/tests/host_api: tests/unit/sim/host_api.c grader/sim/host.c grader/sim/device.c \
                             grader/sim/lazy.c \
                             tests/unit/sim/standin/host/run_grid.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(SIM_CFLAGS) -Itests/unit -Itests/unit/sim/standin/host -o $@ $^ -lm
