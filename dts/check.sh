#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make check's device-tree suite: the binding, every overlay, the overlays on
# real boards' trees (Linux 6.1's, fetched once into the cache by
# scripts/fetch-linux-source.sh dts; offline after that) and QEMU's own tree, all
# through Debian's dt-schema. dts/check_dt.py does the work; see
# dts/README.md. Prints "device-tree: N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

for tool in cpp dtc fdtoverlay fdtput dt-doc-validate dt-mk-schema dt-validate dt-extract-example; do
	command -v "$tool" >/dev/null || die "$tool is missing: run scripts/setup-host.sh"
done
linux=$(scripts/fetch-linux-source.sh dts)
exec dts/check_dt.py --linux "$linux" --qemu build/board/qemu-system-aarch64 --out build/dts
