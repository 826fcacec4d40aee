#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make bench`: runs the benchmarks and writes build/bench/results.json. The
# benchmarks themselves arrive with the ISA, compiler and runtime issues.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"
mkdir -p build/bench
say "no benchmarks are defined yet"
echo '{"benchmarks": []}' >build/bench/results.json
