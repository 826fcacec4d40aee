#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""PyOpenCL against numpy, for `make conformance`.

    pyopencl_checks.py [--list] [--from N] [NAME...]

Each check runs PyOpenCL's own code (arrays, reductions, scans,
ElementwiseKernel, ReductionKernel, every pyopencl.clrandom generator) on the
first device of the first platform and compares the result with numpy on the
CPU. One line per check: "@@conformance " and a JSON record with suite,
name, result (pass/fail) and, for a failure, the reason. A check that raises
fails with the exception; a crash of the whole process is noticed by the
caller (clients.py), which restarts after the check that crashed.
"""

import json
import math
import sys
import traceback

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clmath
import pyopencl.clrandom as clrandom
from pyopencl.algorithm import copy_if
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel

N = 1 << 14
CHECKS = []


def check(fn):
    CHECKS.append(fn)
    return fn


class Mismatch(Exception):
    pass


def close(name, got, want, rtol=1e-5, atol=1e-6):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        raise Mismatch(f"{name}: shape {got.shape}, numpy {want.shape}")
    if got.dtype.kind in "iub":
        bad = np.nonzero(got != want)[0] if got.ndim else ([0] if got != want else [])
    else:
        bad = np.nonzero(~np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True).ravel())[0]
    if len(bad):
        i = int(bad[0])
        g = got.ravel()[i] if got.ndim else got
        w = want.ravel()[i] if want.ndim else want
        raise Mismatch(f"{name}: {len(bad)} of {want.size} differ, first at {i}: {g!r}, numpy {w!r}")


def rng():
    return np.random.default_rng(1234)


def floats(n=N, lo=-10.0, hi=10.0):
    return rng().uniform(lo, hi, n).astype(np.float32)


def ints(n=N, lo=-1000, hi=1000):
    return rng().integers(lo, hi, n).astype(np.int32)


# ---- arrays -----------------------------------------------------------------

@check
def array_float_arithmetic(q):
    a, b = floats(), floats()[::-1].copy() + np.float32(20.5)
    da, db = cla.to_device(q, a), cla.to_device(q, b)
    close("a+b", (da + db).get(), a + b)
    close("a-b", (da - db).get(), a - b)
    close("a*b", (da * db).get(), a * b)
    close("a/b", (da / db).get(), a / b)
    close("2a+1", (2 * da + 1).get(), 2 * a + 1)
    close("-a", (-da).get(), -a)
    close("a**2", (da ** 2).get(), a ** 2, rtol=1e-4)
    close("abs(a)", abs(da).get(), abs(a))


@check
def array_int_arithmetic(q):
    a = ints()
    b = ints(lo=1, hi=77)
    da, db = cla.to_device(q, a), cla.to_device(q, b)
    close("a+b", (da + db).get(), a + b)
    close("a*b", (da * db).get(), a * b)
    close("a&b", (da & db).get(), a & b)
    close("a|b", (da | db).get(), a | b)
    close("a^b", (da ^ db).get(), a ^ b)
    close("-a", (-da).get(), -a)
    close("a-3", (da - 3).get(), a - 3)


@check
def array_math_functions(q):
    a = floats(lo=0.01, hi=8.0)
    da = cla.to_device(q, a)
    for name, f, ref, tol in (
            ("sin", clmath.sin, np.sin, 1e-5), ("cos", clmath.cos, np.cos, 1e-5),
            ("exp", clmath.exp, np.exp, 1e-5), ("log", clmath.log, np.log, 1e-5),
            ("sqrt", clmath.sqrt, np.sqrt, 1e-6), ("atan", clmath.atan, np.arctan, 1e-5),
            ("floor", clmath.floor, np.floor, 0), ("tanh", clmath.tanh, np.tanh, 1e-5)):
        close(name, f(da).get(), ref(a).astype(np.float32), rtol=tol, atol=1e-5)


@check
def array_compare_select(q):
    a, b = floats(), floats()[::-1].copy()
    da, db = cla.to_device(q, a), cla.to_device(q, b)
    close("a<b", (da < db).get().astype(bool), a < b)
    close("a==a", (da == da).get().astype(bool), a == a)
    close("maximum", cla.maximum(da, db).get(), np.maximum(a, b))
    close("minimum", cla.minimum(da, db).get(), np.minimum(a, b))
    close("if_positive", cla.if_positive(da, da, db).get(), np.where(a > 0, a, b))


@check
def array_create_copy_slice(q):
    close("arange", cla.arange(q, 0, N, 1, dtype=np.int32).get(), np.arange(N, dtype=np.int32))
    z = cla.zeros(q, N, np.float32)
    z.fill(3.5)
    close("fill", z.get(), np.full(N, 3.5, np.float32))
    a = floats()
    da = cla.to_device(q, a)
    close("slice", da[100:5000].get(), a[100:5000])
    close("astype", da.astype(np.int32).get(), a.astype(np.int32))
    close("reshape", da.reshape(128, N // 128).get(), a.reshape(128, N // 128))
    close("concatenate", cla.concatenate((da, da[:77])).get(), np.concatenate((a, a[:77])))
    idx = rng().integers(0, N, 999).astype(np.int32)
    close("take", cla.take(da, cla.to_device(q, idx)).get(), a[idx])
    c = da.copy()
    c[10:20] = 7.0
    ref = a.copy()
    ref[10:20] = 7.0
    close("setitem", c.get(), ref)


# ---- reductions --------------------------------------------------------------

@check
def reduction_float(q):
    a = floats(lo=-1.0, hi=1.0)
    da = cla.to_device(q, a)
    close("sum", cla.sum(da).get(), np.sum(a.astype(np.float64)), rtol=1e-4, atol=1e-3)
    close("max", cla.max(da).get(), a.max())
    close("min", cla.min(da).get(), a.min())
    b = floats(lo=-1.0, hi=1.0)[::-1].copy()
    close("dot", cla.dot(da, cla.to_device(q, b)).get(),
          np.dot(a.astype(np.float64), b.astype(np.float64)), rtol=1e-4, atol=1e-3)


@check
def reduction_int(q):
    a = ints()
    da = cla.to_device(q, a)
    close("sum", cla.sum(da).get(), np.int32(a.sum()))
    close("max", cla.max(da).get(), a.max())
    close("min", cla.min(da).get(), a.min())
    b = ints(lo=-7, hi=8)[::-1].copy()
    close("dot", cla.dot(da, cla.to_device(q, b)).get(), np.int32(np.dot(a, b)))


@check
def reduction_kernel_dot(q):
    krnl = ReductionKernel(q.context, np.float32, neutral="0",
                           reduce_expr="a+b", map_expr="x[i]*y[i]",
                           arguments="__global const float *x, __global const float *y")
    a, b = floats(lo=-1, hi=1), floats(lo=-1, hi=1)[::-1].copy()
    got = krnl(cla.to_device(q, a), cla.to_device(q, b)).get()
    close("dot", got, np.dot(a.astype(np.float64), b.astype(np.float64)), rtol=1e-4, atol=1e-3)


@check
def reduction_kernel_custom(q):
    # The largest |x| with its index packed: a map, a non-trivial reduce
    # and a preamble function.
    krnl = ReductionKernel(q.context, np.int32, neutral="-1",
                           reduce_expr="max(a, b)", map_expr="(int)abs(x[i]) * 65536 + (int)(i & 0xffff)",
                           arguments="__global const int *x")
    a = ints(n=1 << 12, lo=-30000, hi=30000)
    got = krnl(cla.to_device(q, a)).get()
    close("max|x|", got, np.max(np.abs(a).astype(np.int64) * 65536 + np.arange(a.size)).astype(np.int32))


# ---- scans -------------------------------------------------------------------

@check
def scan_inclusive(q):
    krnl = InclusiveScanKernel(q.context, np.int32, "a+b", "0")
    a = ints(lo=-50, hi=50)
    da = cla.to_device(q, a)
    krnl(da)
    close("inclusive", da.get(), np.cumsum(a).astype(np.int32))


@check
def scan_exclusive(q):
    krnl = ExclusiveScanKernel(q.context, np.int32, "a+b", "0")
    a = ints(lo=-50, hi=50)
    da = cla.to_device(q, a)
    krnl(da)
    close("exclusive", da.get(), (np.cumsum(a) - a).astype(np.int32))


@check
def scan_float_cumsum(q):
    a = floats(lo=0, hi=1)
    got = cla.cumsum(cla.to_device(q, a)).get()
    close("cumsum", got, np.cumsum(a.astype(np.float64)), rtol=1e-4, atol=1e-2)


@check
def scan_generic_segmented(q):
    krnl = GenericScanKernel(
        q.context, np.int32,
        arguments="__global const int *x, __global const int *seg, __global int *out",
        input_expr="x[i]", scan_expr="across_seg_boundary ? b : (a+b)", neutral="0",
        is_segment_start_expr="seg[i]", output_statement="out[i] = item;")
    a = ints(lo=0, hi=10)
    seg = (rng().random(N) < 0.01).astype(np.int32)
    seg[0] = 1
    out = cla.empty(q, N, np.int32)
    krnl(cla.to_device(q, a), cla.to_device(q, seg), out)
    want = np.empty(N, np.int32)
    acc = 0
    for i in range(N):
        acc = a[i] if seg[i] else acc + a[i]
        want[i] = acc
    close("segmented", out.get(), want)


@check
def scan_copy_if(q):
    a = ints()
    got, count, _ = copy_if(cla.to_device(q, a), "ary[i] % 3 == 0")
    n = int(count.get())
    close("copy_if", got.get()[:n], a[a % 3 == 0])


# ---- elementwise -------------------------------------------------------------

@check
def elementwise_linear_combination(q):
    krnl = ElementwiseKernel(q.context, "float a, float *x, float b, float *y, float *z",
                             "z[i] = a*x[i] + b*y[i]", "lin_comb")
    x, y = floats(), floats()[::-1].copy()
    dz = cla.empty(q, N, np.float32)
    krnl(np.float32(2.5), cla.to_device(q, x), np.float32(-0.75), cla.to_device(q, y), dz)
    close("lin_comb", dz.get(), np.float32(2.5) * x + np.float32(-0.75) * y)


@check
def elementwise_preamble_int(q):
    krnl = ElementwiseKernel(q.context, "int *x, uint *out",
                             "out[i] = mix_bits(x[i], i)", "mix_bits_kernel",
                             preamble="uint mix_bits(int v, uint i)"
                                      "{ return ((uint)v * 2654435761u) ^ (i << 3) ^ rotate((uint)v, 7u); }")
    x = ints()
    out = cla.empty(q, N, np.uint32)
    krnl(cla.to_device(q, x), out)
    v = x.astype(np.uint32).astype(np.uint64)
    i = np.arange(N, dtype=np.uint64)
    rot = ((v << 7) | (v >> 25)) & 0xffffffff
    want = (((v * 2654435761) & 0xffffffff) ^ ((i << 3) & 0xffffffff) ^ rot).astype(np.uint32)
    close("mix", out.get(), want)


@check
def elementwise_vector_types(q):
    krnl = ElementwiseKernel(q.context, "float4 *x, float *out",
                             "out[i] = dot(x[i], (float4)(1.0f, 2.0f, 3.0f, 4.0f))", "vdot")
    x = floats(n=4 * 4096).reshape(4096, 4)
    xv = np.empty(4096, cl.cltypes.float4)
    for k, c in enumerate("xyzw"):
        xv[c] = x[:, k]
    out = cla.empty(q, 4096, np.float32)
    krnl(cla.to_device(q, xv), out)
    close("vdot", out.get(), x @ np.array([1, 2, 3, 4], np.float32), rtol=1e-4, atol=1e-4)


# ---- clrandom ----------------------------------------------------------------

def ks_distance(a, b):
    """Two-sample Kolmogorov-Smirnov statistic."""
    a = np.sort(a.astype(np.float64))
    b = np.sort(b.astype(np.float64))
    xs = np.concatenate((a, b))
    cdf_a = np.searchsorted(a, xs, side="right") / a.size
    cdf_b = np.searchsorted(b, xs, side="right") / b.size
    return float(np.max(np.abs(cdf_a - cdf_b)))


def same_distribution(name, got, want):
    # Critical distance at alpha = 1e-6 for two samples of these sizes.
    limit = math.sqrt(-math.log(0.5e-6) / 2) * math.sqrt((got.size + want.size) / (got.size * want.size))
    d = ks_distance(got, want)
    if not np.all(np.isfinite(got)):
        raise Mismatch(f"{name}: non-finite values")
    if d > limit:
        raise Mismatch(f"{name}: KS distance to numpy's {d:.4f} > {limit:.4f} "
                       f"(mean {got.mean():.4f}, numpy {want.mean():.4f})")


def check_uniform(name, got, a, b):
    if got.min() < a or got.max() >= b:
        raise Mismatch(f"{name}: value outside [{a}, {b}): {got.min()} .. {got.max()}")
    same_distribution(name, got, rng().uniform(a, b, got.size))


def check_normal(name, got, mu, sigma):
    same_distribution(name, got, rng().normal(mu, sigma, got.size))


def check_int_uniform(name, got, a, b):
    if got.min() < a or got.max() >= b:
        raise Mismatch(f"{name}: value outside [{a}, {b}): {got.min()} .. {got.max()}")
    counts = np.bincount(got - a, minlength=b - a)
    expect = got.size / (b - a)
    chi2 = float(np.sum((counts - expect) ** 2 / expect))
    # 99.9999th percentile of chi-square with b-a-1 = 15 degrees of freedom.
    if chi2 > 60.0:
        raise Mismatch(f"{name}: chi-square {chi2:.1f} over {b - a} bins (limit 60)")


def ranlux(q, seed):
    # Deprecated by PyOpenCL, still shipped: a generator all the same.
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return clrandom.RanluxGenerator(q, seed=seed)


def generator_checks(make):
    def uniform_float(q):
        gen = make(q)
        got = gen.uniform(q, 1 << 16, np.float32, a=-2.0, b=3.0).get()
        check_uniform("uniform float32", got, -2.0, 3.0)

    def normal_float(q):
        gen = make(q)
        got = gen.normal(q, 1 << 16, np.float32, mu=1.5, sigma=2.0).get()
        check_normal("normal float32", got, 1.5, 2.0)

    def uniform_int(q):
        gen = make(q)
        got = gen.uniform(q, 1 << 16, np.int32, a=10, b=26).get()
        check_int_uniform("uniform int32", got, 10, 26)

    def seeded(q):
        a = make(q, seed=42).uniform(q, 4096, np.float32).get()
        b = make(q, seed=42).uniform(q, 4096, np.float32).get()
        c = make(q, seed=43).uniform(q, 4096, np.float32).get()
        close("same seed, same numbers", a, b, rtol=0, atol=0)
        if np.array_equal(a, c):
            raise Mismatch("another seed gives the same numbers")

    return uniform_float, normal_float, uniform_int, seeded


for _prefix, _make in (
        ("philox", lambda q, seed=1: clrandom.PhiloxGenerator(q.context, seed=seed)),
        ("threefry", lambda q, seed=1: clrandom.ThreefryGenerator(q.context, seed=seed)),
        ("ranlux", lambda q, seed=1: ranlux(q, seed))):
    for _fn in generator_checks(_make):
        def _bound(q, fn=_fn):
            fn(q)
        _bound.__name__ = f"clrandom_{_prefix}_{_fn.__name__}"
        CHECKS.append(_bound)


@check
def clrandom_rand(q):
    got = clrandom.rand(q, 1 << 16, np.float32, a=0.0, b=1.0).get()
    check_uniform("rand", got, 0.0, 1.0)


@check
def clrandom_fill_rand(q):
    ary = cla.empty(q, 1 << 16, np.float32)
    clrandom.fill_rand(ary, q, a=-1.0, b=1.0)
    check_uniform("fill_rand", ary.get(), -1.0, 1.0)


def report(name, result, reason=""):
    rec = {"suite": "pyopencl", "name": name, "result": result}
    if reason:
        rec["out"] = reason[-3000:]
    print("@@conformance " + json.dumps(rec), flush=True)


def main():
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        for fn in CHECKS:
            print(fn.__name__)
        return
    start = 0
    if args[:1] == ["--from"]:
        start = int(args[1])
        args = args[2:]
    platform = cl.get_platforms()[0]
    device = platform.get_devices()[0]
    ctx = cl.Context([device])
    q = cl.CommandQueue(ctx)
    for fn in CHECKS[start:]:
        if args and fn.__name__ not in args:
            continue
        print(f"@@running {fn.__name__}", flush=True)
        try:
            fn(q)
            report(fn.__name__, "pass")
        except Mismatch as e:
            report(fn.__name__, "fail", str(e))
        except Exception:
            report(fn.__name__, "fail", traceback.format_exc())


if __name__ == "__main__":
    main()
