#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `make demo`: boots the board, loads sleipnir.ko and shows what the GPU
# reports. The OpenCL samples join here once the runtime exists.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"
say "booting the board with sleipnir.ko"
tests/board run --driver sleipnir --timeout 120 -- sleipnir-info
say "demo done"
