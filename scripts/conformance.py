#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make conformance: Debian's OpenCL clients on Sleipnir, pocl beside them.

    scripts/conformance.py [--suite NAME]... [--no-host] [--no-guest] [--no-sim]
    scripts/conformance.py --sim          (the simulator alone: make conformance-sim)
    scripts/conformance.py --quick        (the make check subset)
    scripts/conformance.py --report       (docs/conformance.md again, from
                                           docs/conformance.json)

Each suite (piglit's CL tests, CLBlast's tests, clpeak, the PyOpenCL checks
of tests/conformance/) runs through tests/conformance/clients.py three
times: in the guest (tests/board --conformance, Sleipnir), on the host on
the simulated Mali (userspace/sim: the same ICD and compiler, built for the
host, drive the GPU model in each client's process; build/release's ICD,
`make sim`) and on the host against pocl 3.1 (the reference). The guest's
and the simulator's results are held against the same expected lists
tests/conformance/<suite>-expected.txt, and against each other: a line
"NAME,RESULT # reason"
says NAME ends with RESULT (fail, crash, timeout or skip) and why. A test
not listed must pass (or skip); a listed one must give the listed result.
Any difference (an unexpected failure and an unexpected pass alike) fails
the run, and the lines to add to or remove from the lists are printed.

The results go to docs/conformance.json (names, results, times, clpeak's
figures; the outputs of what failed stay in build/conformance/), and
docs/conformance.md is generated from it (scripts/conformance_report.py).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import conformance_report  # noqa: E402

OUT = os.path.join(ROOT, "build", "conformance")
# The simulator's ICD without sanitizers (make sim), which the clients,
# ordinary programs, can load; the clpeak limits shim built beside it.
SIM_ICD = os.path.join(ROOT, "build", "release", "userspace", "icd", "sleipnir.icd")
SIM_LIMITS_SHIM = os.path.join(ROOT, "build", "release", "tests", "sim", "cl_limits.so")
SIM_TARGETS = ["userspace/icd/libSleipnirOpenCL.so", "tests/sim/cl_limits.so"]
# Each side's log prefix and its name in docs/conformance.json's "wall".
SIDES = (("guest", "guest"), ("sim", "sim"), ("host", "pocl"))
CONF = os.path.join(ROOT, "tests", "conformance")
START = float(os.environ.get("SLEIPNIR_START", time.time()))
RECORD = "@@conformance "

# What each suite runs, and the board's time limit for it in the guest.
CLBLAST_ROUTINES = ["xaxpy", "xdot", "xnrm2", "xgemv", "xgemm", "xtrsm"]
SUITES = {
    "piglit": (["piglit", "--timeout", "300", "--jobs", "2"], 4 * 3600),
    "clblast": (["clblast", "--timeout", "2400"] + CLBLAST_ROUTINES, 4 * 3600),
    "clpeak": (["clpeak", "--timeout", "1200"], 2 * 3600),
    "pyopencl": (["pyopencl", "--timeout", "2400"], 2 * 3600),
}
# make check's subset: the piglit tests that caught issue 15's bugs
# (tests/conformance/quick-piglit.txt) and one CLBlast routine.
QUICK = [
    ("piglit", ["piglit", "--timeout", "300", "--jobs", "2",
                "--tests", "/root/conformance/quick-piglit.txt"]),
    ("clblast", ["clblast", "--timeout", "900", "xaxpy"]),
]
RESULTS = ("pass", "fail", "crash", "timeout", "skip")


def say(msg):
    print(f"[{int(time.time() - START):4d}s] {msg}", flush=True)


def sh(*cmd):
    return subprocess.run(cmd, check=True, cwd=ROOT, stdout=subprocess.PIPE,
                          text=True).stdout.strip()


def parse_records(text):
    recs = []
    for line in text.splitlines():
        i = line.find(RECORD)
        if i >= 0:
            try:
                recs.append(json.loads(line[i + len(RECORD):]))
            except ValueError:
                pass
    return recs


PIGLIT_STATUS = re.compile(r"(?:^|[|/\\ -])(pass|fail|skip|crash|timeout|warn|dmesg-warn|dmesg-fail"
                           r"|incomplete): ([a-z0-9].*?)\s*$")


def piglit_progress(text):
    """Records from piglit's verbose log ("fail: api/clbuildprogram"), for a
    run that ended before piglit wrote its results."""
    recs = {}
    for seg in re.split(r"[\r\n]", text):
        m = PIGLIT_STATUS.search(seg)
        if m and not seg.strip().startswith("["):
            name = m.group(2).replace("/", "@")
            recs[name] = {"suite": "piglit", "name": name, "result": m.group(1),
                          "out": "(from piglit's progress log: the run did not finish)"}
    return list(recs.values())


def guest_run(name, args, timeout, log):
    """Runs clients.py in the guest; (records, board status, seconds)."""
    cmd = [os.path.join(ROOT, "tests", "board"), "run", "--conformance", "--memory", "2048",
           "--timeout", str(timeout), "--add", f"{CONF}:/root/conformance", "--",
           "python3", "/root/conformance/clients.py"] + args
    t0 = time.time()
    with open(log, "w") as f:
        p = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
    text = open(log, errors="replace").read()
    return parse_records(text), p.returncode, time.time() - t0


def host_env(piglit_root, sim=False):
    """The clients' environment on the host: pocl alone, or with sim the
    simulator's ICD alone."""
    if sim:
        vendors = SIM_ICD
    else:
        vendors = os.path.join(OUT, "host-vendors")
        os.makedirs(vendors, exist_ok=True)
        shutil.copy("/etc/OpenCL/vendors/pocl.icd", vendors)
    pig = [d for d in os.listdir(os.path.join(piglit_root, "usr", "lib"))
           if os.path.isdir(os.path.join(piglit_root, "usr", "lib", d, "piglit"))][0]
    env = dict(os.environ)
    env.update({
        "OCL_ICD_VENDORS": vendors,
        "PATH": os.path.join(piglit_root, "usr", "bin") + ":/usr/bin:/bin",
        # The unpacked programs' RUNPATH names /usr/lib/<triplet>/piglit/lib.
        "LD_LIBRARY_PATH": os.path.join(piglit_root, "usr", "lib", pig, "piglit", "lib"),
        "POCL_CACHE_DIR": os.path.join(OUT, "pocl-cache"),
    })
    if sim:
        # clpeak's capped limits as in the guest (clients.py), and the
        # simulated driver's messages on stderr, where clients.py looks
        # for chains that did not complete (the guest reads the kernel log).
        env["SLEIPNIR_CL_LIMITS_SHIM"] = SIM_LIMITS_SHIM
        env["SLEIPNIR_SIM_LOG"] = "1"
    return env


def host_run(name, args, env, log):
    t0 = time.time()
    with open(log, "w") as f:
        p = subprocess.run(["/usr/bin/python3", os.path.join(CONF, "clients.py")] + args,
                           cwd=OUT, env=env, stdout=f, stderr=subprocess.STDOUT,
                           stdin=subprocess.DEVNULL)
    return parse_records(open(log, errors="replace").read()), p.returncode, time.time() - t0


def load_expected(path):
    """{name: (result, reason)} from NAME,RESULT # reason lines."""
    expected = {}
    if not os.path.exists(path):
        return expected
    for n, raw in enumerate(open(path), 1):
        line = raw.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        body, _, reason = line.partition(" # ")
        name, _, result = body.rstrip().rpartition(",")
        if result not in RESULTS[1:] or not name:
            sys.exit(f"{path}:{n}: not NAME,RESULT # reason: {line}")
        expected[name] = (result, reason.strip())
    return expected


def compare(suite, records, expected, path, ran_all):
    """Lines describing every difference from the expected list."""
    got = {r["name"]: r for r in records}
    problems, add, remove = [], [], []
    for name, r in sorted(got.items()):
        res = r["result"]
        exp = expected.get(name)
        if exp is None:
            if res not in ("pass", "skip"):
                problems.append(f"unexpected {res}: {suite} {name}")
                add.append(f"{name},{res} # {first_line(r.get('out', ''))}")
        elif exp[0] != res:
            problems.append(f"expected {exp[0]}, got {res}: {suite} {name}")
            remove.append(f"{name},{exp[0]} # {exp[1]}")
            if res not in ("pass",):
                add.append(f"{name},{res} # {first_line(r.get('out', ''))}")
    if ran_all:
        for name, exp in sorted(expected.items()):
            if name not in got:
                problems.append(f"listed but not run: {suite} {name}")
                remove.append(f"{name},{exp[0]} # {exp[1]}")
    rel = os.path.relpath(path, ROOT)
    if add:
        print(f"  add to {rel}:")
        for line in add:
            print("    " + line)
    if remove:
        print(f"  remove from {rel}:")
        for line in remove:
            print("    " + line)
    return problems


def first_line(out):
    """A first guess at the reason: the last line that looks like an error."""
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    for l in reversed(lines):
        if re.search(r"(?i)error|fail|unsupported|not |invalid|expected|mismatch|assert", l):
            return l[:160]
    return (lines[-1] if lines else "no output")[:160]


def counts(records):
    c = {k: 0 for k in RESULTS}
    for r in records:
        c[r["result"]] = c.get(r["result"], 0) + 1
    return c


def link_layer():
    image = sh("scripts/fetch-conformance-layer.sh")
    link = os.path.join(ROOT, "build", "board", "conformance.ext4")
    if os.path.realpath(link) != image:
        if os.path.lexists(link):
            os.unlink(link)
        os.symlink(image, link)


def quick():
    """make check's subset, in the guest only, in one boot. Prints
    "conformance-quick: N passed, N failed": a test passes when it gives
    its expected result (pass, or what quick-expected.txt lists)."""
    link_layer()
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(CONF, "quick-expected.txt")
    expected = load_expected(path)
    script = " ; ".join(
        "python3 /root/conformance/clients.py " + " ".join(f"'{a}'" for a in args)
        for _, args in QUICK)
    log = os.path.join(OUT, "quick.log")
    cmd = [os.path.join(ROOT, "tests", "board"), "run", "--conformance", "--memory", "2048",
           "--timeout", "1800", "--add", f"{CONF}:/root/conformance", "--", "sh", "-c", script]
    t0 = time.time()
    with open(log, "w") as f:
        status = subprocess.run(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL).returncode
    records = [r for r in parse_records(open(log, errors="replace").read())
               if r.get("role") != "binary"]
    problems = compare("quick", records, expected, path, False)
    names = [l.split("#")[0].strip() for l in open(os.path.join(CONF, "quick-piglit.txt"))]
    wanted = {n for n in names if n} | {"SAXPY"}
    got = {r["name"] for r in records}
    for name in sorted(wanted - got):
        problems.append(f"did not run: {name}")
    if status != 0:
        problems.append(f"the board run ended with status {status}")
    for p in problems:
        print("  " + p)
    ok = [r for r in records if r["result"] == expected.get(r["name"], ("pass",))[0]
          or (r["name"] not in expected and r["result"] == "skip")]
    failed = len(records) - len(ok) + len(wanted - got) + (status != 0)
    print(f"(guest {time.time() - t0:.0f} s; log {os.path.relpath(log, ROOT)})")
    print(f"conformance-quick: {len(ok)} passed, {failed} failed")
    return 1 if problems else 0


def record_wall(side, suite, secs, status):
    with open(os.path.join(OUT, f"wall-{side}-{suite}.json"), "w") as f:
        json.dump({"seconds": round(secs), "status": status}, f)


def run_suites(suites, guest, host, sim, piglit_root):
    """Runs the clients; each leaves build/conformance/{guest,sim,host}-SUITE.log.

    Three lanes at once: piglit in one boot, the other clients in a second
    boot, and the host's: the simulator, then pocl; the suites inside a lane
    run one after another."""
    def guest_lane(names):
        for s in names:
            argv, timeout = SUITES[s]
            say(f"guest: {s}")
            recs, status, secs = guest_run(s, argv, timeout, os.path.join(OUT, f"guest-{s}.log"))
            record_wall("guest", s, secs, status)
            say(f"guest: {s} done in {secs:.0f} s: {counts(recs)} (board exit {status})")

    def host_lane(names):
        for side, key, on in (("sim", "simulator", sim), ("host", "pocl", host)):
            if not on:
                continue
            env = host_env(piglit_root, sim=side == "sim")
            for s in names:
                argv, _ = SUITES[s]
                say(f"{key}: {s}")
                recs, status, secs = host_run(s, argv, env, os.path.join(OUT, f"{side}-{s}.log"))
                record_wall(side, s, secs, status)
                say(f"{key}: {s} done in {secs:.0f} s: {counts(recs)}")

    lanes = []
    if guest:
        first = [s for s in suites if s == "piglit"]
        rest = [s for s in suites if s != "piglit"]
        lanes += [threading.Thread(target=guest_lane, args=(l,)) for l in (first, rest) if l]
    if host or sim:
        lanes.append(threading.Thread(target=host_lane, args=(suites,)))
    for t in lanes:
        t.start()
    for t in lanes:
        t.join()


def collect():
    """docs/conformance.json and .md from every log in build/conformance/;
    the guest's and the simulator's results against the expected lists.
    A suite a side did not run here keeps its results from the previous
    docs/conformance.json (a simulator run leaves the guest's figures
    alone). Returns the problems."""
    data = {"guest": {}, "sim": {}, "host": {}, "wall": {}, "runs": {}}
    now = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = sh("git", "rev-parse", "--short", "HEAD")
    for side, key in SIDES:
        for s in SUITES:
            log = os.path.join(OUT, f"{side}-{s}.log")
            if not os.path.exists(log):
                continue
            text = open(log, errors="replace").read()
            data[side][s] = parse_records(text)
            for r in data[side][s]:
                # Logs of clients.py before it knew CLBlast's "All tests
                # skipped" line.
                if s == "clblast" and "All tests skipped" in r.get("out", ""):
                    r["result"] = "skip"
            if s == "piglit" and not data[side][s]:
                data[side][s] = piglit_progress(text)
            wall = os.path.join(OUT, f"wall-{side}-{s}.json")
            if os.path.exists(wall):
                data["wall"][f"{key} {s}"] = json.load(open(wall))["seconds"]
            ran = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(os.path.getmtime(log)))
            data["runs"][f"{key} {s}"] = f"{ran}, commit {commit}"
    # The outputs of what did not pass stay in build/ (for the reasons);
    # the tree keeps names, results, times and figures.
    with open(os.path.join(OUT, "results-full.json"), "w") as f:
        json.dump(data, f, indent=1)
    fresh = {(side, s) for side, _ in SIDES for s in data[side]}
    old_path = os.path.join(ROOT, "docs", "conformance.json")
    old = json.load(open(old_path)) if os.path.exists(old_path) else {}
    for side, key in SIDES:
        for s, recs in old.get(side, {}).items():
            if s in data[side]:
                continue
            data[side][s] = recs
            if f"{key} {s}" in old.get("wall", {}):
                data["wall"][f"{key} {s}"] = old["wall"][f"{key} {s}"]
            data["runs"][f"{key} {s}"] = old.get("runs", {}).get(
                f"{key} {s}", f"{old.get('generated', '?')}, commit {old.get('commit', '?')}")
    problems = []
    for side in ("guest", "sim"):
        for s, recs in data[side].items():
            if (side, s) not in fresh:
                continue
            path = os.path.join(CONF, f"{s}-expected.txt")
            tests = [r for r in recs if r.get("role") != "binary"]
            if side == "sim":
                print(f"  the simulator's {s}:")
            problems += [p if side == "guest" else f"simulator: {p}"
                         for p in compare(s, tests, load_expected(path), path, True)]
            if not tests:
                problems.append(f"{s}: no results from the {side} "
                                f"(see build/conformance/{side}-{s}.log)")
    problems += guest_sim_differences(data)
    for side in ("guest", "sim", "host"):
        for recs in data[side].values():
            for r in recs:
                r.pop("out", None)
    data["generated"] = now
    data["commit"] = commit
    with open(os.path.join(ROOT, "docs", "conformance.json"), "w") as f:
        json.dump(data, f, indent=0, sort_keys=True)
    conformance_report.write(ROOT)
    say("wrote docs/conformance.json and docs/conformance.md")
    return problems


def guest_sim_differences(data):
    """Where the simulator and the guest, both run, disagree: the same
    stack on the same GPU model must give the same results (issue 19)."""
    problems = []
    for s in sorted(set(data["guest"]) & set(data["sim"])):
        g = {r["name"]: r["result"] for r in data["guest"][s] if r.get("role") != "binary"}
        h = {r["name"]: r["result"] for r in data["sim"][s] if r.get("role") != "binary"}
        for name in sorted(set(g) | set(h)):
            if g.get(name) != h.get(name):
                problems.append(f"guest {g.get(name, 'not run')}, simulator "
                                f"{h.get(name, 'not run')}: {s} {name}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", action="append", choices=sorted(SUITES))
    parser.add_argument("--no-host", action="store_true", help="leave out the pocl reference")
    parser.add_argument("--no-guest", action="store_true", help="leave out Sleipnir on the board")
    parser.add_argument("--no-sim", action="store_true",
                        help="leave out Sleipnir on the host simulator")
    parser.add_argument("--sim", action="store_true",
                        help="the simulator alone (--no-guest --no-host): make conformance-sim")
    parser.add_argument("--quick", action="store_true", help="make check's subset")
    parser.add_argument("--collect", action="store_true",
                        help="run nothing: results, documents and verdict from the logs "
                             "already in build/conformance/")
    parser.add_argument("--report", action="store_true",
                        help="only write docs/conformance.md from docs/conformance.json")
    parser.add_argument("--clpeak-full", action="store_true",
                        help="clpeak at its full default sizes (the device's own limits, not "
                             "capped): hours per compute test under emulation")
    args = parser.parse_args()
    if args.clpeak_full:
        # A 2M-work-item launch took 7 min on the model in issue 17 (31
        # of them per vector width), so the guest gets a day.
        SUITES["clpeak"] = (["clpeak", "--full", "--timeout", str(12 * 3600)], 24 * 3600)
    if args.report:
        conformance_report.write(ROOT)
        return 0
    if args.quick:
        return quick()
    if args.sim:
        args.no_guest = args.no_host = True
        args.no_sim = False

    os.makedirs(OUT, exist_ok=True)
    if not args.collect:
        suites = args.suite or list(SUITES)
        sides = [side for side, off in (("guest", args.no_guest), ("sim", args.no_sim),
                                        ("host", args.no_host)) if not off]
        if not args.suite:
            # A full run starts from clean logs (of the sides it runs).
            for f in os.listdir(OUT):
                if (f.endswith(".log") or f.startswith("wall-")) and \
                        any(f.startswith(p) for side in sides
                            for p in (side + "-", f"wall-{side}-")):
                    os.unlink(os.path.join(OUT, f))
        piglit_root = None
        if "host" in sides or "sim" in sides:
            piglit_root = sh("scripts/setup-conformance-host.sh")
        if "sim" in sides:
            say("building the simulator's ICD (build/release)")
            sh("scripts/build-release.sh", *SIM_TARGETS)
        if "guest" in sides:
            link_layer()
        run_suites(suites, "guest" in sides, "host" in sides, "sim" in sides, piglit_root)

    problems = collect()
    for p in problems:
        print("  " + p)
    print(f"conformance: {len(problems)} difference(s) from the expected lists")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
