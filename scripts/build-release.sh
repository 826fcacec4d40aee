#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The optimised host build (meson's release type, -O3) that `make bench`
# measures. GCC's optimiser sees, and with -Werror fails on, what the ASan
# build's -O2 does not (a maybe-uninitialized once broke make bench), so
# make check builds all of it too (the release-build suite).
# Usage: scripts/build-release.sh [NINJA_TARGET...]   (default: all)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"

[ -e build/release/build.ninja ] ||
	meson setup build/release --buildtype=release >/dev/null
ninja -C build/release "$@" >build/release.log 2>&1 ||
	{ cat build/release.log; die "release (-O3) build failed"; }
