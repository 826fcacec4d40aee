#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: runs the benchmarks and writes build/bench/results.json and
# build/bench/results.png: the shader-core interpreter's speed on the host
# (bundles per second), and the compiler's code on the corpus of OpenCL C
# kernels (tests/compiler/bench_compiler.c: static figures per kernel,
# cycles per element measured on the model, and the scalar / float4 twins'
# arithmetic-cycle ratios), all built without sanitizers.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"
out=build/bench
mkdir -p "$out"

[ -e build/release/build.ninja ] ||
	meson setup build/release --buildtype=release >/dev/null
ninja -C build/release tests/model/bench_shader \
	tests/compiler/bench_compiler >build/release.log 2>&1 ||
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
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
shader = json.load(open(f"{out}/shader.json"))
compiler = json.load(open(f"{out}/compiler.json"))
json.dump({"benchmarks": [shader, compiler]},
          open(f"{out}/results.json", "w"), indent=2)
with open(f"{out}/twins.dat", "w") as f:
    for t in compiler["twins"]:
        f.write(f'{t["scalar"].replace("_scalar", "")} {t["ratio"]:.3f}\n')
PY
gnuplot <<GP
set terminal pngcairo size 640,800
set output "$out/results.png"
set multiplot layout 2,1
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
unset multiplot
GP
say "results: $out/results.json, $out/results.png"
