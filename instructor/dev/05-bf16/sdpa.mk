# instructor/dev/05-bf16/sdpa.mk: builds the driver of chapter 05's two bf16 library rows,
# instructor/dev/05-bf16/build/sdpa_driver: sdpa_driver.c here and the chapter's own
# cudnn_sdpa.c and library.c (C11 with gcc, -DMW_HAVE_CUDNN) and mask.cu (nvcc, for ARCH),
# linked with -lcublas -lcudnn -lcudart. No GPU needed to build.
#
#   make -f instructor/dev/05-bf16/sdpa.mk              build
#   make -f instructor/dev/05-bf16/sdpa.mk run          build and run (needs a GPU; exit 77 = skipped)
#   make -f instructor/dev/05-bf16/sdpa.mk clean
#   make -f instructor/dev/05-bf16/sdpa.mk show         print the paths found
#
# Paths: the CUDA toolkit is the directory above nvcc's bin/ (NVCC= or the
# nvcc on the PATH, else $(CUDA_HOME)/bin/nvcc, CUDA_HOME defaulting to
# /usr/local/cuda); cuDNN is where cudnn.h is (CUDNN_HOME= first, then the
# toolkit, then the system include folders), with its library next to it
# (../lib64 or ../lib) or in the system library folders. Both library folders
# go into the rpath so the driver runs without LD_LIBRARY_PATH. mask.cu is built for
# ARCH (ARCH=sm_80 to override), by default the GPU's as the repository's Makefile finds it.

# This file's folder, so the build works from the repository root or from here; the
# chapter's sources, which the rows live in.
HERE    := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
OUT     := $(HERE)/build
ROOT    := $(abspath $(HERE)/../../..)
CHAPTER := $(ROOT)/chapters/05-attention

ifeq ($(origin NVCC),undefined)
  NVCC := $(or $(shell command -v nvcc 2>/dev/null),$(or $(CUDA_HOME),/usr/local/cuda)/bin/nvcc)
endif
NVCC_PATH := $(shell command -v '$(NVCC)' 2>/dev/null)
CUDA_HOME := $(or $(patsubst %/bin/nvcc,%,$(realpath $(NVCC_PATH))),$(CUDA_HOME),/usr/local/cuda)
CUDA_LIB  := $(realpath $(dir $(firstword $(wildcard $(CUDA_HOME)/lib64/libcudart.so $(CUDA_HOME)/lib/libcudart.so \
               $(CUDA_HOME)/targets/*/lib/libcudart.so))))

MULTIARCH := $(shell gcc -print-multiarch 2>/dev/null)
CUDNN_H   := $(firstword $(wildcard $(if $(CUDNN_HOME),$(CUDNN_HOME)/include/cudnn.h) $(CUDA_HOME)/include/cudnn.h \
               /usr/include/cudnn.h /usr/include/$(MULTIARCH)/cudnn.h /usr/local/include/cudnn.h))
CUDNN_INC := $(realpath $(dir $(CUDNN_H)))
CUDNN_LIB := $(realpath $(dir $(firstword $(wildcard $(CUDNN_INC)/../lib64/libcudnn.so* $(CUDNN_INC)/../lib/libcudnn.so* \
               /usr/lib/$(MULTIARCH)/libcudnn.so* /usr/lib64/libcudnn.so* /usr/local/lib/libcudnn.so*))))

# The GPU's architecture as the chapter builds for it (sm_90 without a GPU).
ARCH    ?= $(shell sh $(ROOT)/grader/mk/detect-arch.sh)
ARCH_NUM := $(patsubst sm_%,%,$(ARCH))

CC      := $(if $(filter default,$(origin CC)),gcc,$(CC))
CFLAGS  ?= -std=c11 -Wall -Wextra -O2 -g
CPPFLAGS := $(addprefix -I,$(sort $(realpath $(CUDA_HOME)/include) $(CUDNN_INC))) -I$(CHAPTER) \
            -I$(ROOT)/grader -DMW_HAVE_CUDNN -MMD -MP
NVFLAGS := -O3 -lineinfo -gencode arch=compute_$(ARCH_NUM),code=sm_$(ARCH_NUM) -I$(CHAPTER) \
           -I$(ROOT)/grader -MMD -MP
LDFLAGS := $(foreach d,$(sort $(CUDA_LIB) $(CUDNN_LIB)),-L$(d) -Wl,-rpath,$(d))
LDLIBS  := -lcublas -lcudnn -lcudart -lstdc++ -lm

OBJS := $(OUT)/cudnn_sdpa.o $(OUT)/library.o $(OUT)/mask.cu.o $(OUT)/sdpa_driver.o

.PHONY: all run clean show
.DELETE_ON_ERROR:

all: $(OUT)/sdpa_driver

$(OUT)/sdpa_driver: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(OUT)/%.o: $(HERE)/%.c | $(OUT) check-cudnn
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(OUT)/%.o: $(CHAPTER)/%.c | $(OUT) check-cudnn
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(OUT)/%.cu.o: $(CHAPTER)/%.cu | $(OUT) check-cudnn
	$(NVCC_PATH) $(NVFLAGS) -c $< -o $@

$(OUT):
	mkdir -p $@

.PHONY: check-cudnn
check-cudnn:
	@test -n '$(CUDNN_H)' || { echo 'sdpa.mk: cudnn.h not found (set CUDNN_HOME=...)' >&2; exit 1; }
	@test -n '$(CUDNN_LIB)' || { echo 'sdpa.mk: libcudnn.so not found next to $(CUDNN_H)' >&2; exit 1; }
	@test -n '$(NVCC_PATH)' || { echo 'sdpa.mk: nvcc not found (NVCC=..., or put it on the PATH)' >&2; exit 1; }

# exit 77 (a row cannot run here: no usable GPU, cuDNN too old, no cuDNN engine) is a skip,
# not a failure
run: $(OUT)/sdpa_driver
	@$(OUT)/sdpa_driver; rc=$$?; if [ $$rc -eq 77 ]; then echo 'sdpa_driver: skipped'; else exit $$rc; fi

show:
	@echo 'NVCC      = $(NVCC_PATH)  (ARCH $(ARCH))'
	@echo 'CUDA_HOME = $(CUDA_HOME)  (libcudart in $(CUDA_LIB))'
	@echo 'cudnn.h   = $(CUDNN_H)'
	@echo 'libcudnn  = $(CUDNN_LIB)'

clean:
	rm -rf $(OUT)

-include $(OBJS:.o=.d)
