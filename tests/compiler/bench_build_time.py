#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build time against source size (part of `make bench`): the host
sleipnir-cc, disk cache off, on generated kernels (gen_kernel.py) of
64 to 4096 lines of straight-line code, of many small loops and of a
CLBlast-GEMM-like body. Per point: wall seconds, CPU seconds of the whole
pipeline (sleipnir-cc with clang, opt and llvm-spirv, which run one after
the other, so this is the wall time of an idle machine), the ratio
cpu(2N) / cpu(N) and the peak resident memory; the best of up to three
builds per point.

    bench_build_time.py SLEIPNIR_CC OUT.json
"""
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_kernel  # noqa: E402

SHAPES = ("straight", "loops", "gemm", "calls")
SIZES = (64, 128, 256, 512, 1024, 2048, 4096)
# Built-in calls inline libclc's code (a few hundred instructions each):
# their kernels stop at 2048 lines (about 4 s and 500 MiB) to keep the run
# short.
MAX_LINES = {"calls": 2048}
GOAL_SECONDS = 5.0          # a 4096-line kernel
REPEAT_CPU_SECONDS = 3.0    # repeat a point while its builds take less
GOAL_RATIO = 2.5            # "a little more than doubles"


def build(cc, src, out):
    """Wall and CPU seconds of one build, and the peak resident memory of
    sleipnir-cc or of the largest of the tools it ran (MiB)."""
    env = dict(os.environ, SLEIPNIR_COMPILER_CACHE="off")
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([cc, src, "-o", out], env=env,
                             stdout=subprocess.DEVNULL, stderr=err)
        _, status, ru = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - t0
        if p.returncode:
            err.seek(0)
            sys.exit(f"{src}: sleipnir-cc failed:\n"
                     f"{err.read().decode(errors='replace')}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024


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
                # The best of up to three builds (while they take under
                # 3 s together): on a shared machine the short ones
                # vary by tens of percent from run to run.
                runs = [build(cc, src, os.path.join(tmp, "k.bin"))]
                while (len(runs) < 3 and
                       sum(r[1] for r in runs) < REPEAT_CPU_SECONDS):
                    runs.append(build(cc, src, os.path.join(tmp, "k.bin")))
                wall, cpu, mib = min(runs, key=lambda r: r[1])
                r = {"shape": shape, "lines": len(lines),
                     "wall_seconds": round(wall, 3),
                     "cpu_seconds": round(cpu, 3),
                     "peak_mib": round(mib),
                     "ratio": round(cpu / prev, 2) if prev else None}
                prev = cpu
                results.append(r)
                print(f'  {shape:9s} {r["lines"]:5d} lines '
                      f'{cpu:7.2f} s cpu {wall:7.2f} s wall '
                      f'{mib:6.0f} MiB'
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
                       "wall_seconds as measured, ratio = cpu(2N)/cpu(N), "
                       "peak_mib the largest resident size of sleipnir-cc "
                       "or a tool it ran",
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
