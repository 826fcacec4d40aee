#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The deb-install suite: make deb's packages (scripts/build-deb.sh), the
# sleipnir-dkms package built into sleipnir.ko by Debian's dkms for the guest
# kernel (tests/dkms-build.sh, checked against make build's module), then one
# board boot that loads that module and installs and uses the other packages
# with dpkg (tests/guest/deb-install.sh). Needs make build.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$SLEIPNIR_ROOT"

scripts/build-deb.sh
# The guest kernel's headers: beside the kernel make build linked for the
# board (asking apt again costs seconds).
vmlinuz=$(readlink -f build/board/vmlinuz) || die "no build/board/vmlinuz: run make build"
kcache=${vmlinuz%/root/boot/*}
kdir=$kcache/root/usr/src/linux-headers-$(cat "$kcache/abi")
ko=$(tests/dkms-build.sh "$kdir" kernel/sleipnir.ko)

guest=$(mktemp -d "${TMPDIR:-/tmp}/sleipnir-deb-check.XXXXXX")
trap 'rm -rf "$guest"' EXIT
mkdir -p "$guest/debs" "$guest/dkms"
cp build/deb/*.deb "$guest/debs/"
cp "$ko" "$(dirname "$ko")/depends.txt" "$guest/dkms/"
tests/board run --driver none --writable-userland --timeout 300 \
	--add "$guest/debs:/root/debs" --add "$guest/dkms:/root/dkms" -- deb-install.sh
