#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest half of `make bench`'s OpenCL runtime benchmarks, all in one
# boot of the board (tests/board run --driver sleipnir --userland):
#  1. zero copy against the copy round trip (cl_bench_zero_copy);
#  2. dispatch latency of an empty kernel through the runtime
#     (cl_bench_dispatch) and of a NULL job through sleipnir.ko alone
#     (bench_null_job sleipnir);
#  3. sleipnir.ko unloaded and panfrost loaded on the same GPU model (both
#     bind the arm,mali-t860 node; the initramfs carries panfrost.ko and
#     the Debian chroot sees its /lib/modules), then the same NULL job
#     through panfrost (bench_null_job panfrost).
# Each program prints its figures as JSON lines on stdout, which
# scripts/bench.sh collects; failures go to stderr and the exit status.
# Usage: bench-guest.sh [ZERO_COPY_MAX_MIB] [DISPATCH_RUNS]
max_mib=${1:-64}
runs=${2:-1000}
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

run cl_bench_zero_copy "$max_mib"
run cl_bench_dispatch "$runs"
run bench_null_job sleipnir "$runs"

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
