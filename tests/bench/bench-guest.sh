#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest half of `make bench`'s board benchmarks, all in one boot of the
# board (tests/board run --driver sleipnir --conformance):
#  1. the OpenCL samples sgemm, fir, vector_add and mandelbrot
#     (tests/samples), each run SAMPLE_RUNS times: their kernels' GPU time
#     from profiling events, which scripts/bench.sh sets beside the same
#     programs on pocl on the host;
#  2. clpeak's single-precision, integer and global-bandwidth tests on the
#     model, with the device limits it sizes its launches by capped to
#     CLPEAK_LIMITS (tests/guest/cl_limits.c; clpeak has no size option;
#     "full" runs clpeak's own sizes, "none" leaves clpeak out),
#     between "bench-clpeak-begin TEST" and "bench-clpeak-end TEST STATUS
#     SECONDS" lines for scripts/bench.sh to read; left out when the
#     conformance layer (tests/board --conformance) is not there;
#  3. zero copy against the copy round trip (cl_bench_zero_copy);
#  4. dispatch latency of an empty kernel through the runtime and of a
#     NULL job through sleipnir.ko alone, interleaved in one program
#     (cl_bench_dispatch);
#  5. sleipnir.ko unloaded and panfrost loaded on the same GPU model (both
#     bind the arm,mali-t860 node; the initramfs carries panfrost.ko and
#     the Debian chroot sees its /lib/modules), then the same NULL job
#     through panfrost (bench_null_job panfrost).
# Each program prints its figures as JSON lines on stdout (the samples'
# "demo:" lines become {"bench":"sample",...} lines here), which
# scripts/bench.sh collects; failures go to stderr and the exit status.
# Usage: bench-guest.sh [ZERO_COPY_MAX_MIB] [DISPATCH_RUNS] [SAMPLE_RUNS]
#                       [CLPEAK_LIMITS|none]
max_mib=${1:-64}
runs=${2:-1000}
sample_runs=${3:-3}
# One compute unit, work-groups of 2 and 1 MiB buffers: each clpeak test
# then launches 4,096 work-items (clpeak: compute units x 2048 groups x
# the group size), which the model finishes in under a minute per test.
clpeak_limits=${4:-compute_units=1,work_group=2,mem_alloc=1048576}
clpeak_tests="compute-sp compute-integer global-bandwidth"
status=0

run() {
	"$@" || { echo "bench-guest: $* failed (exit $?)" >&2; status=1; }
}

# Waits up to 10 s for a render node to appear (1) or to be gone (0).
wait_render_node() {
	i=0
	while [ $i -lt 200 ]; do
		if ls /dev/dri/renderD* >/dev/null 2>&1; then
			[ "$1" = 1 ] && return 0
		else
			[ "$1" = 0 ] && return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
	return 1
}

# One sample run: its demo line ("demo: NAME SIZE OK|FAIL GPU_US COPIED",
# tests/samples/sample.h) as a JSON line; a run that printed none fails.
sample() {
	name=$1
	out=/tmp/bench-sample-$name.log
	# shellcheck disable=SC2086 # mandelbrot's PNG path, one word.
	"sample_$name" $2 >"$out" 2>&1
	st=$?
	line=$(grep '^demo: ' "$out" | tail -n 1)
	# shellcheck disable=SC2086 # split the demo line into its fields.
	set -- $line
	if [ "$st" != 0 ] || [ "$4" != OK ]; then
		cat "$out" >&2
		echo "bench-guest: sample_$name failed (exit $st)" >&2
		status=1
		return
	fi
	printf '{"bench":"sample","name":"%s","size":"%s","gpu_us":%s}\n' \
		"$2" "$3" "$5"
}

for s in sgemm fir vector_add mandelbrot; do
	i=0
	while [ $i -lt "$sample_runs" ]; do
		args=
		[ "$s" = mandelbrot ] && args=/tmp/bench-mandelbrot.png
		sample "$s" $args
		i=$((i + 1))
	done
done

if [ "$clpeak_limits" != none ] && command -v clpeak >/dev/null 2>&1; then
	for t in $clpeak_tests; do
		echo "bench-clpeak-begin $t $clpeak_limits"
		t0=$(date +%s)
		if [ "$clpeak_limits" = full ]; then
			clpeak "--$t" 2>&1
		else
			LD_PRELOAD=/opt/sleipnir/lib/cl_limits.so \
				SLEIPNIR_CL_LIMITS="$clpeak_limits" clpeak "--$t" 2>&1
		fi
		st=$?
		echo "bench-clpeak-end $t $st $(($(date +%s) - t0))"
		[ "$st" = 0 ] || { echo "bench-guest: clpeak --$t failed (exit $st)" >&2; status=1; }
	done
elif [ "$clpeak_limits" != none ]; then
	echo "bench-guest: no clpeak (boot with --conformance); no clpeak figures" >&2
fi

run cl_bench_zero_copy "$max_mib"
run cl_bench_dispatch "$runs"
# Buffer copies on the GPU against the CPU (issue 20), 64 KiB to 4 MiB.
run cl_bench_copy 4

# Every file on sleipnir.ko is closed once the programs above have exited,
# so the module can go.
if ! rmmod sleipnir || ! wait_render_node 0; then
	echo "bench-guest: cannot unload sleipnir.ko; no panfrost figures" >&2
	exit 1
fi
if ! modprobe panfrost || ! wait_render_node 1; then
	echo "bench-guest: panfrost did not come up on the model" >&2
	exit 1
fi
run bench_null_job panfrost "$runs"
exit $status
