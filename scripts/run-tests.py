#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs every Sleipnir test suite and prints one closing line.

Host suites are the meson tests of build/host (built with ASan and UBSan);
guest and board suites are the commands listed in tests/suites, most of which
boot the board through tests/board. A suite reports its own counts with a line
"NAME: N passed, N failed[, N skipped]" (tests/harness/check.h prints it); a
suite that exits non-zero without reporting a failure counts one failure, so a
crash is never lost. The last line is "N passed, N failed[, N skipped]" and the
exit status is non-zero when anything failed.
"""

import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUMMARY = re.compile(r"^(?:(\S+): )?(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$")
START = float(os.environ.get("SLEIPNIR_START", time.time()))


def say(msg):
    print(f"[{int(time.time() - START):4d}s] {msg}", flush=True)


class Totals:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0
        self.failed_suites = []

    def add(self, name, output, status):
        p = f = s = 0
        seen = False
        for line in output.splitlines():
            m = SUMMARY.match(line.strip())
            if m:
                seen = True
                p += int(m.group(2))
                f += int(m.group(3))
                s += int(m.group(4) or 0)
        if not seen:
            # A suite without a count is one test: its exit status decides.
            p, f = (1, 0) if status == 0 else (0, 1)
        elif status != 0 and f == 0:
            f = 1
        self.passed += p
        self.failed += f
        self.skipped += s
        if f:
            self.failed_suites.append(name)
        line = f"  {name}: {p} passed, {f} failed" + (f", {s} skipped" if s else "")
        print(line, flush=True)


def host_suites(totals):
    build = os.path.join(ROOT, "build", "host")
    say("host suites (ASan + UBSan)")
    proc = subprocess.run(["meson", "test", "-C", build, "--no-rebuild", "--print-errorlogs"],
                          capture_output=True, text=True)
    log = os.path.join(build, "meson-logs", "testlog.json")
    if not os.path.exists(log):
        print(proc.stdout + proc.stderr)
        totals.add("host", "", 1)
        return
    results = [json.loads(line) for line in open(log) if line.strip()]
    for r in results:
        output = (r.get("stdout") or "") + (r.get("stderr") or "")
        ok = r["result"] in ("OK", "EXPECTEDFAIL", "SKIP")
        if not ok:
            print(f"--- {r['name']}: {r['result']}\n{output[-4000:]}", flush=True)
        totals.add(r["name"], output, 0 if ok else 1)


def run_suite(name, cmd):
    say(f"suite {name}")
    started = time.time()
    proc = subprocess.run(cmd, shell=True, cwd=ROOT, capture_output=True,
                          text=True, stdin=subprocess.DEVNULL)
    return proc.stdout + proc.stderr, proc.returncode, time.time() - started


def listed_suites(totals):
    """Two suites at a time (SLEIPNIR_CHECK_JOBS): a board boot leaves a
    host core idle much of the time (its boot, the guest's sleeps and job
    timeouts), so two overlap well on a two-core machine. Results are
    reported in the list's order."""
    path = os.path.join(ROOT, "tests", "suites")
    suites = []
    for raw in open(path):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, cmd = line.partition(":")
        suites.append((name.strip(), cmd.strip()))
    jobs = max(1, int(os.environ.get("SLEIPNIR_CHECK_JOBS", "2")))
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = [(name, pool.submit(run_suite, name, cmd)) for name, cmd in suites]
        for name, run in runs:
            output, status, secs = run.result()
            if status != 0:
                print(output[-6000:], flush=True)
            totals.add(f"{name} ({secs:.0f} s)", output, status)


def main():
    totals = Totals()
    only = sys.argv[1:]
    if not only or "host" in only:
        host_suites(totals)
    if not only or "guest" in only:
        listed_suites(totals)
    if totals.failed_suites:
        print("failed suites: " + ", ".join(totals.failed_suites))
    line = f"{totals.passed} passed, {totals.failed} failed"
    if totals.skipped:
        line += f", {totals.skipped} skipped"
    print(line, flush=True)
    sys.exit(1 if totals.failed else 0)


if __name__ == "__main__":
    main()
