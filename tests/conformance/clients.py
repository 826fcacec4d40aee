#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs Debian's OpenCL clients and prints one record per test.

    clients.py piglit [--timeout S] [--jobs N] [--tests FILE]
    clients.py clblast [--timeout S] ROUTINE...
    clients.py clpeak [--timeout S] [--full] [TEST...]
    clients.py pyopencl [--timeout S] [CHECK...]

The same script runs in the guest (tests/board --conformance, on Sleipnir)
and on the host (pocl, the reference), so both sides run the clients the
same way. Every result is a line "@@conformance " + JSON: suite, name,
result (pass, fail, skip, crash, timeout), time in seconds, and for a test
that did not pass the tail of its output. scripts/conformance.py collects
them.
"""

import argparse
import bz2
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_TAIL = 4000


def emit(suite, name, result, seconds=None, out="", **extra):
    rec = {"suite": suite, "name": name, "result": result}
    if seconds is not None:
        rec["time"] = round(seconds, 2)
    if out and result != "pass":
        rec["out"] = out[-OUT_TAIL:]
    rec.update(extra)
    print("@@conformance " + json.dumps(rec), flush=True)


def run(cmd, timeout, **kw):
    """(status, output, seconds); status None on a timeout."""
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL, timeout=timeout, **kw)
        return p.returncode, p.stdout.decode("utf-8", "replace"), time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode("utf-8", "replace")
        return None, out, time.monotonic() - start


# ---- piglit -----------------------------------------------------------------

def piglit(args):
    exe = shutil.which("piglit")
    if not exe:
        sys.exit("clients.py: no piglit on PATH")
    results = tempfile.mkdtemp(prefix="piglit-cl-")
    cmd = [exe, "run", "-l", "verbose", "--timeout", str(args.timeout),
           "-j", str(args.jobs)]
    if args.jobs == 1:
        cmd.append("-1")
    if args.tests:
        # Exact names, one per line (# comments allowed): piglit's -t
        # takes regular expressions.
        names = [l.split("#")[0].strip() for l in open(args.tests)]
        names = [n for n in names if n]
        cmd += ["--test-list", _test_list(names, results)]
    run_dir = os.path.join(results, "run")
    cmd += ["cl", run_dir]
    env = dict(os.environ, PIGLIT_COMPRESSION="none")
    start = time.monotonic()
    emitted, names_done = set(), set()

    def emit_finished():
        # piglit's json backend keeps one file per test under tests/ until
        # the run ends (first "incomplete", then the result): each result
        # is printed as soon as it is there, so a run cut short (a board
        # timeout) still has every finished test with its output.
        for f in glob.glob(os.path.join(run_dir, "tests", "*.json")):
            if f in emitted:
                continue
            try:
                data = json.load(open(f))
            except (ValueError, OSError):
                continue
            for name, t in data.items():
                if t.get("result") == "incomplete":
                    break
                emitted.add(f)
                names_done.add(name)
                _emit_piglit(name, t)

    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.DEVNULL)
    while proc.poll() is None:
        time.sleep(2)
        emit_finished()
    print(f"@@piglit-exit {proc.returncode} after {time.monotonic() - start:.0f} s", flush=True)
    emit_finished()
    path = os.path.join(run_dir, "results.json")
    if os.path.exists(path):
        # The last tests may have gone into results.json before a poll.
        for name, t in sorted(json.load(open(path))["tests"].items()):
            if name not in names_done:
                _emit_piglit(name, t)
    shutil.rmtree(results, ignore_errors=True)


def _emit_piglit(name, t):
    out = (t.get("out") or "") + (t.get("err") or "")
    # The "PIGLIT: {subtest...}" lines go into subtests, not the output:
    # the subtests that did not pass say what failed.
    bad = [f"subtest {k}: {v}" for k, v in (t.get("subtests") or {}).items()
           if v not in ("pass", "skip")]
    if bad:
        out += "\n" + "\n".join(bad)
    tm = t.get("time") or {}
    secs = (tm.get("end", 0) - tm.get("start", 0)) if isinstance(tm, dict) else None
    result = t.get("result", "fail")
    if result in ("dmesg-warn", "dmesg-fail", "warn"):
        result = "fail" if result == "dmesg-fail" else "pass"
    emit("piglit", name, result, secs, out, returncode=t.get("returncode"))


def _test_list(names, folder):
    path = os.path.join(folder, "tests.txt")
    with open(path, "w") as f:
        f.write("\n".join(names) + "\n")
    return path


# ---- CLBlast ----------------------------------------------------------------

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BLOCK = re.compile(r"Starting tests for the '(\w+)' routine")
TOTALS = re.compile(r"^\s*(\d+) test\(s\) (passed|skipped|failed)")


def clblast(args):
    for routine in args.routines:
        exe = shutil.which(f"clblast_test_{routine}")
        if not exe:
            emit("clblast", routine, "fail", 0, f"no clblast_test_{routine}")
            continue
        # -cblas 1 -clblas 0: Netlib's CPU BLAS is the reference. Without
        # -full_test the routines run at CLBlast's small default sizes.
        status, out, secs = run([exe, "-cblas", "1", "-clblas", "0"], args.timeout)
        out = ANSI.sub("", out)
        # One record per precision the binary tests (SAXPY, DAXPY, CAXPY...).
        blocks = re.split(r"(?=\* Running on OpenCL device)", out)
        seen = 0
        for block in blocks:
            m = BLOCK.search(block)
            if not m:
                continue
            counts = {k: 0 for k in ("passed", "skipped", "failed")}
            done = False
            for line in block.splitlines():
                t = TOTALS.match(line)
                if t:
                    counts[t.group(2)] = int(t.group(1))
                    done = True
            seen += 1
            name = m.group(1)
            if "All tests skipped" in block:
                result = "skip"  # e.g. "Unsupported precision": no fp64 or fp16
            elif not done:
                result = "timeout" if status is None else "crash"
            elif counts["failed"]:
                result = "fail"
            elif counts["passed"]:
                result = "pass"
            else:
                result = "skip"
            emit("clblast", name, result, None, block, counts=counts)
        if status is None or (status != 0 and not seen):
            emit("clblast", routine, "timeout" if status is None else "crash", secs, out)
        else:
            emit("clblast", routine, "pass" if status == 0 else "fail", secs, out,
                 role="binary")


# ---- clpeak -----------------------------------------------------------------

CLPEAK_TESTS = ["global-bandwidth", "compute-sp", "compute-dp", "compute-integer",
                "compute-intfast", "transfer-bandwidth", "kernel-latency"]
SECTION = re.compile(r"^    (\S.*\S)\s*\(([^)]+)\)\s*$")
FIGURE = re.compile(r"^\s+(\S.*?)\s*:\s*([0-9.]+)\s*(\S+)?\s*$")
SKIPPED = re.compile(r"(?i)skipped|not supported|no .* support")


# clpeak 1.1.2 sizes every test by the device's limits and has no option to
# choose them: a compute test launches CL_DEVICE_MAX_COMPUTE_UNITS * 2048
# groups of CL_DEVICE_MAX_WORK_ITEM_SIZES[0] work-items (2M of them on a
# Mali-T860 MP4), 31 times per vector width, which under emulation runs for
# hours. In the guest, clGetDeviceInfo reports capped limits to clpeak alone
# (tests/guest/cl_limits.c, preloaded), so each test runs on fewer work-items
# and finishes; the kernels and the runtime are unchanged. --full leaves the
# limits alone: every launch completes (no model watchdog, the board's
# 30 min chain timeout), but a compute test takes hours.
# On the host simulator scripts/conformance.py names the host build's.
CL_LIMITS_SHIM = os.environ.get("SLEIPNIR_CL_LIMITS_SHIM", "/opt/sleipnir/lib/cl_limits.so")
CLPEAK_LIMITS = "compute_units=1,work_group=8,mem_alloc=4194304"


# sleipnir.ko logs every chain that does not run to its end (a fault, a
# timeout, a cancellation): clpeak never checks an event's status, so a
# figure it prints is only worth something when no such line appeared
# while it ran. The host simulator prints the same lines on stderr
# ("sleipnir-sim: js0: ...", with SLEIPNIR_SIM_LOG set), into the output.
CHAIN_FAILED = re.compile(r"sleipnir(?: |-sim: ).*?js\d+: chain at 0x[0-9a-f]+ .*"
                          r"(failed with|overran|cancelled|stopped|not run)")


def kernel_log():
    """The kernel's log buffer (klogctl, as dmesg reads it), or None when
    it cannot be read (not root)."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    size = libc.klogctl(10, None, 0)   # SYSLOG_ACTION_SIZE_BUFFER
    if size <= 0:
        return None
    buf = ctypes.create_string_buffer(size)
    n = libc.klogctl(3, buf, size)      # SYSLOG_ACTION_READ_ALL
    return None if n < 0 else buf.raw[:n].decode("utf-8", "replace")


def failed_chains():
    """The kernel log's lines about chains that did not complete, or None."""
    log = kernel_log()
    return None if log is None else [l for l in log.splitlines() if CHAIN_FAILED.search(l)]


def clpeak(args):
    exe = shutil.which("clpeak")
    env = dict(os.environ)
    if args.full:
        print("clpeak: the device's own limits (full default sizes)", flush=True)
    elif os.path.exists(CL_LIMITS_SHIM):
        env["LD_PRELOAD"] = CL_LIMITS_SHIM
        env["SLEIPNIR_CL_LIMITS"] = CLPEAK_LIMITS
        print(f"clpeak: limits capped ({CLPEAK_LIMITS})", flush=True)
    for test in args.tests or CLPEAK_TESTS:
        before = failed_chains()
        status, out, secs = run([exe, f"--{test}"], args.timeout, env=env)
        after = failed_chains()
        # Lines carry their time stamp, so new ones are not in before.
        seen = set(before or [])
        lost = [l for l in after or [] if l not in seen] if before is not None else []
        lost += [l for l in out.splitlines() if CHAIN_FAILED.search(l)]
        figures = []
        section, unit = None, None
        started = False
        for line in out.splitlines():
            if line.strip().startswith("Clock frequency"):
                started = True
                continue
            if not started:
                continue
            s = SECTION.match(line)
            if s:
                section, unit = s.group(1), s.group(2)
                continue
            f = FIGURE.match(line)
            if f:
                if line.startswith("      ") and section:
                    figures.append([f"{section}: {f.group(1)}", float(f.group(2)), unit])
                else:
                    figures.append([f.group(1), float(f.group(2)), f.group(3) or ""])
        if lost:
            out += "\nlaunches that did not complete (kernel log):\n" + "\n".join(lost)
        if status is None:
            result = "timeout"
        elif status != 0:
            result = "crash" if status < 0 else "fail"
        elif lost:
            # Its figures include launches that did not run to the end.
            result = "fail"
        elif figures:
            result = "pass"
        elif SKIPPED.search(out):
            result = "skip"
        else:
            result = "fail"
        emit("clpeak", test, result, secs, out, figures=figures)


# ---- PyOpenCL ---------------------------------------------------------------

def pyopencl(args):
    script = os.path.join(HERE, "pyopencl_checks.py")
    names = subprocess.run([sys.executable, script, "--list"], stdout=subprocess.PIPE,
                           check=True, text=True).stdout.split()
    wanted = args.checks or names
    start = 0
    # The checks share one process (importing numpy and PyOpenCL is slow
    # under emulation); a check that kills the process is recorded as a
    # crash and the run goes on after it.
    while start < len(names):
        cmd = [sys.executable, script, "--from", str(start)] + [n for n in wanted]
        t0 = time.monotonic()
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, timeout=args.timeout)
            out, status = p.stdout.decode("utf-8", "replace"), p.returncode
        except subprocess.TimeoutExpired as e:
            out, status = (e.stdout or b"").decode("utf-8", "replace"), None
        running, last_out = None, []
        done = set()
        for line in out.splitlines():
            if line.startswith("@@running "):
                running = line.split()[1]
                last_out = []
            elif line.startswith("@@conformance "):
                print(line, flush=True)
                done.add(json.loads(line[len("@@conformance "):])["name"])
                running = None
            else:
                last_out.append(line)
        if running is None:
            if status not in (0, None):
                emit("pyopencl", "pyopencl_checks.py", "crash", time.monotonic() - t0, out)
            break
        emit("pyopencl", running, "timeout" if status is None else "crash",
             time.monotonic() - t0, "\n".join(last_out) + f"\n(exit status {status})")
        start = names.index(running) + 1


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="suite", required=True)
    p = sub.add_parser("piglit")
    p.add_argument("--timeout", type=int, default=300)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--tests", help="file of test names, one per line")
    p = sub.add_parser("clblast")
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("routines", nargs="+")
    p = sub.add_parser("clpeak")
    p.add_argument("--timeout", type=int, default=900)
    p.add_argument("--full", action="store_true",
                   help="the device's own limits: clpeak's full default sizes (hours under emulation)")
    p.add_argument("tests", nargs="*")
    p = sub.add_parser("pyopencl")
    p.add_argument("--timeout", type=int, default=1800)
    p.add_argument("checks", nargs="*")
    args = parser.parse_args()
    {"piglit": piglit, "clblast": clblast, "clpeak": clpeak, "pyopencl": pyopencl}[args.suite](args)


if __name__ == "__main__":
    main()
