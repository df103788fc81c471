# instructor/dev/05-bf16/sdpa.mk: builds the cuDNN fused-attention driver,
# instructor/dev/05-bf16/build/sdpa_driver (cudnn_sdpa.c + sdpa_driver.c, plain C11 with
# gcc, linked with -lcudnn -lcudart; no nvcc compilation, no GPU needed to build).
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
# go into the rpath so the driver runs without LD_LIBRARY_PATH.

# This file's folder, so the build works from the repository root or from here.
HERE := $(patsubst %/,%,$(dir $(lastword $(MAKEFILE_LIST))))
OUT  := $(HERE)/build

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

CC      := $(if $(filter default,$(origin CC)),gcc,$(CC))
CFLAGS  ?= -std=c11 -Wall -Wextra -O2 -g
CPPFLAGS := $(addprefix -I,$(sort $(realpath $(CUDA_HOME)/include) $(CUDNN_INC))) -MMD -MP
LDFLAGS := $(foreach d,$(sort $(CUDA_LIB) $(CUDNN_LIB)),-L$(d) -Wl,-rpath,$(d))
LDLIBS  := -lcudnn -lcudart -lm

OBJS := $(OUT)/cudnn_sdpa.o $(OUT)/sdpa_driver.o

.PHONY: all run clean show
.DELETE_ON_ERROR:

all: $(OUT)/sdpa_driver

$(OUT)/sdpa_driver: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(OUT)/%.o: $(HERE)/%.c | $(OUT) check-cudnn
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(OUT):
	mkdir -p $@

.PHONY: check-cudnn
check-cudnn:
	@test -n '$(CUDNN_H)' || { echo 'sdpa.mk: cudnn.h not found (set CUDNN_HOME=...)' >&2; exit 1; }
	@test -n '$(CUDNN_LIB)' || { echo 'sdpa.mk: libcudnn.so not found next to $(CUDNN_H)' >&2; exit 1; }

# exit 77 (no usable GPU / cuDNN engine) is a skip, not a failure
run: $(OUT)/sdpa_driver
	@$(OUT)/sdpa_driver; rc=$$?; if [ $$rc -eq 77 ]; then echo 'sdpa_driver: skipped'; else exit $$rc; fi

show:
	@echo 'NVCC      = $(NVCC_PATH)'
	@echo 'CUDA_HOME = $(CUDA_HOME)  (libcudart in $(CUDA_LIB))'
	@echo 'cudnn.h   = $(CUDNN_H)'
	@echo 'libcudnn  = $(CUDNN_LIB)'

clean:
	rm -rf $(OUT)

-include $(OBJS:.o=.d)
