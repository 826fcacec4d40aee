#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make demo`: boots the board once, with sleipnir.ko and the guest's Debian
# userland, shows what the GPU reports (sleipnir-info), runs every OpenCL
# sample (tests/samples: each checks its result against the CPU) and
# prints one table: sample, size, result, GPU time from the profiling
# events, bytes the runtime copied. The Mandelbrot sample's PNG comes back
# to build/demo/mandelbrot.png, the whole board log to build/demo/board.log.
# The exit status is non-zero if the board or any sample failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"

out=build/demo
log=$out/board.log
mkdir -p "$out"
rm -f "$out/mandelbrot.png"

say "booting the board: sleipnir.ko, the Debian userland, the OpenCL samples"
# The PNG crosses the serial console in base64; it is kept out of sight.
set +e
tests/board run --driver sleipnir --userland --timeout 900 -- \
	sh -c 'sleipnir-info; cl-samples.sh --png' |
	tr -d '\r' | tee "$log" |
	awk '/^png-begin$/ { skip = 1 } !skip { print } /^png-end$/ { skip = 0 }'
board_status=${PIPESTATUS[0]}
set -e

if grep -qx 'png-end' "$log"; then
	sed -n '/^png-begin$/,/^png-end$/p' "$log" | sed '1d;$d' |
		base64 -d >"$out/mandelbrot.png" 2>/dev/null ||
		rm -f "$out/mandelbrot.png"
fi

# The last "demo: NAME SIZE OK|FAIL GPU_US BYTES" line of each sample.
echo
awk '
	/^demo: / { if (!($2 in row)) order[n++] = $2; row[$2] = $0 }
	END {
		printf "%-14s %-16s %-6s %12s %14s\n", "sample", "size",
		       "result", "GPU time", "bytes copied"
		for (i = 0; i < n; i++) {
			split(row[order[i]], f, " ")
			if (f[5] >= 1000)
				gpu = sprintf("%.1f ms", f[5] / 1000)
			else
				gpu = sprintf("%d us", f[5])
			printf "%-14s %-16s %-6s %12s %14s\n", f[2], f[3], f[4],
			       gpu, f[6]
			if (f[4] == "OK")
				ok++
		}
		printf "%d of %d samples OK\n", ok, n
		if (n == 0 || ok != n)
			exit 1
	}' "$log" && samples_ok=1 || samples_ok=0
[ -s "$out/mandelbrot.png" ] && say "the Mandelbrot image: $out/mandelbrot.png"

if [ "$board_status" != 0 ]; then
	die "the board run failed (status $board_status); see $log"
fi
[ "$samples_ok" = 1 ] || die "a sample failed; see $log"
say "demo done"
