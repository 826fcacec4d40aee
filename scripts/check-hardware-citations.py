#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that every section of docs/hardware.md cited in the tree exists.

Comments, READMEs and scripts cite the hardware facts as
"docs/hardware.md §4.3" (ranges "§4.3-§4.6", lists "§5.8, §5.9"). This
finds every such citation in the files git tracks and fails when one names
a section number docs/hardware.md has no heading for. Citations of the
fact sheet docs/hardware.md was derived from (midgard-facts.md, "fact
sheet §n") keep its numbers and are checked the same way.

With --strict it also fails on any mention of the fact sheet outside
docs/hardware.md: the tree should cite docs/hardware.md only.

Usage: scripts/check-hardware-citations.py [--strict] [SOURCE_ROOT]
Prints one line per problem and a closing "N passed, N failed" line.
"""
import os
import re
import subprocess
import sys

DOC = "docs/hardware.md"
# A section number: "4", "4.3", "5.13"; not the start of "5.6.5.1".
NUM = r"\d+(?:\.\d+)?(?![.\d]*\d)"
GROUP = re.compile(r"§(" + NUM + r")((?:\s*(?:,|and|or|to|-|–)\s*§" + NUM + r")*)")
# What a citation of the document (or of the fact sheet it replaced) looks
# like just before its first "§": the name, then at most a few characters
# (a backtick, "(", a comment's line break and "*").
NAMED = re.compile(r"(?:hardware\.md|midgard-facts(?:\.md)?|fact sheet)"
                   r"[`'\"s,]*[\s*(]*$")
OLD_NAME = re.compile(r"midgard-facts|fact sheet|shared/reference")
SUFFIXES = (".c", ".h", ".md", ".py", ".sh", ".txt", ".build", ".cl", ".S", "")


def sections(root):
    found = set()
    with open(os.path.join(root, DOC), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#{2,4}\s+(\d+(?:\.\d+)?)\.?\s", line)
            if m:
                found.add(m.group(1))
    return found


def tracked_files(root):
    """The files git tracks; outside a checkout, the tree less build/."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], check=True,
                             capture_output=True, text=True).stdout
        paths = out.splitlines()
    except (OSError, subprocess.CalledProcessError):
        paths = []
        for top, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if d not in (".git", "build")]
            paths += [os.path.relpath(os.path.join(top, f), root) for f in files]
    for path in paths:
        if os.path.splitext(path)[1] in SUFFIXES:
            yield path


def cited(text, own):
    """(line, number) of each section a citation in text names: in the
    document itself every "§n" is one, elsewhere only those that name it."""
    for m in GROUP.finditer(text):
        if not own and not NAMED.search(text[max(0, m.start() - 60):m.start()]):
            continue
        line = text.count("\n", 0, m.start()) + 1
        for num in re.findall(r"§(" + NUM + ")", m.group(0)):
            yield line, num


def main(argv):
    strict = "--strict" in argv
    args = [a for a in argv if a != "--strict"]
    root = args[0] if args else os.path.join(os.path.dirname(__file__), "..")
    known = sections(root)
    passed = failed = 0
    for path in tracked_files(root):
        try:
            with open(os.path.join(root, path), encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            continue
        for line, num in cited(text, path == DOC):
            if num in known:
                passed += 1
            else:
                failed += 1
                print(f"{path}:{line}: cites {DOC} §{num}, which does not exist")
        if strict and path != DOC and path != "scripts/check-hardware-citations.py":
            for m in OLD_NAME.finditer(text):
                failed += 1
                line = text.count("\n", 0, m.start()) + 1
                print(f"{path}:{line}: cites the fact sheet; cite {DOC} instead")
    print(f"hardware citations: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
