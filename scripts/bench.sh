#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: runs the benchmarks and writes build/bench/results.json and
# build/bench/results.png: the shader-core interpreter's speed on the host
# (bundles per second, and work-item-instructions per second on the four
# samples' kernels below, tests/compiler/bench_samples.c), and the
# compiler's code on the corpus of OpenCL C
# kernels (tests/compiler/bench_compiler.c: static figures per kernel,
# cycles per element measured on the model, and the scalar / float4 twins'
# arithmetic-cycle ratios) and its build time against source size (host
# sleipnir-cc on generated kernels of 64 to 4096 lines, under a minute),
# all built without sanitizers; the OpenCL samples sgemm, fir, vector_add
# and mandelbrot (tests/samples) on pocl on the host, their kernels' time
# from profiling events; then, in one boot
# of the board (tests/bench/bench-guest.sh, from the image `make build`
# made, with the conformance layer for clpeak), the same samples on the
# model (their ratio to pocl, with the geometric mean, against issue 17's
# goal and against tests/bench/samples-baseline.json), clpeak's compute and
# bandwidth figures on the model, and the OpenCL runtime: zero copy
# (map+unmap of an ALLOC_HOST_PTR
# buffer against WriteBuffer+ReadBuffer, 4 KiB to 64 MiB, and the bytes
# the runtime copied) and dispatch latency (an empty kernel + clFinish
# through the runtime and a NULL job's submit+wait through sleipnir.ko
# alone, interleaved, and the NULL job through panfrost on the same GPU
# model).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"
out=build/bench
mkdir -p "$out"

# The samples the model is held against pocl on, and how many runs of each
# (the best counts: under load, noise only adds time).
SAMPLES=(sgemm fir vector_add mandelbrot)
POCL_RUNS=7
MODEL_RUNS=5
scripts/build-release.sh tests/model/bench_shader \
	tests/compiler/bench_compiler tests/compiler/bench_samples \
	compiler/tools/sleipnir-cc "${SAMPLES[@]/#/tests/samples/sample_}"

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
print(f'  empty job    {shader["empty_job_us"]:8.2f} us of host time per dispatch')
PY

say "shader interpreter: the samples' kernels on the model core (host)"
build/release/tests/compiler/bench_samples >"$out/engine_samples.json" ||
	die "bench_samples failed"
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
for r in json.load(open(f"{out}/engine_samples.json"))["results"]:
    print(f'  {r["name"]:12s} {r["work_item_instructions_per_second"] / 1e6:8.2f} M '
          f'work-item-instructions/s ({r["work_items"]} work-items, '
          f'{r["host_seconds"] * 1e3:.1f} ms)')
PY

say "compiler: the corpus kernels' code, cycles measured on the model"
SLEIPNIR_COMPILER_CACHE=off build/release/tests/compiler/bench_compiler \
	"$out/compiler.json"
say "compiler: build time against source size (host sleipnir-cc, cache off)"
tests/compiler/bench_build_time.py build/release/compiler/tools/sleipnir-cc \
	"$out/build_time.json"
say "samples on pocl on the host (the reference)"
# pocl is the host's OpenCL for `make conformance` too
# (scripts/setup-conformance-host.sh); the samples see it alone.
if ! dpkg-query -W -f='${Status}\n' pocl-opencl-icd 2>/dev/null |
	grep -q 'install ok installed'; then
	say "installing pocl-opencl-icd"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends pocl-opencl-icd; } >"$SLEIPNIR_CACHE/apt-bench.log" 2>&1 ||
		{ tail -30 "$SLEIPNIR_CACHE/apt-bench.log"; die "apt-get install pocl-opencl-icd failed"; }
fi
mkdir -p "$out/pocl-vendors"
cp /etc/OpenCL/vendors/pocl.icd "$out/pocl-vendors/"
: >"$out/pocl.jsonl"
pocl_env=(OCL_ICD_VENDORS="$SLEIPNIR_ROOT/$out/pocl-vendors"
	POCL_CACHE_DIR="$SLEIPNIR_ROOT/$out/pocl-cache"
	SLEIPNIR_SAMPLES_DIR="$SLEIPNIR_ROOT/tests/compiler/corpus")
for s in "${SAMPLES[@]}"; do
	# pocl compiles a kernel's work-group function at its first launch,
	# inside the profiled time, and keeps it in POCL_CACHE_DIR: a first
	# run fills the cache and is not counted.
	for i in $(seq 0 "$POCL_RUNS"); do
		log=$(env "${pocl_env[@]}" "build/release/tests/samples/sample_$s" \
			"$out/pocl-mandelbrot.png" 2>&1) ||
			{ echo "$log"; die "sample_$s failed on pocl"; }
		read -r _ name size result gpu_us _ <<<"$(grep '^demo: ' <<<"$log" | tail -n 1)"
		[ "$result" = OK ] || { echo "$log"; die "sample_$s failed on pocl"; }
		[ "$i" = 0 ] ||
			printf '{"bench":"sample","name":"%s","size":"%s","gpu_us":%s}\n' \
				"$name" "$size" "$gpu_us" >>"$out/pocl.jsonl"
	done
done

# clpeak is in the conformance layer (Debian's clpeak over the userland).
layer=$(scripts/fetch-conformance-layer.sh)
if [ "$(realpath -m build/board/conformance.ext4)" != "$layer" ]; then
	rm -f build/board/conformance.ext4
	ln -s "$layer" build/board/conformance.ext4
fi
say "samples and clpeak on the model, the OpenCL runtime: zero copy and dispatch latency (one boot)"
# About 3 minutes under TCG today (the whole `make bench` about 5): the
# samples' runs, up to a minute and a half per clpeak test, the 64 MiB
# round trips and the 3 x 1,000 launches; TCG timings follow the host's
# load.
# SLEIPNIR_BENCH_CLPEAK_LIMITS=full runs clpeak at its own sizes (or other
# caps than bench-guest.sh's; "none" leaves it out).
guest_args=(64 1000 "$MODEL_RUNS")
[ -z "${SLEIPNIR_BENCH_CLPEAK_LIMITS:-}" ] ||
	guest_args+=("$SLEIPNIR_BENCH_CLPEAK_LIMITS")
# The host's load during the boot, sampled every 5 s: TCG and the model
# run on host threads, so the model's times stretch with whatever else
# the host runs (results.json keeps it beside the samples' verdicts).
while :; do cut -d' ' -f1 /proc/loadavg; sleep 5; done >"$out/load.txt" &
load_pid=$!
trap 'kill "$load_pid" 2>/dev/null' EXIT
board_status=0
tests/board run --driver sleipnir --conformance --timeout 1500 -- \
	bench-guest.sh "${guest_args[@]}" >"$out/runtime.log" 2>&1 ||
	board_status=$?
kill "$load_pid"
trap - EXIT
[ "$board_status" = 0 ] ||
	{ cat "$out/runtime.log"; die "the benchmarks failed on the board"; }
grep '^{"bench":' "$out/runtime.log" >"$out/runtime.jsonl" ||
	{ cat "$out/runtime.log"; die "the board printed no benchmark figures"; }

python3 - "$out" tests/bench/samples-baseline.json <<'PY'
import json, math, os, re, sys
out, baseline_path = sys.argv[1], sys.argv[2]
shader = json.load(open(f"{out}/shader.json"))
engine = json.load(open(f"{out}/engine_samples.json"))
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
                   "sleipnir.ko (the two interleaved in one program) and "
                   "through panfrost on the same model",
    "results": [paths[p] for p in labels if p in paths],
}
# The runtime's overhead over the driver: the empty kernel's median over
# the raw NULL job's, in the same boot.
if "opencl_empty_kernel" in paths and "sleipnir_null_job" in paths:
    dispatch["empty_kernel_over_null_job"] = round(
        paths["opencl_empty_kernel"]["median_ns"] /
        max(paths["sleipnir_null_job"]["median_ns"], 1), 2)
    dispatch["goal"] = "empty kernel median <= 1.5x the NULL job's"
    dispatch["goal_met"] = dispatch["empty_kernel_over_null_job"] <= 1.5
with open(f"{out}/dispatch.dat", "w") as f:
    for p, label in labels.items():
        if p in paths:
            f.write(f'"{bar_names[p]}" {paths[p]["median_ns"] / 1e3:.1f}\n')

# Buffer copies on the GPU's kernels (firmware/cl) against the CPU's
# memcpy, alternately in one program (tests/bench/cl_bench_copy.c).
gpu_copy = {
    "benchmark": "gpu_copy",
    "description": "in-order queue, in the guest under TCG, medians: "
                   "kernel -> clEnqueueCopyBuffer -> kernel -> clFinish, "
                   "and the copy alone, with the runtime's GPU copy kernels "
                   "and with SLEIPNIR_CL_CPU_COPIES=1; copied = bytes the "
                   "CPU copied per repetition",
    "results": [{k: v for k, v in l.items() if k != "bench"}
                for l in lines if l["bench"] == "gpu_copy"],
}

# The samples on the model (guest) against pocl (host): the best run of
# each, since under load noise only adds time.
def sample_runs(records):
    runs = {}
    for r in records:
        if r["bench"] == "sample":
            runs.setdefault(r["name"], []).append(r)
    return runs

model_runs = sample_runs(lines)
pocl_runs = sample_runs(json.loads(l) for l in open(f"{out}/pocl.jsonl"))
baseline = json.load(open(baseline_path))
tolerance = baseline["tolerance"]
samples = []
for name in ("sgemm", "fir", "vector_add", "mandelbrot"):
    m = [r["gpu_us"] for r in model_runs.get(name, [])]
    p = [r["gpu_us"] for r in pocl_runs.get(name, [])]
    base = baseline["samples"].get(name)
    r = {"name": name,
         "size": (model_runs.get(name) or pocl_runs.get(name) or [{}])[0].get("size"),
         "model_us": min(m) if m else None, "pocl_us": min(p) if p else None,
         "model_runs_us": m, "pocl_runs_us": p}
    r["ratio"] = (round(r["model_us"] / max(r["pocl_us"], 1), 1)
                  if m and p else None)
    if base:
        r["baseline_model_us"] = base["model_us"]
        r["baseline_ratio"] = base["ratio"]
        # Slower: beyond the noise the baseline file allows.
        r["slower"] = (not m or
                       r["model_us"] > base["model_us"] * (1 + tolerance))
    samples.append(r)
ratios = [r["ratio"] for r in samples if r["ratio"]]
geomean = (round(math.exp(sum(math.log(x) for x in ratios) / len(ratios)), 1)
           if len(ratios) == len(samples) else None)
no_slower = all(r.get("slower") is False for r in samples)
loads = [float(x) for x in open(f"{out}/load.txt").read().split()] or [0.0]
cores = os.cpu_count()
host_load = {"mean": round(sum(loads) / len(loads), 2), "max": max(loads),
             "cores": cores}
# More runnable threads than cores besides the board's own: the model's
# times say as much about the host as about the engine.
host_busy = host_load["mean"] > cores
samples_vs_pocl = {
    "benchmark": "samples_vs_pocl",
    "description": "the OpenCL samples' kernel time (sum of the launches' "
                   "profiling END - START; the best of several runs) on the "
                   "model in the guest under TCG and on pocl on the host, "
                   "and their ratio model / pocl",
    "goal": "issue 17: geometric mean of model / pocl <= 30, and no "
            "sample's model time more than "
            f"{tolerance:.0%} above tests/bench/samples-baseline.json's "
            "(the host's load moves the model's times; see host_busy)",
    "geomean_ratio": geomean,
    "geomean_goal": 30,
    "geomean_goal_met": geomean is not None and geomean <= 30,
    "no_slower_than_baseline": no_slower,
    "host_load_during_boot": host_load,
    "host_busy": host_busy,
    "baseline": {k: baseline[k] for k in ("measured", "geomean_ratio")},
    "goal_met": geomean is not None and geomean <= 30 and no_slower,
    "results": samples,
}
with open(f"{out}/samples.dat", "w") as f:
    for r in samples:
        f.write(f'{r["name"]} {r["model_us"] or 0} {r["pocl_us"] or 0} '
                f'{r["ratio"] or 0} {r.get("baseline_ratio") or 0}\n')
    f.write(f'geomean 0 0 {geomean or 0} {baseline["geomean_ratio"]}\n')

# clpeak on the model: its report between bench-clpeak-begin and -end.
section_re = re.compile(r"^\s+(\S.*\S)\s*\(([^)]+)\)\s*$")
figure_re = re.compile(r"^\s+(\S+)\s*:\s*([0-9.]+)\s*$")
clpeak_tests, test = [], None
for line in open(f"{out}/runtime.log", errors="replace"):
    line = line.rstrip("\r\n")
    if line.startswith("bench-clpeak-begin "):
        _, name, limits = line.split()[:3]
        test = {"test": name, "limits": limits, "figures": [],
                "status": None, "seconds": None}
        section = unit = None
        clpeak_tests.append(test)
    elif line.startswith("bench-clpeak-end ") and test:
        _, _, status, secs = line.split()[:4]
        test["status"], test["seconds"] = int(status), int(secs)
        test = None
    elif test and line.strip().startswith("Clock frequency"):
        test["started"] = True  # the device's lines are over
    elif test and test.get("started"):
        sec = section_re.match(line)
        fig = figure_re.match(line)
        if sec and not fig:
            section, unit = sec.group(1), sec.group(2)
        elif fig and section:
            test["figures"].append({"section": section, "name": fig.group(1),
                                    "value": float(fig.group(2)),
                                    "unit": unit})
for t in clpeak_tests:
    t.pop("started", None)
clpeak = {
    "benchmark": "clpeak_model",
    "description": "clpeak 1.1.2 in the guest on the model, its launches "
                   "sized by device limits capped for it (limits, "
                   "tests/guest/cl_limits.c)",
    "results": clpeak_tests,
}
# The plot's figures: float and float4 compute, int and int4, bandwidth.
clpeak_plot = [("compute-sp", "float", "float\\nGFLOPS"),
               ("compute-sp", "float4", "float4\\nGFLOPS"),
               ("compute-integer", "int", "int\\nGIOPS"),
               ("compute-integer", "int4", "int4\\nGIOPS"),
               ("global-bandwidth", "float", "bw float\\nGB/s"),
               ("global-bandwidth", "float4", "bw float4\\nGB/s")]
with open(f"{out}/clpeak.dat", "w") as f:
    for t, fig, label in clpeak_plot:
        for r in clpeak_tests:
            for x in r["figures"]:
                if r["test"] == t and x["name"] == fig:
                    f.write(f'"{label}" {x["value"]}\n')

with open(f"{out}/engine.dat", "w") as f:
    for r in engine["results"]:
        f.write(f'{r["name"]} '
                f'{r["work_item_instructions_per_second"] / 1e6:.3f}\n')

json.dump({"benchmarks": [shader, engine, compiler, build_time, zero_copy,
                          dispatch, samples_vs_pocl, clpeak, gpu_copy]},
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
for r in gpu_copy["results"]:
    print(f'  copy {kib(r["bytes"]):>8s}: kernel-copy-kernel GPU '
          f'{r["chain_gpu_ns"] / 1e6:.2f} ms, CPU {r["chain_cpu_ns"] / 1e6:.2f}'
          f' ms; copy alone GPU {r["copy_gpu_ns"] / 1e6:.2f} ms, CPU '
          f'{r["copy_cpu_ns"] / 1e6:.2f} ms')
print(f'  {"sample":12s} {"model":>10s} {"pocl":>10s} {"ratio":>8s} '
      f'{"baseline":>9s}  (us, best run)')
for r in samples:
    print(f'  {r["name"]:12s} {r["model_us"] or 0:10d} {r["pocl_us"] or 0:10d} '
          f'{r["ratio"] or 0:7.1f}x {r.get("baseline_ratio") or 0:8.1f}x'
          + ("  SLOWER than the baseline" if r.get("slower") else ""))
print(f'  geometric mean of model / pocl: {geomean}x '
      f'(baseline {baseline["geomean_ratio"]}x, goal <= 30x: '
      f'{"met" if samples_vs_pocl["geomean_goal_met"] else "not met"}); '
      f'no sample slower than the baseline: {"yes" if no_slower else "no"}')
print(f'  host load during the boot: mean {host_load["mean"]}, max '
      f'{host_load["max"]} on {cores} cores'
      + ("  (busy: the model's times stretch with it; compare runs on a "
         "quiet host)" if host_busy else ""))
for r in clpeak_tests:
    figs = ", ".join(f'{x["name"]} {x["value"]:g}' for x in r["figures"])
    print(f'  clpeak {r["test"]:17s} {figs} ({r["figures"][0]["unit"] if r["figures"] else "-"}; '
          f'{r["seconds"]} s, exit {r["status"]})')
print("  dispatch latency        median      p10      p90  (us)")
for p, label in labels.items():
    if p in paths:
        r = paths[p]
        print(f'  {label:21s} {r["median_ns"] / 1e3:8.1f} '
              f'{r["p10_ns"] / 1e3:8.1f} {r["p90_ns"] / 1e3:8.1f}'
              f'  ({r["runs"]} runs)')
if "empty_kernel_over_null_job" in dispatch:
    print(f'  empty kernel / NULL job: {dispatch["empty_kernel_over_null_job"]}x '
          f'(goal <= 1.5x: {"met" if dispatch["goal_met"] else "not met"})')
PY
# noenhanced: the names carry underscores, which are not subscripts.
gnuplot <<GP
set terminal pngcairo size 1280,2000 noenhanced
set output "$out/results.png"
set multiplot layout 5,2
set title "Samples: kernel time, model (guest, TCG) and pocl (host)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.6
set logscale y
set ylabel "us (best run)"
set yrange [10:*]
set key top left
plot "$out/samples.dat" every ::0::3 using 2:xtic(1) title "model", \
	"" every ::0::3 using 3 title "pocl"
set title "Samples: model / pocl (goal: geometric mean <= 30)"
set ylabel "ratio"
set yrange [1:*]
set key below horizontal
set xtics font ",9"
set offsets 0, 0, graph 0.1, 0
# This run's values above its bars (the first of each cluster of two).
plot "$out/samples.dat" using 4:xtic(1) title "this run", \
	"" using 5 title "baseline", \
	"" using (\$0 - 0.17):4:(sprintf("%.0f", \$4)) with labels \
		offset 0,0.6 notitle, \
	30 with lines dt 2 lc rgb "red" title "goal"
set xtics font ""
set offsets
set key inside top left vertical
unset logscale
set style histogram clustered gap 2
set title "clpeak on the model (guest, TCG; capped sizes)"
set bmargin 4
set ylabel "G / s"
set yrange [0:*]
set offsets 0, 0, graph 0.1, 0
unset key
plot "$out/clpeak.dat" using 2:xtic(1), \
	"" using 0:2:(sprintf("%g", \$2)) with labels offset 0,0.6
set offsets
set bmargin
set title "Shader-core interpreter on the host: the samples' kernels"
set ylabel "million work-item-instructions / s"
plot "$out/engine.dat" using 2:xtic(1)
set title "Shader-core interpreter on the host"
set ylabel "million bundles / s"
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
