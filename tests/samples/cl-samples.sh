#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs every OpenCL sample in the guest's Debian userland (tests/board
# --userland) and prints "cl-samples: N passed, N failed"; each sample
# checks its own result and ends with its "demo: ..." line (sample.h).
# A sample that dies before printing that line gets one saying FAIL, so
# scripts/demo.sh's table has a row for every sample.
#   --png  afterwards print the Mandelbrot PNG in base64 between
#          "png-begin" and "png-end", for scripts/demo.sh to save.
# Plain POSIX sh: runs under dash or busybox sh.
samples="vector_add dot_partial sum_reduction last_group matmul_tiled sobel
fir mandelbrot sgemm zero_copy image_blur"
# The double-precision sample is built only while the device offers
# cl_khr_fp64 (compiler/sleipnir_compiler.h: SLC_DEVICE_FP64).
if command -v sample_double_reduction >/dev/null 2>&1; then
	samples="$samples double_reduction"
fi
# Per sample, far above the few seconds one needs: a hung runtime must
# fail its sample, not the whole board run.
limit=240
png=/tmp/mandelbrot.png
passed=0
failed=0

run() {
	if command -v timeout >/dev/null 2>&1; then
		timeout "$limit" "$@"
	else
		"$@"
	fi
}

for s in $samples; do
	echo "== $s"
	out=/tmp/sample-$s.log
	args=
	[ "$s" = mandelbrot ] && args=$png
	# shellcheck disable=SC2086 # $args is empty or one word.
	run "sample_$s" $args >"$out" 2>&1
	status=$?
	cat "$out"
	# The last demo line of a sample counts (scripts/demo.sh): a sample
	# that failed without one, or died after printing OK, gets a FAIL.
	if ! grep -q "^demo: " "$out" ||
	   { [ "$status" != 0 ] && grep -q "^demo: .* OK " "$out"; }; then
		echo "demo: $s - FAIL 0 ? (exit status $status)"
	fi
	if [ "$status" = 0 ]; then
		passed=$((passed + 1)); echo "ok   $s"
	else
		failed=$((failed + 1)); echo "FAIL $s (exit status $status)"
	fi
done

if [ "$1" = --png ] && [ -s "$png" ]; then
	echo "png-begin"
	base64 "$png"
	echo "png-end"
fi
echo "cl-samples: $passed passed, $failed failed"
[ "$failed" = 0 ]
