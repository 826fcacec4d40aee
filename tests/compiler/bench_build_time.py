#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build time against source size (part of `make bench`): the host
sleipnir-cc, disk cache off, on generated kernels (gen_kernel.py) of
64 to 4096 lines of straight-line code, of many small loops and of a
CLBlast-GEMM-like body. Per point: wall seconds, CPU seconds of the whole
pipeline (sleipnir-cc with clang, opt and llvm-spirv, which run one after
the other, so this is the wall time of an idle machine) and the ratio
cpu(2N) / cpu(N).

    bench_build_time.py SLEIPNIR_CC OUT.json
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_kernel  # noqa: E402

SHAPES = ("straight", "loops", "gemm", "calls")
SIZES = (64, 128, 256, 512, 1024, 2048, 4096)
# Built-in calls inline libclc's code (a few hundred instructions each):
# their kernels stop at 1024 lines to keep the run under a minute.
MAX_LINES = {"calls": 1024}
GOAL_SECONDS = 5.0          # a 4096-line kernel
GOAL_RATIO = 2.5            # "a little more than doubles"


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def build(cc, src, out):
    env = dict(os.environ, SLEIPNIR_COMPILER_CACHE="off")
    cpu0, t0 = children_cpu(), time.monotonic()
    p = subprocess.run([cc, src, "-o", out], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    wall, cpu = time.monotonic() - t0, children_cpu() - cpu0
    if p.returncode:
        sys.exit(f"{src}: sleipnir-cc failed:\n{p.stderr}")
    return wall, cpu


def main():
    cc, out_json = sys.argv[1], sys.argv[2]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for shape in SHAPES:
            prev = None
            for n in SIZES:
                if n > MAX_LINES.get(shape, n):
                    break
                lines = getattr(gen_kernel, shape)(n)
                src = os.path.join(tmp, f"{shape}-{n}.cl")
                with open(src, "w") as f:
                    f.write("\n".join(lines) + "\n")
                wall, cpu = build(cc, src, os.path.join(tmp, "k.bin"))
                r = {"shape": shape, "lines": len(lines),
                     "wall_seconds": round(wall, 3),
                     "cpu_seconds": round(cpu, 3),
                     "ratio": round(cpu / prev, 2) if prev else None}
                prev = cpu
                results.append(r)
                print(f'  {shape:9s} {r["lines"]:5d} lines '
                      f'{cpu:7.2f} s cpu {wall:7.2f} s wall'
                      + (f'  x{r["ratio"]:.2f}' if r["ratio"] else ""),
                      flush=True)
    largest = [r for r in results if r["lines"] >= SIZES[-1] - 16]
    ratios = [r["ratio"] for r in results if r["ratio"] is not None]
    res = {
        "benchmark": "build_time",
        "description": "host sleipnir-cc (release, disk cache off) on "
                       "generated kernels (tests/compiler/gen_kernel.py): "
                       "cpu_seconds of the whole pipeline (clang, opt, "
                       "llvm-spirv and ours, run one after the other), "
                       "wall_seconds as measured, ratio = cpu(2N)/cpu(N)",
        "goal": f"4096 lines under {GOAL_SECONDS:g} s; doubling the size at "
                f"most {GOAL_RATIO:g}x the time",
        "goal_met": bool(largest) and
                    all(r["cpu_seconds"] < GOAL_SECONDS for r in largest) and
                    all(x <= GOAL_RATIO for x in ratios),
        "results": results,
    }
    with open(out_json, "w") as f:
        json.dump(res, f, indent=2)
    print(f'  goal ({res["goal"]}): '
          f'{"met" if res["goal_met"] else "not met"}')


if __name__ == "__main__":
    main()
