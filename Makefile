# memwall: a graded C/CUDA workbook about the memory wall.
#
#   make help                 targets and variables
#   make check CH=01          grade your exercises for chapter 01
#   make test                 the project's own tests (fast tier; make test-full: all)
#
# Quiet by default; V=1 shows every command.

.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
.SUFFIXES:

# ---- tools and flags ---------------------------------------------------------

# nvcc: NVCC= if given, else the one on the PATH, else the toolkit's usual
# place, $(CUDA_HOME)/bin/nvcc (CUDA_HOME defaults to /usr/local/cuda), as
# for ncu and compute-sanitizer. Where that is used, the toolkit's bin/ is
# added to the end of the PATH of every command, for compute-sanitizer.
ifeq ($(origin NVCC),undefined)
  ifneq ($(shell command -v nvcc 2>/dev/null),)
    NVCC := nvcc
  else
    NVCC := $(or $(CUDA_HOME),/usr/local/cuda)/bin/nvcc
    NVCC_OFF_PATH := 1
  endif
endif
NVCC_FOUND := $(shell command -v '$(NVCC)' 2>/dev/null)
CUDA_HOME ?= $(or $(patsubst %/bin/nvcc,%,$(realpath $(NVCC_FOUND))),/usr/local/cuda)
ifneq ($(and $(NVCC_OFF_PATH),$(NVCC_FOUND)),)
  export PATH := $(PATH):$(patsubst %/,%,$(dir $(NVCC_FOUND)))
endif
CC        := $(if $(filter default,$(origin CC)),gcc,$(CC))
ARCH      ?= $(shell sh grader/mk/detect-arch.sh)
ARCH_NUM  := $(patsubst sm_%,%,$(ARCH))
GENCODE   := -gencode arch=compute_$(ARCH_NUM),code=sm_$(ARCH_NUM)

# cuDNN is optional: chapters that use it look for cudnn.h in the toolkit
# and in the system's include folders, and fall back (labelled) without it.
CUDNN_H   := $(firstword $(wildcard $(CUDA_HOME)/include/cudnn.h /usr/include/cudnn.h /usr/include/*-linux-gnu/cudnn.h))

BUILD     := build
RESULTS   := results
SRC       ?= exercises
TIMEOUT   ?= 30
SEED      ?=
EX        ?=
GPU       ?=

CFLAGS    := -std=c11 -O2 -g -Wall -Wextra -Werror -Wno-format-truncation -Wno-missing-field-initializers -MMD -MP \
             -Igrader -I$(CUDA_HOME)/include
NVFLAGS   := -O3 -lineinfo $(GENCODE) -Igrader -Xcompiler -fPIC,-Wall -MMD -MP
# A kernel version is a shared library linked against the CUDA runtime only.
SO_FLAGS  := -shared -cudart shared -Xlinker -z,defs
LDLIBS    := -L$(CUDA_HOME)/lib64 -Wl,-rpath,$(CUDA_HOME)/lib64 -lcudart -lstdc++ -ldl -lm -lpthread

# SIM=1: make check runs on the CPU emulation of CUDA (grader/sim/), which
# needs no GPU and no toolkit; SIM=0: on the GPU. Unset: the emulation where
# nvidia-smi lists no GPU. Only make check has an emulated form: bench,
# traffic, roofs and the sanitizer measure a GPU.
ifneq ($(filter check,$(MAKECMDGOALS)),)
  ifeq ($(SIM),)
    SIM := $(if $(shell nvidia-smi -L 2>/dev/null | grep '^GPU'),0,1)
  endif
  ifeq ($(filter 0 1,$(SIM)),)
    $(error SIM must be 1 (the CPU emulation) or 0 (the GPU), not '$(SIM)')
  endif
endif

# Goals that run nvcc stop before compiling anything when there is none;
# help, clean, dist, plot, tables and skeletons do not need it.
NVCC_GOALS := $(if $(filter 1,$(SIM)),,check) bench traffic verdict roofs sanitize grade-build lib grade build test test-full \
              %.so %.cu.o %/mw-chapter %/device.o
ifeq ($(NVCC_FOUND),)
  ifneq ($(filter $(NVCC_GOALS),$(MAKECMDGOALS)),)
    ifeq ($(origin NVCC),file)
      $(error nvcc not found: not on the PATH, nor at $(NVCC); install the CUDA toolkit and put its bin/ on the PATH (export PATH=/usr/local/cuda/bin:$$PATH), or name it with NVCC=/path/to/nvcc)
    else
      $(error NVCC=$(NVCC) not found or not executable; name the toolkit's nvcc (NVCC=/usr/local/cuda/bin/nvcc), or leave NVCC unset to use the one on the PATH)
    endif
  endif
endif

ifeq ($(V),1)
  Q :=
  say = @true
else
  Q := @
  say = @printf '  %-7s %s\n' $(1) $(2)
endif

CHAPTERS := $(patsubst chapters/%/,%,$(sort $(wildcard chapters/[0-9][0-9]-*/)))

# Everything nvcc builds depends on this stamp, rewritten when ARCH changes,
# so that `make ARCH=sm_80 ...` rebuilds rather than mixing architectures.
ARCH_STAMP := $(BUILD)/.arch
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
  $(shell mkdir -p $(BUILD); [ "$$(cat $(ARCH_STAMP) 2>/dev/null)" = "$(ARCH)" ] || echo $(ARCH) > $(ARCH_STAMP))
endif

# ---- the programs of grader/ -------------------------------------------------
#
# One object list per program (grader/README.md): grader/ holds the chapter
# program, mw-chapter, and the code the programs share; grader/batch/ the
# class grader, mw-batch; grader/tools/ mw-strip, mw-mutate and mw-facts.
# Sources include by bare name: -Igrader gives every program grader/'s
# headers, and a folder's own headers sit beside its sources.

# Linked into more than one program; pure C.
GRADER_SHARED := csv proc cases_file facts roofs roofs_cache
# The chapter program's own: pure C, also linked into the unit tests ...
MW_CHAPTER_PURE := compare supervise locate sanitize_step stats parallel ncu harness_buffers \
                   gpu_limits verdict_results verdict_cmd emulation skip_marker
# ... and what calls CUDA (the per-chapter objects and main.o come in
# chapter_rules).
MW_CHAPTER_CUDA := gpu devinfo timing harness stream_rule check_cmd impls bench traffic roofs_measure \
                   vector_libs cublas_lazy
GRADER_PURE_OBJS := $(patsubst %,$(BUILD)/grader/%.o,$(GRADER_SHARED) $(MW_CHAPTER_PURE))
MW_CHAPTER_OBJS  := $(GRADER_PURE_OBJS) $(MW_CHAPTER_CUDA:%=$(BUILD)/grader/%.o) \
                    $(BUILD)/grader/device.o $(BUILD)/grader/roofs_kernels.o

# The class grader's own code; MW_BATCH_PURE is what its unit test links.
MW_BATCH_PURE := batch_layout rubric gradebook
MW_BATCH_OWN  := batch batch_sandbox batch_stage batch_output batch_score workers $(MW_BATCH_PURE)
MW_BATCH_OBJS := $(MW_BATCH_OWN:%=$(BUILD)/grader/batch/%.o) \
                 $(patsubst %,$(BUILD)/grader/%.o,csv proc cases_file parallel)

# The facts of a bench.csv (grader/facts.h) decided from the file alone,
# for made-up runs and for checking the bench's (t0420); and the roofs the
# plots draw.
MW_FACTS_OBJS  := $(BUILD)/grader/tools/facts_tool.o \
                  $(patsubst %,$(BUILD)/grader/%.o,facts csv roofs roofs_cache)
# Both read the solution markers with the one parser, markers.c.
MW_STRIP_OBJS  := $(BUILD)/grader/tools/strip.o $(BUILD)/grader/tools/markers.o
MW_MUTATE_OBJS := $(BUILD)/grader/tools/mutate.o $(BUILD)/grader/tools/markers.o

# grader/%.c covers the subfolders too: grader/batch/batch.c is
# $(BUILD)/grader/batch/batch.o.
$(BUILD)/grader/%.o: grader/%.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/grader/device.o: grader/device.cu $(ARCH_STAMP)
	$(call say,NVCC,$@)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(NVFLAGS) -c $< -o $@

# The roofs' microkernels: on sm_90 (H100, H200) for sm_90a, the same GPUs'
# arch-specific target, which alone has wgmma (the wgmma roofs); any other
# ARCH as everything else.
comma := ,
ROOFS_GENCODE := $(if $(filter 90,$(ARCH_NUM)),-gencode arch=compute_90a$(comma)code=sm_90a,$(GENCODE))
$(BUILD)/grader/roofs_kernels.o: grader/roofs_kernels.cu $(ARCH_STAMP)
	$(call say,NVCC,$@)
	@mkdir -p $(@D)
	$(Q)$(NVCC) $(filter-out $(GENCODE),$(NVFLAGS)) $(ROOFS_GENCODE) -c $< -o $@

$(BUILD)/tools/mw-batch: $(MW_BATCH_OBJS)
$(BUILD)/tools/mw-facts: $(MW_FACTS_OBJS)
$(BUILD)/tools/mw-strip: $(MW_STRIP_OBJS)
$(BUILD)/tools/mw-mutate: $(MW_MUTATE_OBJS)
$(BUILD)/tools/mw-batch $(BUILD)/tools/mw-facts $(BUILD)/tools/mw-strip $(BUILD)/tools/mw-mutate:
	$(call say,LINK,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) -o $@ $^ -lm -lpthread

# ---- per chapter: the harness program and the kernel libraries --------------
#
# build/<chapter>/mw-chapter    harness + chapter definition (gcc)
# build/<src>/<chapter>/NN_x.so one kernel version (nvcc), loaded by the
#                               harness; linked with -z defs against the CUDA
#                               runtime only, so a call into cuBLAS or cuDNN
#                               from an exercise fails at build time.

# so_build CHAPTER,OUT.so,SOURCE.cu: one kernel version. nvcc's messages
# come as they are; when the link fails on symbols the file uses but does not
# define (-z defs), one more line says why. V=1 shows the nvcc command alone.
LIB_PREFIXES := cublas cudnn cufft curand cusparse cusolver cutensor nccl nvjpeg npp
# so_flags SOURCE.cu: NVFLAGS, with the architecture-specific -gencode pair
# in place of GENCODE for a version that needs one (ARCH_SPECIFIC below).
# A version tuned for that target (TUNED_HERE below) gets the pair too, and
# MW_ARCH_SPECIFIC.
so_flags = $(if $(filter $(notdir $(1)),$(ARCH_SPECIFIC) $(TUNED_HERE)), \
    $(filter-out $(GENCODE),$(NVFLAGS)) $(ARCH_SPECIFIC_GENCODE) \
    $(if $(filter $(notdir $(1)),$(TUNED_HERE)),-DMW_ARCH_SPECIFIC=$(ARCH_LEVEL)),$(NVFLAGS))
so_build = @$(if $(Q),,echo '$(NVCC) $(call so_flags,$(3)) -Ichapters/$(1) $(SO_FLAGS) -o $(2) $(3)';) \
    log=$$(mktemp) || exit 2; \
    $(NVCC) $(call so_flags,$(3)) -Ichapters/$(1) $(SO_FLAGS) -o $(2) $(3) 2>$$log; rc=$$?; cat $$log >&2; \
    syms=$$(sed -n "s/.*undefined reference to \`\([^']*\)'.*/\1/p" $$log | sort -u | tr '\n' ' '); \
    rm -f $$log; \
    if [ $$rc -ne 0 ] && [ -n "$$syms" ]; then \
        if printf ' %s' $$syms | grep -q -E ' ($(subst $(space),|,$(LIB_PREFIXES)))'; then \
            echo "$(3): exercises may not call libraries (cuBLAS, cuDNN, ...): a kernel version is linked against the CUDA runtime only, and this one calls $${syms% }; write the kernel yourself" >&2; \
        else \
            echo "$(3): uses $${syms% } but does not define it: a kernel version is this one file, linked against the CUDA runtime only" >&2; \
        fi; \
    fi; exit $$rc
space := $(subst ,, )

define chapter_rules
$(1)_C    := $(wildcard chapters/$(1)/*.c)
$(1)_CU   := $(wildcard chapters/$(1)/*.cu)
# The student edition ships a chapter's own kernels compiled, as
# chapters/NN/X.cu.o without X.cu (grader/mk/dist.sh): linked as they are.
$(1)_SHIPPED := $$(filter-out $$($(1)_CU:%=%.o),$(wildcard chapters/$(1)/*.cu.o))
$(1)_OBJS := $$(patsubst chapters/$(1)/%.c,$(BUILD)/$(1)/%.o,$$($(1)_C)) \
             $$(patsubst chapters/$(1)/%.cu,$(BUILD)/$(1)/%.cu.o,$$($(1)_CU)) $$($(1)_SHIPPED)

# A chapter's own kernels for the harness (an unfused baseline, say).
$(BUILD)/$(1)/%.cu.o: chapters/$(1)/%.cu $(ARCH_STAMP)
	$$(call say,NVCC,$$@)
	@mkdir -p $$(@D)
	$(Q)$$(NVCC) $$(NVFLAGS) -Ichapters/$(1) -c $$< -o $$@

$(BUILD)/$(1)/%.o: chapters/$(1)/%.c
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(CFLAGS) -Ichapters/$(1) $(if $(CUDNN_H),-DMW_HAVE_CUDNN -I$(dir $(CUDNN_H))) -c $$< -o $$@

# The folder's name, compiled in: mw-chapter refuses to run when the
# chapter's id is another (grader/chapter_folder.c).
$(BUILD)/$(1)/folder.o: grader/chapter_folder.c
	$$(call say,CC,$$@)
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(CFLAGS) -DMW_CHAPTER_FOLDER='"$(1)"' -c $$< -o $$@

$(BUILD)/$(1)/mw-chapter: $$($(1)_OBJS) $(MW_CHAPTER_OBJS) $(BUILD)/grader/main.o $(BUILD)/$(1)/folder.o
	$$(call say,LINK,$$@)
	$(Q)$$(CC) -o $$@ $$^ $(if $(CUDNN_H),-lcudnn) $(LDLIBS)

# The reference's two paths, lazy and prepared on every core, agree
# (tests/chapter/reference_agree.c, t0107): the program's objects without
# its main, no GPU needed.
$(BUILD)/$(1)/reference-agree: tests/chapter/reference_agree.c $$($(1)_OBJS) $(MW_CHAPTER_OBJS)
	$$(call say,LINK,$$@)
	$(Q)$$(CC) $$(CFLAGS) -Ichapters/$(1) -o $$@ $$(filter %.c %.o,$$^) $(if $(CUDNN_H),-lcudnn) \
	    $(LDLIBS)

$(BUILD)/exercises/$(1)/%.so: exercises/$(1)/%.cu $(ARCH_STAMP)
	$$(call say,NVCC,$$@)
	@mkdir -p $$(@D)
	@rm -f $$(@:.so=.skip)
	$$(call so_build,$(1),$$@,$$<)

$(BUILD)/solutions/$(1)/%.so: solutions/$(1)/%.cu $(ARCH_STAMP)
	$$(call say,NVCC,$$@)
	@mkdir -p $$(@D)
	@rm -f $$(@:.so=.skip)
	$$(call so_build,$(1),$$@,$$<)
endef
$(foreach ch,$(CHAPTERS),$(eval $(call chapter_rules,$(ch))))

# ---- versions that need a newer GPU than ARCH --------------------------------
#
# A version's minimum architecture is written once, in its header comment,
# as " * Needs: sm_80 (what it uses)"; mw-strip carries it into the
# skeleton. Make reads it here, with no GPU and nothing compiled. Where ARCH
# is older, the version's library is replaced by its marker, NN_x.skip,
# one line saying why, that check reports as a skip for each case and bench
# leaves out (grader/skip_marker.c). ARCH_LEVEL: 90 for sm_90 and sm_90a.
# "Needs: sm_90a" names an architecture-specific target (wgmma, TMA): no
# later GPU runs it, so such a version is built only where ARCH_LEVEL is
# that number, for that target (ARCH_SPECIFIC_GENCODE), and skipped elsewhere.
ARCH_LEVEL  := $(shell echo '$(ARCH_NUM)' | sed 's/[^0-9].*//')
NEEDS_LINES := $(shell grep -s -m1 -H -E '^ \* Needs: sm_[0-9]+' solutions/*/*.cu exercises/*/*.cu | \
                 sed -n 's/^\([^:]*\.cu\): \* Needs: sm_\([0-9]*\)\(a\{0,1\}\).*/\2 x\3 \1/p')
NEEDS_NEWER := $(if $(ARCH_LEVEL),$(shell printf '%s %s %s\n' $(NEEDS_LINES) | \
                 awk '($$2 == "xa" ? $$1 != $(ARCH_LEVEL) : $$1 > $(ARCH_LEVEL)) { print $$3 }'))
# The versions built for an architecture-specific target, by file name
# (a submission's path is its own), and that target's -gencode pair.
ARCH_SPECIFIC := $(notdir $(shell printf '%s %s %s\n' $(NEEDS_LINES) | awk '$$2 == "xa" { print $$3 }'))
ARCH_SPECIFIC_GENCODE := -gencode arch=compute_$(ARCH_LEVEL)a$(comma)code=sm_$(ARCH_LEVEL)a

# " * Tuned for: sm_90a (what)" in a solution's header: a version that runs
# everywhere but has a path of its own for an architecture-specific target.
# Where ARCH_LEVEL is that number it is built for that target, with
# MW_ARCH_SPECIFIC defined to the number so that its host code knows the
# path is in; elsewhere, and in the CPU emulation, as any other version. By
# file name, as ARCH_SPECIFIC: a submission or a mutant of the file too.
TUNED_LINES := $(shell grep -s -m1 -H -E '^ \* Tuned for: sm_[0-9]+a' solutions/*/*.cu | \
                 sed -n 's/^\([^:]*\.cu\): \* Tuned for: sm_\([0-9]*\)a.*/\2 \1/p')
TUNED_HERE  := $(if $(ARCH_LEVEL),$(notdir $(shell printf '%s %s\n' $(TUNED_LINES) | \
                 awk '$$1 == "$(ARCH_LEVEL)" { print $$2 }')))

# lib_of SOURCE.cu: what make builds for it, its .so or its marker.
lib_of = $(if $(filter $(1),$(NEEDS_NEWER)),$(BUILD)/$(1:.cu=.skip),$(BUILD)/$(1:.cu=.so))
libs_of = $(foreach f,$(wildcard $(1)/$(2)/*.cu),$(call lib_of,$(f)))
# The same for the CPU emulation (grader/sim/host.mk), which runs every
# version but those built for an architecture-specific target: their
# instructions (wgmma, TMA) are the GPU's alone, so they get a marker.
sim_lib_of = $(if $(filter $(notdir $(1)),$(ARCH_SPECIFIC)),$(BUILD)/sim/$(1:.cu=.skip), \
    $(BUILD)/sim/$(1:.cu=.so))
sim_libs_of = $(foreach f,$(wildcard $(1)/$(2)/*.cu),$(strip $(call sim_lib_of,$(f))))

$(BUILD)/sim/%.skip: %.cu
	$(call say,SKIP,$@)
	@mkdir -p $(@D)
	$(Q)rm -f $(@:.skip=.so) && \
	    sed -n 's/^ \* Needs: \(sm_[0-9]*a\) *\(.*\)/needs \1 \2: instructions the CPU emulation does not run/p' \
	    $< | head -n 1 >$@

# write_marker SOURCE.cu,OUT.skip: the marker, from the source's Needs: line.
write_marker = rm -f $(2:.skip=.so) && \
    sed -n -e 's/^ \* Needs: \(sm_[0-9]*a\) *\(.*\)/needs \1 \2, that architecture alone; built for $(ARCH)/p' \
        -e 's/^ \* Needs: \(sm_[0-9]*\) *\(.*\)/needs \1 or newer \2; built for $(ARCH)/p' $(1) | \
    head -n 1 >$(2)

$(BUILD)/%.skip: %.cu $(ARCH_STAMP)
	$(call say,SKIP,$@)
	@mkdir -p $(@D)
	$(Q)$(call write_marker,$<,$@)

# ---- the chapter a goal is about ---------------------------------------------

# Argument checks in make itself (no shell, so no quoting to get wrong):
# is_uint: one word of digits only; is_count: that, and not zero. TIMEOUT is
# whole seconds: the batch passes it on rounded to a whole number.
strip_digits = $(subst 0,,$(subst 1,,$(subst 2,,$(subst 3,,$(subst 4,,$(subst 5,,$(subst \
               6,,$(subst 7,,$(subst 8,,$(subst 9,,$(1)))))))))))
is_uint      = $(if $(and $(filter 1,$(words $(1))),$(if $(call strip_digits,$(1)),,yes)),yes)
is_count     = $(if $(and $(call is_uint,$(1)),$(subst 0,,$(1))),yes)

# check_args: TIMEOUT and SEED, checked before anything is built (a typo is
# an error, never a silent default), by every goal that takes them. make
# mutants' own default TIMEOUT, 10, needs no check: a TIMEOUT it is given
# is this one.
define check_args
  ifeq ($$(call is_count,$$(TIMEOUT)),)
    $$(error TIMEOUT must be a whole number of seconds, 1 or more, not '$$(TIMEOUT)' (TIMEOUT=60))
  endif
  ifneq ($$(SEED),)
    ifeq ($$(call is_uint,$$(SEED)),)
      $$(error SEED must be a whole number, as a check prints it, not '$$(SEED)' (SEED=123456789))
    endif
  endif
endef

CHAPTER_GOALS := check bench traffic plot verdict sanitize grade-build lib grade
ifneq ($(filter $(CHAPTER_GOALS),$(MAKECMDGOALS)),)
  CHAPTER := $(shell sh grader/mk/chapter.sh '$(CH)')
  ifeq ($(CHAPTER),)
    $(error $(if $(CH),no chapter matches CH=$(CH),give a chapter: CH=01; see 'make help'))
  endif
  ifeq ($(filter exercises solutions,$(SRC)),)
    $(error SRC must be exercises or solutions, not '$(SRC)')
  endif
  # make check on the emulation: its own program and kernel libraries,
  # under build/sim/ (grader/sim/host.mk).
  LIB_ROOT := $(if $(filter 1,$(SIM)),$(BUILD)/sim,$(BUILD))
  GRADER   := $(LIB_ROOT)/$(CHAPTER)/mw-chapter
  # EX=02 builds (and grades) only the versions whose file starts with 02,
  # so a broken 02 does not stop `make check EX=01`.
  SRC_LIBS := $(filter $(LIB_ROOT)/$(SRC)/$(CHAPTER)/$(EX)%, \
                $(call $(if $(filter 1,$(SIM)),sim_libs_of,libs_of),$(SRC),$(CHAPTER)))
  $(eval $(check_args))
  # The chapter's versions, by their files in exercises/ or solutions/ (the
  # student edition has no solutions/).
  VERSIONS := $(sort $(notdir $(basename $(wildcard exercises/$(CHAPTER)/*.cu solutions/$(CHAPTER)/*.cu))))
  ifneq ($(EX),)
    ifeq ($(and $(filter 1,$(words $(EX))),$(filter $(EX)%,$(VERSIONS))),)
      $(error no version of $(CHAPTER) matches EX=$(EX): EX is the start of a version's file name, one of: $(or $(VERSIONS),none))
    endif
  endif
  STUDENT_LIBS := $(call libs_of,exercises,$(CHAPTER))
  REF_LIBS := $(call libs_of,solutions,$(CHAPTER))
  BENCH_ARGS := --student $(BUILD)/exercises/$(CHAPTER) \
                $(if $(REF_LIBS),--reference $(BUILD)/solutions/$(CHAPTER)) \
                --results $(RESULTS) $(if $(SEED),--seed $(SEED))
endif

# ---- what users run -------------------------------------------------------------

.PHONY: help check bench bench-emulation traffic roofs ceilings plot verdict sanitize skeletons test test-full build \
        build-fast clean grade-build tables lib grade dist class-bench

help:
	@echo 'memwall: a graded C/CUDA workbook about the memory wall'
	@echo
	@echo 'Students:'
	@echo '  make check CH=01      grade exercises/01-*/ (exit 0 pass, 1 wrong answer,'
	@echo '                        2 build failure, CUDA error, crash or timeout,'
	@echo '                        77 not implemented yet, or no GPU with SIM=0); ends with'
	@echo '                        memcheck and initcheck on the 4 smallest cases of each'
	@echo '                        version; without a GPU it runs on the CPU emulation'
	@echo '                        (SIM=1 below), whose own checks stand in for those'
	@echo '  make bench CH=01      time your versions, the reference and the library;'
	@echo '                        writes results/<gpu>/<chapter>/bench.csv'
	@echo '  make traffic CH=01    measured DRAM bytes with Nsight Compute (traffic.csv)'
	@echo '  make plot CH=01       speed, traffic and roofline plots (PNG and SVG, gnuplot)'
	@echo '  make verdict CH=01    the verdict make bench ends in, from results/ (no GPU needed)'
	@echo '  make sanitize CH=01   compute-sanitizer memcheck, racecheck, initcheck, synccheck'
	@echo '  make roofs            measure and cache this GPU'"'"'s roofs (microkernels: DRAM, FFMA, mma.sync, wgmma)'
	@echo '  make ceilings         the same as make roofs'
	@echo
	@echo 'Instructors:'
	@echo '  make grade CH=01 SUBMISSIONS=dir   grade a class, sandboxed: gradebook.csv,'
	@echo '                        a report.md and results.json per student (docs/instructors.md)'
	@echo '  make dist             the student edition, dist/memwall-student.tar.gz'
	@echo
	@echo 'Maintainers:'
	@echo '  make test             the project'"'"'s own tests, fast tier (prove); long tests and,'
	@echo '                        without a GPU, GPU tests report themselves skipped'
	@echo '  make test-full        every test (MW_TEST_LONG=1): what CI runs'
	@echo '  make skeletons        regenerate exercises/ from solutions/'
	@echo '  make tables           refresh the README tables from results/'
	@echo '  make bench-emulation  time make check SIM=1 of the references, per chapter [CH=]'
	@echo '  make build            build every chapter, exercise and solution'
	@echo '  make build-fast       what make test builds: the chapters and the solutions'
	@echo '  make grade-build CH=01   build one chapter'"'"'s grader and the versions make check runs'
	@echo '  make lib CH=01 KERNEL=file.cu LIBDIR=dir   build one kernel file as an exercise'
	@echo '  make class-bench      make grade on 1, 2 and 4 GPUs of this host, a class of 32,'
	@echo '                        chapters 01 and 05: $(RESULTS)/<gpu>/class-bench.csv'
	@echo '                        with BENCH_CHAPTERS="01 05" BENCH_GPUS="1 2 4" BENCH_STUDENTS=32;'
	@echo '                        BENCH_GPUS=1 BENCH_PART=1/4 (then 2/4...): a run in parts'
	@echo '  make mutants CH=01    mutation testing of the grader: plant one mistake at a time in'
	@echo '                        the solutions and grade each (TIMEOUT=10 per case, EX=, SEED=;'
	@echo '                        RESUME=1 goes on from a run that was cut off; PART=1/4,'
	@echo '                        then 2/4...: the mutants in parts, one a command);'
	@echo '                        results/<gpu>/<chapter>/mutants.csv (docs/mutation-testing.md)'
	@echo '  make mutants-remap CH=05 SINCE=rev   after an edit that moved lines of the solutions:'
	@echo '                        the graded rows and equivalent keys move with their lines'
	@echo '  make clean            remove build/ (never results/)'
	@echo
	@echo 'Variables (make check CH=01 EX=02 SEED=7):'
	@echo '  CH=01 | 01-vector-add | vector-add   the chapter'
	@echo '  SRC=solutions         grade the reference solutions instead of exercises/'
	@echo '  EX=02                 only the versions whose file starts with 02 (check, sanitize)'
	@echo '  SEED=123              replay the inputs of an earlier run (a whole number)'
	@echo '  SANITIZE=0            make check without its memcheck and initcheck step'
	@echo '  SIM=1                 make check on the CPU emulation of CUDA (grader/sim/): no GPU'
	@echo '                        or toolkit needed, small cases only, every line (emulated),'
	@echo '                        the default where nvidia-smi lists no GPU; SIM=0: the GPU'
	@echo '                        (docs/emulation.md)'
	@echo '  TIMEOUT=30            seconds a case may run before it counts as hung, plus 2 s'
	@echo '                        per GiB of the case and, on the emulation, the time its'
	@echo '                        work may take there (check, grade)'
	@echo '  GPU=NVIDIA_H100_80GB_HBM3   the results/ folder make plot, make verdict and make tables read'
	@echo '  ARCH=sm_90            GPU architecture (default: detected with nvidia-smi);'
	@echo '                        a change rebuilds every kernel, no clean needed'
	@echo '  V=1                   show the full build commands'
	@echo ' make grade:'
	@echo '  SUBMISSIONS=dir       the class: a folder per student (required)'
	@echo '  OUT=dir               where the gradebook and reports go (grades/<chapter>)'
	@echo '  HIDDEN=file           hidden cases (instructor/hidden/<chapter>.cases when it exists;'
	@echo '                        HIDDEN=/dev/null for none)'
	@echo '  RUBRIC=file           points (chapters/<chapter>/rubric)'
	@echo '  FORCE=1               grade again the students already graded'
	@echo '  GPUS=all | 0,2,3      a worker per GPU, each student pinned to one'
	@echo '  SLURM=1               a Slurm job array, a task per student, then a job that writes'
	@echo '                        the gradebook; SLURM_PARTITION=, SLURM_ACCOUNT=, SLURM_TIME='
	@echo '                        (minutes), SLURM_CONSTRAINT=, SLURM_GRES=gpu:1, SLURM_OPTS='
	@echo '                        (more sbatch options); WAIT=1 waits for the gradebook'
	@echo '  STUDENT_LIMIT=7200    GPUS=, SLURM=1: the seconds one student may take (default:'
	@echo '                        its steps'"'"' own limits added up)'
	@echo '  MERGE=1               only write the gradebook from what OUT holds'
	@echo ' make lib:'
	@echo '  KERNEL=file.cu LIBDIR=dir   the kernel file and the folder its .so goes to'
	@echo '  GRADED=1                    as make grade builds it: MW_GRADED defined (a reference'
	@echo '                              solution then leaves out its switches for the lesson)'
	@echo ' toolkit and folders:'
	@echo '  NVCC=path             nvcc (default: the one on the PATH, else /usr/local/cuda/bin/nvcc)'
	@echo '  CUDA_HOME=dir         the toolkit (default: where nvcc is; /usr/local/cuda)'
	@echo '  CC=gcc                the C compiler of the host code'
	@echo '  RESULTS=results       where bench, traffic and roofs write'
	@echo '                        (make plot and make tables read results/)'
	@echo '  BUILD=build           the build folder (the tests expect build/)'
	@echo '  TEST_JOBS=2           jobs of make test'"'"'s build and test files at a time'
	@echo '                        (default: one per core; make test runs one test file more)'
	@echo ' environment, read by the programs:'
	@echo '  NCU=path              Nsight Compute for make traffic (default: on the PATH,'
	@echo '                        else /usr/local/cuda/bin/ncu)'
	@echo '  MW_TIME_CAP=1         at most this many seconds of repetitions per timing (bench)'
	@echo '  MW_DIST_OUT=file      where make dist writes the tarball'
	@echo '  MW_DIST_EXCLUDE="a b" more paths make dist leaves out'
	@echo '  MW_NO_DROP=1          make grade as root runs submissions as root, not nobody'
	@echo '  MW_BATCH_SCRATCH=dir  where mw-batch makes its scratch folders (default /tmp; a'
	@echo '                        GPUS= worker makes its own inside, a SLURM=1 task its own)'
	@echo '  MW_TEST_LONG=1        make test and prove tests/... run the long tests too'
	@echo '  MW_FACTS=path         the roofs listing tool plots/plot.sh runs (default build/tools/mw-facts)'
	@echo '  MW_PLOT_VIEWS=file    the views plots/plot.sh draws (default chapters/<chapter>/plot-views)'
	@echo '  MW_SANITIZE_FIRST=1   make sanitize stops at the first tool that finds a problem'
	@echo '                        (make mutants sets it)'
	@echo
	@echo 'Chapters: $(CHAPTERS)'

grade-build: $(GRADER) $(SRC_LIBS)

# One kernel file built as the chapter builds its exercises, into a folder of
# its own: make lib CH=01 KERNEL=path/01_naive.cu LIBDIR=dir (for the tests,
# and for grading submissions). A version that needs a newer GPU than ARCH
# (the Needs: line of the chapter's own file, not the submission's) gets its marker.
# GRADED=1 (make grade's builds) defines MW_GRADED: a reference that keeps
# switches for the lesson's measurements (05.4's MW_FLASH_WGMMA) builds its
# graded kernel alone, as a student's file would hold it.
LIB_NEEDS = $(firstword $(filter $(addsuffix /$(CHAPTER)/$(notdir $(KERNEL)),exercises solutions), \
                          $(NEEDS_NEWER)))
LIB_SO    = $(LIBDIR)/$(notdir $(KERNEL:.cu=.so))
LIB_SKIP  = $(LIBDIR)/$(notdir $(KERNEL:.cu=.skip))
LIB_BUILD = $(call so_build,$(CHAPTER),$(LIB_SO),$(KERNEL))
LIB_MARK  = $(Q)$(call write_marker,$(LIB_NEEDS),$(LIB_SKIP))
lib: SO_FLAGS += $(if $(GRADED),-DMW_GRADED)
lib: $(GRADER)
	$(if $(and $(KERNEL),$(LIBDIR)),,$(error lib needs KERNEL=file.cu and LIBDIR=folder))
	$(if $(LIB_NEEDS),$(call say,SKIP,$(LIB_SKIP)),$(call say,NVCC,$(LIB_SO)))
	@mkdir -p $(LIBDIR)
	$(if $(LIB_NEEDS),$(LIB_MARK),$(LIB_BUILD))

# The grader's exit code is what `make check` fails with: make reports it as
# "Error 1" (wrong answer), "Error 2" (CUDA error, crash, timeout) or
# "Error 77" (not implemented yet, or no GPU).
check: $(GRADER) $(SRC_LIBS)
	$(Q)$(GRADER) check --lib-dir $(LIB_ROOT)/$(SRC)/$(CHAPTER) --label $(SRC)/$(CHAPTER) \
	    --timeout $(TIMEOUT) $(if $(EX),--version $(EX)) $(if $(SEED),--seed $(SEED)) \
	    $(if $(filter 0,$(SANITIZE)),,--quick-sanitize)

bench: $(GRADER) $(STUDENT_LIBS) $(REF_LIBS)
	$(Q)$(GRADER) bench $(BENCH_ARGS)

traffic: $(GRADER) $(STUDENT_LIBS) $(REF_LIBS)
	$(Q)$(GRADER) traffic $(BENCH_ARGS)

roofs: $(BUILD)/$(firstword $(CHAPTERS))/mw-chapter
	$(Q)$< roofs --results $(RESULTS) --force

# The roofs are the machine's ceilings: the same target under that name.
ceilings: roofs

# The plots draw the roofs that build/tools/mw-facts lists (grader/roofs.c).
plot: $(BUILD)/tools/mw-facts
	$(Q)dir=$$(sh grader/mk/results-dir.sh $(CHAPTER) '$(GPU)') && MW_FACTS=$(BUILD)/tools/mw-facts sh plots/plot.sh "$$dir"

# The verdict make bench prints, from the results of this machine's GPU or
# GPU=<folder under results/>: no GPU needed.
verdict: $(GRADER)
	$(Q)dir=$$(sh grader/mk/results-dir.sh $(CHAPTER) '$(GPU)') && $(GRADER) verdict "$$dir"

sanitize: $(GRADER) $(SRC_LIBS)
	$(Q)sh grader/mk/sanitize.sh $(GRADER) $(BUILD)/$(SRC)/$(CHAPTER) $(SRC)/$(CHAPTER) \
	    $(if $(EX),--version $(EX))

# ---- instructors -------------------------------------------------------------------

# make grade CH=01 SUBMISSIONS=dir: every submission in dir, sandboxed, into
# OUT (default grades/<chapter>). Hidden cases: HIDDEN=file, by default
# instructor/hidden/<chapter>.cases when it exists. RUBRIC=file overrides
# chapters/<chapter>/rubric. FORCE=1 grades again students already graded.
#
# Several GPUs of this host: GPUS=all (nvidia-smi -L) or GPUS=0,2,3, a worker
# per GPU (grader/batch/workers.c). A Slurm cluster: SLURM=1, a job array of
# one task per student and a job after it that writes the gradebook
# (grader/mk/slurm.sh), with SLURM_PARTITION, SLURM_ACCOUNT, SLURM_TIME
# (minutes, or D-HH:MM:SS; default: what one student may take at most),
# SLURM_CONSTRAINT, SLURM_GRES (gpu:1; empty: none) and SLURM_OPTS (more
# sbatch options, verbatim) passed on; WAIT=1 waits for the gradebook.
# STUDENT_LIMIT=seconds bounds one student (a worker's child; a task's
# derived time limit), by default the sum of its steps' own limits.
# MERGE=1 only writes the gradebook from what OUT holds. Each mode grades
# the students OUT holds no grade of (all with FORCE=1).
HIDDEN_DEFAULT = $(wildcard instructor/hidden/$(CHAPTER).cases)
SLURM_GRES ?= gpu:1
GRADE_ARGS = --chapter $(CHAPTER) --submissions $(SUBMISSIONS) \
	    --out $(or $(OUT),grades/$(CHAPTER)) --timeout $(TIMEOUT) \
	    $(if $(or $(HIDDEN),$(HIDDEN_DEFAULT)),--hidden $(or $(HIDDEN),$(HIDDEN_DEFAULT))) \
	    $(if $(RUBRIC),--rubric $(RUBRIC)) $(if $(filter 1,$(FORCE)),--force) \
	    $(if $(STUDENT_LIMIT),--student-limit $(STUDENT_LIMIT))
SLURM_ARGS = --batch $(BUILD)/tools/mw-batch --roofs '$(GRADER) roofs --results $(RESULTS)' \
	    --partition '$(SLURM_PARTITION)' \
	    --account '$(SLURM_ACCOUNT)' --time '$(SLURM_TIME)' --constraint '$(SLURM_CONSTRAINT)' \
	    --gres '$(SLURM_GRES)' --opts '$(SLURM_OPTS)' $(if $(filter 1,$(WAIT)),--wait)
GRADE_CMD = $(if $(and $(filter 1,$(SLURM)),$(if $(filter 1,$(MERGE)),,submit)), \
	    sh grader/mk/slurm.sh $(SLURM_ARGS) --,$(BUILD)/tools/mw-batch)
grade: $(GRADER) $(REF_LIBS) $(BUILD)/tools/mw-batch
	$(if $(SUBMISSIONS),,$(error give the submissions: make grade CH=01 SUBMISSIONS=path/))
	$(if $(and $(filter 1,$(SLURM)),$(GPUS)),\
	    $(error SLURM=1 and GPUS= do not go together: Slurm gives each task its GPU))
	$(Q)$(GRADER) roofs --results $(RESULTS) >/dev/null || [ $$? -eq 77 ]
	$(Q)$(GRADE_CMD) $(GRADE_ARGS) $(if $(GPUS),--gpus $(GPUS)) $(if $(filter 1,$(MERGE)),--merge)

# make class-bench: make grade on 1, 2 and 4 GPUs of this host, a class of
# 32 (tests/class/ for chapter 01, the references, skeletons and
# known-wrongs for the others), chapters 01 and 05: wall time, speedup and
# whether the scores are the one-GPU run's, and the host, into $(RESULTS)/<gpu>/class-bench.csv,
# what each row is computed from (gradebooks, step times, the parts' wall
# times) into $(RESULTS)/<gpu>/class-bench/, the reports into grades/class-bench/<gpu>/
# (grader/mk/class-bench.sh). BENCH_CHAPTERS=, BENCH_GPUS=, BENCH_STUDENTS=;
# BENCH_PART=I/P (one count in BENCH_GPUS) makes that run in P parts, one a command.
class-bench:
	$(Q)gpu=$$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | sed 's/[^A-Za-z0-9.-]/_/g'); \
	[ -n "$$gpu" ] || { echo "make class-bench: no GPU (nvidia-smi lists none)" >&2; exit 77; }; \
	mkdir -p $(RESULTS)/$$gpu && BENCH_PART='$(BENCH_PART)' bash grader/mk/class-bench.sh \
	    $(RESULTS)/$$gpu/class-bench.csv \
	    '$(or $(BENCH_CHAPTERS),01 05)' '$(or $(BENCH_GPUS),1 2 4)' '$(or $(BENCH_STUDENTS),32)'

# The student edition: the tracked files less solutions/, tests/wrong/,
# tests/class/, instructor/ and *.hidden, as dist/memwall-student.tar.gz.
dist:
	$(Q)$(if $(NVCC_FOUND),NVCC='$(NVCC_FOUND)') sh grader/mk/dist.sh

# ---- mutation testing of the grader ------------------------------------------------

# make mutants CH=01: every reference solution of the chapter with one planted
# mistake at a time (build/tools/mw-mutate), built with `make lib` and graded
# alone, small cases first, into results/<gpu>/<chapter>/mutants.csv
# (grader/mk/mutants.sh, docs/mutation-testing.md). EX= picks versions, SEED=
# the inputs (default 20261122), TIMEOUT= the seconds per case (default 10
# here: a mutant that hangs costs one timeout), PART=I/P the I-th of P
# slices of the mutants, the others' rows kept from the last CSV. Without a GPU it builds the
# mutants and exits 77. The script runs `make lib` itself, with the make
# command named through MAKE_COMMAND (a recipe that names the MAKE variable
# counts as recursive and would run even under make -n) and ARCH passed on,
# so that no build asks nvidia-smi again.
ifneq ($(filter mutants,$(MAKECMDGOALS)),)
  MUTANTS_CH := $(shell sh grader/mk/chapter.sh '$(CH)')
  ifeq ($(MUTANTS_CH),)
    $(error $(if $(CH),no chapter matches CH=$(CH),give a chapter: make mutants CH=01))
  endif
  $(eval $(check_args))
  MUTANTS_TIMEOUT := $(if $(filter command line environment,$(origin TIMEOUT)),$(TIMEOUT),10)
  ifeq ($(NVCC_FOUND),)
    $(error nvcc not found: make mutants builds every mutant with nvcc; name it with NVCC=/path/to/nvcc)
  endif
endif

.PHONY: mutants
mutants: $(BUILD)/$(MUTANTS_CH)/mw-chapter $(BUILD)/tools/mw-mutate
	$(Q)MAKE='$(value MAKE_COMMAND)' ARCH='$(ARCH)' sh grader/mk/mutants.sh --chapter $(MUTANTS_CH) --grader $(BUILD)/$(MUTANTS_CH)/mw-chapter \
	    --tool $(BUILD)/tools/mw-mutate --work $(BUILD)/mutants/$(MUTANTS_CH) --results $(RESULTS) \
	    --timeout $(MUTANTS_TIMEOUT) $(if $(SEED),--seed $(SEED)) $(if $(EX),--version $(EX)) \
	    $(if $(PART),--part $(PART)) $(if $(filter 1,$(RESUME)),--resume)

# make mutants-remap CH=05 SINCE=rev: after an edit of the chapter's
# reference solutions that moved lines, the graded rows of
# results/*/<chapter>/mutants.csv and the keys of
# solutions/<chapter>/equivalent-mutants move with their unchanged lines;
# a mutant whose line changed is not graded yet (grader/mk/mutants-remap.sh).
ifneq ($(filter mutants-remap,$(MAKECMDGOALS)),)
  REMAP_CH := $(shell sh grader/mk/chapter.sh '$(CH)')
  ifeq ($(REMAP_CH),)
    $(error $(if $(CH),no chapter matches CH=$(CH),give a chapter: make mutants-remap CH=05 SINCE=rev))
  endif
  ifeq ($(SINCE),)
    $(error give SINCE=rev, the commit the mutants were graded at: make mutants-remap CH=$(CH) SINCE=rev)
  endif
endif

.PHONY: mutants-remap
mutants-remap: $(BUILD)/tools/mw-mutate
	$(Q)sh grader/mk/mutants-remap.sh --chapter $(REMAP_CH) --since '$(SINCE)' \
	    --tool $(BUILD)/tools/mw-mutate --results $(RESULTS)

# ---- maintainers -----------------------------------------------------------------

# Never a dependency of anything: regenerating overwrites exercises/, which
# holds the student's work.
skeletons: $(BUILD)/tools/mw-strip
	$(Q)for f in $(wildcard solutions/[0-9][0-9]-*/*.cu); do \
	    out=exercises/$${f#solutions/}; mkdir -p $$(dirname $$out); \
	    $(BUILD)/tools/mw-strip $$f $$out || exit 1; printf '  STRIP   %s\n' $$out; \
	done

tables:
	$(Q)sh plots/tables.sh

# make bench-emulation [CH=NN]: make check SIM=1 of the reference solutions,
# timed per chapter, into results/emulation/<cpu>_<N>cores/check-times.csv
# (grader/mk/emulation-bench.sh; docs/emulation.md shows the table).
bench-emulation:
	$(Q)sh grader/mk/emulation-bench.sh $(CH)

# Everything a test file needs to run on its own (prove tests/tNNNN-*.t):
# the chapter programs, every version's library, the strip, batch and facts tools,
# the unit test programs.
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(wildcard tests/unit/*.c))

BUILD_TOOLS := $(BUILD)/tools/mw-strip $(BUILD)/tools/mw-batch $(BUILD)/tools/mw-facts $(UNIT_TESTS) \
               $(foreach ch,$(CHAPTERS),$(BUILD)/$(ch)/reference-agree)
build: $(foreach ch,$(CHAPTERS),$(BUILD)/$(ch)/mw-chapter $(call libs_of,exercises,$(ch)) \
                                $(call libs_of,solutions,$(ch))) $(BUILD_TOOLS)

# The fast tier's build: the programs, the tools and one set of kernels,
# the solutions (the exercises in the student edition, which has none).
# The skeletons are generated from the solutions and checked to match them
# (t0210); that each also compiles is the full tier's (make build), since
# nvcc takes 2 s a file however small, a fifth of the fast tier's time.
FAST_SRC := $(if $(wildcard solutions/*/*.cu),solutions,exercises)
build-fast: $(foreach ch,$(CHAPTERS),$(BUILD)/$(ch)/mw-chapter $(call libs_of,$(FAST_SRC),$(ch))) \
            $(BUILD_TOOLS)

# cuBLAS loaded on first use (grader/cublas_lazy.c): its test links the
# forwarders alone, with the toolkit's run path, as the chapter programs do.
$(BUILD)/tests/test_cublas_lazy: tests/unit/test_cublas_lazy.c $(BUILD)/grader/cublas_lazy.o
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests/unit -o $@ $(filter %.c %.o,$^) -Wl,-rpath,$(CUDA_HOME)/lib64 -ldl -lpthread

# A unit test links the pure C it tests: the batch's own code for
# test_batch, the chapter program's and the shared code for the others.
$(BUILD)/tests/test_batch: $(MW_BATCH_PURE:%=$(BUILD)/grader/batch/%.o) \
                           $(patsubst %,$(BUILD)/grader/%.o,csv cases_file proc)
$(filter-out %/test_batch %/test_cublas_lazy,$(UNIT_TESTS)): $(GRADER_PURE_OBJS)
$(BUILD)/tests/%: tests/unit/%.c
	$(call say,CC,$@)
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -Itests/unit -Igrader/batch -o $@ $(filter %.c %.o,$^) -lm -lpthread

# make test: the fast tier. make test-full (or MW_TEST_LONG=1, as git's
# GIT_TEST_LONG) adds the long tests, which the fast tier reports skipped
# (tests/lib.sh: long_tests). Both build with TEST_JOBS jobs (default: one
# per core; a -j given to make wins) and run as many test files at a time,
# as build/testrules.yml (prove's HARNESS_RULESFILE) says: first, one chain,
# one file after another, of those that use the GPU or grade whole classes
# with several processes each (t0220 mutants, t0300-t0311 batch and
# edition, t05xx GPU); beside it the files that share nothing, the longest first; any
# other file alone at the end. In the fast tier t0220 uses no GPU and leaves
# the chain, and one test file more than TEST_JOBS runs at a time: t0220
# spends most of its time waiting on its stand-ins, and would otherwise
# hold a core idle. Skips are shown with their reasons; V=1 runs the files
# one at a time, verbose. prove gets no MAKEFLAGS, so that a test runs as
# it does by hand (prove tests/t0110-build.t).
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
TEST_BESIDE := \n  - par:\n      - tests/t0103-*.t\n      - tests/t0400-*.t\n      - tests/t0{1,2,4}??-*.t\n      - tests/t0315-*.t\n
TEST_RULES_full := par:\n  - seq: tests/t0{220,30?,310,311,5??}-*.t$(TEST_BESIDE)
TEST_RULES_fast := par:\n  - seq: tests/t0{30?,310,311,5??}-*.t\n  - tests/t0220-*.t$(TEST_BESIDE)

test test-full:
	$(Q)$(MAKE) --no-print-directory $(if $(filter 1,$(V)),,-s) $(if $(filter -j%,$(MAKEFLAGS)),,-j$(TEST_JOBS)) \
	    $(if $(filter test-full,$@),build,build-fast)
	$(Q)printf '$(TEST_RULES_$(if $(filter test-full,$@),full,fast))' >$(BUILD)/testrules.yml
	$(Q)env -u MAKEFLAGS -u MFLAGS HARNESS_RULESFILE=$(BUILD)/testrules.yml \
	    $(if $(filter test-full,$@),MW_TEST_LONG=1) prove --failures --directives \
	    $(if $(filter 1,$(V)),-v,-j$(if $(filter test-full,$@),$(TEST_JOBS),$(shell echo $$(($(TEST_JOBS) + 1))))) tests/

clean:
	rm -rf $(BUILD)

# make cudnn-h: the cudnn.h the build compiles cuDNN's calls against, or
# nothing where it finds none, for scripts that build beside the Makefile
# (instructor/dev/05-wgmma/time-common.sh).
.PHONY: cudnn-h
cudnn-h:
	@$(if $(CUDNN_H),echo '$(CUDNN_H)',:)

# The CPU emulation of CUDA (grader/sim/).
include grader/sim/sim.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
