#!/bin/sh
# SPDX-License-Identifier: MIT
# Proves the guest's Debian userland (tests/board --userland): OpenCL C
# compiles to SPIR-V inside the guest with Debian's own clang-15 and
# llvm-spirv-15, as on a board; libclc and the ICD loader are in place.
# Plain POSIX sh: runs under dash or busybox sh.
. "$(dirname "$0")/check.sh"

# Seconds since boot, to time steps without relying on date +%N.
uptime_s() { cut -d' ' -f1 /proc/uptime; }

out=$(clang-15 --version 2>&1); st=$?
[ $st = 0 ] && echo "$out" | grep -q 'clang version 15'
check $? "clang-15 --version runs (got: $(echo "$out" | head -1))"

out=$(opt-15 --version 2>&1)
check $? "opt-15 --version runs (compiler/ runs it between clang and llvm-spirv)"

[ -d /dev/dri ] && [ -e /dev/dri/renderD128 ]
check $? "the render node is visible in the userland (/dev/dri/renderD128)"

cat >/tmp/k.cl <<'EOF'
__kernel void vadd(__global const float *a, __global const float *b,
		   __global float *c)
{
	size_t i = get_global_id(0);
	c[i] = a[i] + b[i];
}
EOF
# Typed pointers, as compiler/frontend asks for: llvm-spirv-15 asserts on
# some opaque-pointer IR.
t0=$(uptime_s)
clang-15 -c -target spir -cl-std=CL1.2 -O0 -Xclang -no-opaque-pointers \
	-emit-llvm -o /tmp/k.bc /tmp/k.cl >/tmp/clang.log 2>&1; st=$?
t1=$(uptime_s)
[ $st = 0 ] || cat /tmp/clang.log
check $st "clang-15 compiles an OpenCL C kernel to LLVM bitcode ($(echo "$t0 $t1" |
	awk '{ printf "%.2f", $2 - $1 }') s)"

llvm-spirv-15 /tmp/k.bc -o /tmp/k.spv >/tmp/spirv.log 2>&1; st=$?
[ $st = 0 ] || cat /tmp/spirv.log
check $st "llvm-spirv-15 translates it to SPIR-V"
# The magic word 0x07230203, little-endian in the file.
magic=$(od -An -tx1 -N4 /tmp/k.spv 2>/dev/null | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
[ "$magic" = "03 02 23 07" ]
check $? "the module starts with the SPIR-V magic (got '$magic')"

[ -s /usr/lib/clc/spirv-mesa3d-.spv ]
check $? "libclc's /usr/lib/clc/spirv-mesa3d-.spv is there"

# Our whole compiler as an OpenCL program would drive it: clang-15, opt-15,
# llvm-spirv-15 and libclc from the userland, Midgard code out.
t0=$(uptime_s)
sleipnir-cc /tmp/k.cl -o /tmp/k.bin >/tmp/scc.log 2>&1; st=$?
t1=$(uptime_s)
[ $st = 0 ] && [ -s /tmp/k.bin ]; st2=$?
[ $st2 = 0 ] || cat /tmp/scc.log
check $st2 "sleipnir-cc compiles the kernel to a program binary ($(echo "$t0 $t1" |
	awk '{ printf "%.2f", $2 - $1 }') s)"

[ -d /etc/OpenCL/vendors ]
check $? "the ICD loader's /etc/OpenCL/vendors exists"

# Sleipnir's ICD (userspace/icd), registered through OCL_ICD_VENDORS by
# guest-init.sh: clinfo must list our platform and its GPU.
out=$(clinfo 2>&1); st=$?
platforms=$(echo "$out" | sed -n 's/^Number of platforms *//p' | head -1)
[ $st = 0 ] && [ -n "$platforms" ]
check $? "clinfo runs (exit $st, number of platforms: '${platforms:-none printed}')"
[ $st = 0 ] || echo "$out" | head -20
echo "$out" | grep -q '^ *Platform Name *Sleipnir$'
check $? "clinfo shows the Sleipnir platform (OCL_ICD_VENDORS=$OCL_ICD_VENDORS)"
device=$(echo "$out" | sed -n 's/^ *Device Name *//p' | head -1)
case "$device" in Mali-T*) true ;; *) false ;; esac
check $? "clinfo shows the GPU as its device (got: '${device:-none}')"
echo "$out" | grep -q '^ *Device Version *OpenCL 1.2 sleipnir$'
check $? "clinfo reports OpenCL 1.2 for the device"

summary guest-userland
