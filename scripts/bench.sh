#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: runs the benchmarks and writes build/bench/results.json and
# build/bench/results.png: the shader-core interpreter's speed on the host
# (bundles per second), and the compiler's code on the corpus of OpenCL C
# kernels (tests/compiler/bench_compiler.c: static figures per kernel,
# cycles per element measured on the model, and the scalar / float4 twins'
# arithmetic-cycle ratios) and its build time against source size (host
# sleipnir-cc on generated kernels of 64 to 4096 lines, under a minute),
# all built without sanitizers; then, in one boot
# of the board (tests/bench/bench-guest.sh, from the image `make build`
# made), the OpenCL runtime: zero copy (map+unmap of an ALLOC_HOST_PTR
# buffer against WriteBuffer+ReadBuffer, 4 KiB to 64 MiB, and the bytes
# the runtime copied) and dispatch latency (an empty kernel + clFinish
# through the runtime, a NULL job's submit+wait through sleipnir.ko alone
# and through panfrost on the same GPU model).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"
out=build/bench
mkdir -p "$out"

[ -e build/release/build.ninja ] ||
	meson setup build/release --buildtype=release >/dev/null
ninja -C build/release tests/model/bench_shader \
	tests/compiler/bench_compiler compiler/tools/sleipnir-cc \
	>build/release.log 2>&1 ||
	{ cat build/release.log; die "benchmark build failed"; }

say "shader interpreter: bundles per second on the host"
build/release/tests/model/bench_shader >"$out/shader.json"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
shader = json.load(open(f"{out}/shader.json"))
with open(f"{out}/shader.dat", "w") as f:
    for r in shader["results"]:
        f.write(f'{r["name"]} {r["bundles_per_second"] / 1e6:.3f}\n')
        print(f'  {r["name"]:12s} {r["bundles_per_second"] / 1e6:8.2f} M bundles/s '
              f'({r["bundles"]} bundles, {r["decodes"]} decoded, {r["host_seconds"]:.3f} s)')
PY

say "compiler: the corpus kernels' code, cycles measured on the model"
SLEIPNIR_COMPILER_CACHE=off build/release/tests/compiler/bench_compiler \
	"$out/compiler.json"
say "compiler: build time against source size (host sleipnir-cc, cache off)"
tests/compiler/bench_build_time.py build/release/compiler/tools/sleipnir-cc \
	"$out/build_time.json"
say "OpenCL runtime on the board: zero copy and dispatch latency (one boot)"
# About 1.5 minutes of guest time under TCG, most of it the 64 MiB round
# trips and the 3 x 1,000 launches; TCG timings follow the host's load.
tests/board run --driver sleipnir --userland --timeout 900 -- \
	bench-guest.sh >"$out/runtime.log" 2>&1 ||
	{ cat "$out/runtime.log"; die "the runtime benchmarks failed on the board"; }
grep '^{"bench":' "$out/runtime.log" >"$out/runtime.jsonl" ||
	{ cat "$out/runtime.log"; die "the board printed no benchmark figures"; }

python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
shader = json.load(open(f"{out}/shader.json"))
compiler = json.load(open(f"{out}/compiler.json"))
build_time = json.load(open(f"{out}/build_time.json"))
# Build time: one data block per shape (gnuplot's index), lines against
# CPU seconds.
with open(f"{out}/build_time.dat", "w") as f:
    shapes = list(dict.fromkeys(r["shape"] for r in build_time["results"]))
    for s in shapes:
        f.write(f'# {s}\n')
        for r in build_time["results"]:
            if r["shape"] == s:
                f.write(f'{r["lines"]} {r["cpu_seconds"]:.3f}\n')
        f.write("\n\n")
# raw_decode: a guest kernel message the serial console put on the end of a
# line must not lose the figures before it.
lines = [json.JSONDecoder().raw_decode(l)[0]
         for l in open(f"{out}/runtime.jsonl")]
with open(f"{out}/twins.dat", "w") as f:
    for t in compiler["twins"]:
        f.write(f'{t["scalar"].replace("_scalar", "")} {t["ratio"]:.3f}\n')

# Zero copy: one result per size; the goal is judged at the largest.
sizes = [{k: v for k, v in l.items() if k != "bench"}
         for l in lines if l["bench"] == "zero_copy"]
for r in sizes:
    r["speedup"] = round(r["write_read_ns"] / max(r["map_unmap_ns"], 1), 1)
largest = max(sizes, key=lambda r: r["bytes"]) if sizes else None
zero_copy = {
    "benchmark": "zero_copy",
    "description": "map+unmap of a CL_MEM_ALLOC_HOST_PTR buffer (MAP_WRITE, "
                   "unmap, clFinish, MAP_READ, unmap) against blocking "
                   "clEnqueueWriteBuffer + clEnqueueReadBuffer, medians, in "
                   "the guest under TCG; copied = the runtime's "
                   "CL_DEVICE_SLEIPNIR_BYTES_COPIED per round trip",
    "goal": "at 64 MiB map+unmap >= 100x faster than write+read, 0 bytes "
            "copied",
    "goal_met": bool(largest and largest["bytes"] == 64 << 20
                     and largest["speedup"] >= 100
                     and all(r["map_unmap_copied"] == 0 for r in sizes)),
    "results": sizes,
}
with open(f"{out}/zero_copy.dat", "w") as f:
    for r in sizes:
        f.write(f'{r["bytes"] / 1024:g} {r["map_unmap_ns"] / 1e3:.3f} '
                f'{r["write_read_ns"] / 1e3:.3f}\n')

# Dispatch latency: the three paths, in the order of the plot.
labels = {"opencl_empty_kernel": "OpenCL empty kernel",
          "sleipnir_null_job": "sleipnir.ko NULL job",
          "panfrost_null_job": "panfrost NULL job"}
# Under the plot's bars the names take two lines, or they overlap.
bar_names = {"opencl_empty_kernel": "OpenCL\\nempty kernel",
             "sleipnir_null_job": "sleipnir.ko\\nNULL job",
             "panfrost_null_job": "panfrost\\nNULL job"}
paths = {l["path"]: {k: v for k, v in l.items() if k != "bench"}
         for l in lines if l["bench"] == "dispatch"}
dispatch = {
    "benchmark": "dispatch_latency",
    "description": "one launch at a time, in the guest under TCG: "
                   "clEnqueueNDRangeKernel of an empty kernel + clFinish, "
                   "and a one-NULL-job chain's SUBMIT + syncobj wait through "
                   "sleipnir.ko and through panfrost on the same model",
    "results": [paths[p] for p in labels if p in paths],
}
with open(f"{out}/dispatch.dat", "w") as f:
    for p, label in labels.items():
        if p in paths:
            f.write(f'"{bar_names[p]}" {paths[p]["median_ns"] / 1e3:.1f}\n')

json.dump({"benchmarks": [shader, compiler, build_time, zero_copy,
                          dispatch]},
          open(f"{out}/results.json", "w"), indent=2)

def kib(n):
    return f"{n >> 20} MiB" if n >= 1 << 20 else f"{n >> 10} KiB"

print(f'  {"zero copy":10s} {"map+unmap":>12s} {"write+read":>12s} '
      f'{"speedup":>8s}  bytes copied (map / copy)')
for r in sizes:
    print(f'  {kib(r["bytes"]):>10s} {r["map_unmap_ns"] / 1e3:9.1f} us '
          f'{r["write_read_ns"] / 1e3:9.1f} us {r["speedup"]:7.1f}x  '
          f'{r["map_unmap_copied"]} / {r["write_read_copied"]}'
          + ("" if r["verified"] else "  (data wrong)"))
print(f'  goal (64 MiB: >= 100x, 0 bytes): '
      f'{"met" if zero_copy["goal_met"] else "not met"}')
print("  dispatch latency        median      p10      p90  (us)")
for p, label in labels.items():
    if p in paths:
        r = paths[p]
        print(f'  {label:21s} {r["median_ns"] / 1e3:8.1f} '
              f'{r["p10_ns"] / 1e3:8.1f} {r["p90_ns"] / 1e3:8.1f}'
              f'  ({r["runs"]} runs)')
PY
# noenhanced: the names carry underscores, which are not subscripts.
gnuplot <<GP
set terminal pngcairo size 1280,1200 noenhanced
set output "$out/results.png"
set multiplot layout 3,2
set title "Shader-core interpreter on the host"
set ylabel "million bundles / s"
set style data histograms
set style fill solid 0.6
set boxwidth 0.6
set yrange [0:*]
unset key
plot "$out/shader.dat" using 2:xtic(1)
set title "Compiler: scalar / float4 arithmetic cycles per element (goal >= 3.5)"
set ylabel "ratio"
plot "$out/twins.dat" using 2:xtic(1), 3.5 with lines dt 2 lc rgb "red"
set title "Compiler: build time against source size (host, CPU s; goal 4096 lines < 5 s)"
set style data linespoints
set logscale xy
set xlabel "source lines"
set ylabel "CPU seconds"
set yrange [*:*]
set key top left
plot for [i=0:3] "$out/build_time.dat" index i using 1:2 \
	title word("straight loops gemm calls", i + 1), \
	5 with lines dt 2 lc rgb "red" title "goal"
unset logscale
unset xlabel
set title "Zero copy: ALLOC_HOST_PTR buffer (guest, TCG)"
set style data linespoints
set logscale xy
set xlabel "buffer size (KiB)"
set ylabel "median time (us)"
set yrange [*:*]
set key top left
plot "$out/zero_copy.dat" using 1:2 title "map + unmap", \
	"" using 1:3 title "WriteBuffer + ReadBuffer"
unset logscale
unset xlabel
set title "Dispatch latency, median (guest, TCG)"
# Room for the two-line names under the bars.
set bmargin 4
set style data histograms
set ylabel "us"
set yrange [0:*]
unset key
plot "$out/dispatch.dat" using 2:xtic(1)
unset multiplot
GP
say "results: $out/results.json, $out/results.png"
