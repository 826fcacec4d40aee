#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Generates OpenCL C kernels of about N source lines, for measuring how the
compiler's build time grows with source size (scripts/bench.sh, and by hand
when profiling a pass).

    gen_kernel.py SHAPE LINES [-o file.cl]

Shapes (each scales its body to the requested line count):
  straight  straight-line float and int arithmetic over many live values
  loops     many small loops with a run-time trip count
  nested    doubly nested loops with global loads and stores
  gemm      a CLBlast-GEMM-like kernel: __local tiles, barriers, and an
            unrolled register-tile multiply-accumulate body
  branchy   if/else diamonds on run-time conditions between arithmetic
  calls     a chain of libclc built-in calls (exp, log, sin, pow...), each
            inlined with its helpers

The kernels are deterministic (a fixed pseudo-random sequence) and valid
OpenCL C 1.2; none of them is meant to compute anything useful.
"""
import argparse
import sys

SHAPES = ("straight", "loops", "nested", "gemm", "branchy", "calls")


class Rng:
    """A small LCG so the output never depends on Python's random."""

    def __init__(self, seed):
        self.s = seed & 0xFFFFFFFF

    def next(self, n):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.s >> 8) % n


def straight(lines):
    r = Rng(1)
    live = 24
    out = ["__kernel void straight(__global float *out, __global int *iout,",
           "                       __global const float *in,",
           "                       __global const int *iin, float k)",
           "{",
           "\tint gid = get_global_id(0);"]
    for i in range(live):
        out.append(f"\tfloat f{i} = in[gid * {live} + {i}];")
        out.append(f"\tint n{i} = iin[gid * {live} + {i}];")
    body = lines - len(out) - 2 * live - 1
    for _ in range(max(body, 1)):
        d, a, b = r.next(live), r.next(live), r.next(live)
        kind = r.next(6)
        if kind == 0:
            out.append(f"\tf{d} = f{a} * f{b} + k;")
        elif kind == 1:
            out.append(f"\tf{d} = mad(f{a}, f{b}, f{d});")
        elif kind == 2:
            out.append(f"\tf{d} = f{a} - f{b} * (float)n{r.next(live)};")
        elif kind == 3:
            out.append(f"\tn{d} = n{a} * {r.next(97) + 3} + (n{b} >> 3);")
        elif kind == 4:
            out.append(f"\tn{d} = (n{a} ^ n{b}) + {r.next(1000)};")
        else:
            out.append(f"\tf{d} = fmax(f{a}, f{b}) * 0.5f;")
    for i in range(live):
        out.append(f"\tout[gid * {live} + {i}] = f{i};")
        out.append(f"\tiout[gid * {live} + {i}] = n{i};")
    out.append("}")
    return out


def loops(lines):
    r = Rng(2)
    out = ["__kernel void loops(__global float *out,",
           "                    __global const float *in, int n)",
           "{",
           "\tint gid = get_global_id(0);",
           "\tfloat acc = 0.0f;",
           "\tint iacc = 0;"]
    i = 0
    while len(out) < lines - 3:
        stride, off = r.next(7) + 1, r.next(64)
        if r.next(2):
            out += [f"\tfor (int j{i} = 0; j{i} < n; j{i}++) {{",
                    f"\t\tacc = acc * 0.5f + in[gid + j{i} * {stride} + {off}];",
                    "\t}"]
        else:
            out += [f"\tfor (int j{i} = n; j{i} > 0; j{i} -= {stride}) {{",
                    f"\t\tiacc += (int)in[j{i} + {off}] * j{i};",
                    f"\t\tacc += (float)(iacc & {r.next(255) + 1});",
                    "\t}"]
        i += 1
    out += ["\tout[gid] = acc + (float)iacc;", "}"]
    return out


def nested(lines):
    r = Rng(3)
    out = ["__kernel void nested(__global float *out,",
           "                     __global const float *a,",
           "                     __global const float *b, int n, int m)",
           "{",
           "\tint gid = get_global_id(0);"]
    i = 0
    while len(out) < lines - 1:
        s1, s2 = r.next(5) + 1, r.next(5) + 1
        out += [f"\tfor (int i{i} = 0; i{i} < n; i{i}++) {{",
                f"\t\tfloat s{i} = a[gid + i{i} * {s1}];",
                f"\t\tfor (int j{i} = 0; j{i} < m; j{i}++) {{",
                f"\t\t\ts{i} = mad(s{i}, b[i{i} * m + j{i}], {r.next(9)}.0f);",
                f"\t\t\tout[(gid + j{i} * {s2}) & 1023] += s{i};",
                "\t\t}",
                f"\t\tout[gid + i{i}] = s{i};",
                "\t}"]
        i += 1
    out.append("}")
    return out


def gemm(lines):
    """C = A * B with TS x TS __local tiles and a WPT x WPT register tile
    per work-item, the k loop of each tile unrolled by hand, as CLBlast's
    xgemm does after its preprocessor has expanded the loops."""
    wpt = 4
    out = ["#define TS 16",
           f"#define WPT {wpt}",
           "__kernel void gemm(int M, int N, int K,",
           "                   __global const float *A,",
           "                   __global const float *B,",
           "                   __global float *C)",
           "{",
           "\t__local float As[TS][TS];",
           "\t__local float Bs[TS][TS];",
           "\tint lr = get_local_id(0), lc = get_local_id(1);",
           "\tint gr = get_group_id(0) * TS * WPT + lr;",
           "\tint gc = get_group_id(1) * TS * WPT + lc;"]
    for m in range(wpt):
        for n in range(wpt):
            out.append(f"\tfloat acc{m}_{n} = 0.0f;")
    out += ["\tfor (int t = 0; t < K / TS; t++) {",
            "\t\tAs[lc][lr] = A[(t * TS + lc) * M + gr];",
            "\t\tBs[lc][lr] = B[gc * K + t * TS + lr];",
            "\t\tbarrier(CLK_LOCAL_MEM_FENCE);"]
    tail = wpt * wpt + 2
    k = 0
    while len(out) < lines - tail - 2:
        kk = k % 16
        for m in range(wpt):
            out.append(f"\t\tfloat a{m}_{k} = As[{kk}][(lr + {m * 4}) & 15];")
        for n in range(wpt):
            out.append(f"\t\tfloat b{n}_{k} = Bs[(lc + {n * 4}) & 15][{kk}];")
        for m in range(wpt):
            for n in range(wpt):
                out.append(f"\t\tacc{m}_{n} = mad(a{m}_{k}, b{n}_{k}, "
                           f"acc{m}_{n});")
        k += 1
    out += ["\t\tbarrier(CLK_LOCAL_MEM_FENCE);", "\t}"]
    for m in range(wpt):
        for n in range(wpt):
            out.append(f"\tC[(gc + {n}) * M + gr + {m}] = acc{m}_{n};")
    out.append("}")
    return out


def branchy(lines):
    r = Rng(5)
    out = ["__kernel void branchy(__global float *out,",
           "                      __global const float *in, int n)",
           "{",
           "\tint gid = get_global_id(0);",
           "\tfloat x = in[gid], y = in[gid + 1], z = 0.0f;"]
    while len(out) < lines - 2:
        c = r.next(100)
        out += [f"\tif (x > {c}.0f + y) {{",
                f"\t\tx = x * 0.75f + (float)(n & {r.next(31) + 1});",
                "\t} else {",
                f"\t\ty = y + x * {r.next(9) + 1}.0f;",
                "\t}",
                "\tz = fmin(z + x, y);"]
    out += ["\tout[gid] = x + y + z;", "}"]
    return out


def calls(lines):
    fns = ("exp", "log", "sin", "cos", "tanh", "atan", "cbrt", "pow")
    out = ["__kernel void calls(__global float *out,",
           "                    __global const float *in)",
           "{",
           "\tint gid = get_global_id(0);",
           "\tfloat x = in[gid], y = in[gid + 1];"]
    i = 0
    while len(out) < lines - 2:
        f = fns[i % len(fns)]
        if f == "pow":
            out.append(f"\tx = pow(x, y) + {i % 5}.0f;")
        else:
            out.append(f"\tx = {f}(x) + y * {i % 7 + 1}.0f;")
        out.append("\ty = y * 0.5f + x;")
        i += 1
    out += ["\tout[gid] = x + y;", "}"]
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("shape", choices=SHAPES)
    p.add_argument("lines", type=int)
    p.add_argument("-o", "--output")
    a = p.parse_args()
    text = "\n".join(globals()[a.shape](a.lines)) + "\n"
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
