#!/bin/sh
# SPDX-License-Identifier: MIT
# cl2spv.sh IN.cl OUT.spv [OPT]: OpenCL C 1.2 to SPIR-V as the front end
# does it (32-bit SPIR, typed pointers, kernel argument type strings).
set -e
clang-15 -cc1 -triple spir-unknown-unknown -cl-std=CL1.2 \
	-finclude-default-header -fdeclare-opencl-builtins -cl-kernel-arg-info \
	-no-opaque-pointers "${3:--O2}" -emit-llvm-bc -o "$2.bc" "$1"
llvm-spirv-15 --preserve-ocl-kernel-arg-type-metadata-through-string \
	"$2.bc" -o "$2"
rm -f "$2.bc"
