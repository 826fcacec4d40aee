#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The deb-install suite: make deb's packages (scripts/build-deb.sh), the
# sleipnir-dkms package built into sleipnir.ko by Debian's dkms for each guest
# kernel (tests/dkms-build.sh, checked against make build's module for it),
# then one board boot (the default kernel) that loads dkms's module and
# installs and uses the other packages with dpkg (tests/guest/deb-install.sh).
# Needs make build.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$SLEIPNIR_ROOT"

scripts/build-deb.sh
# A guest kernel's headers: beside the kernel make build linked for the
# board (asking apt again costs seconds).
headers_of() {
	local vmlinuz kcache
	[ -e "$1" ] || die "no $1: run make build"
	vmlinuz=$(readlink -f "$1")
	kcache=${vmlinuz%/root/boot/*}
	echo "$kcache/root/usr/src/linux-headers-$(cat "$kcache/abi")"
}
kdir=$(headers_of build/board/vmlinuz)
ko=$(tests/dkms-build.sh "$kdir" kernel/sleipnir.ko)
# The other guest kernels make build sets up (build/board/vmlinuz-SERIES,
# their module in build/kmod-SERIES): dkms builds the package for each
# too, and the result must match that module's sources.
for v in build/board/vmlinuz-*; do
	[ -e "$v" ] || continue
	series=${v##*/vmlinuz-}
	kdir=$(headers_of "$v")
	tests/dkms-build.sh "$kdir" build/kmod-$series/kernel/sleipnir.ko >/dev/null
done

guest=$(mktemp -d "${TMPDIR:-/tmp}/sleipnir-deb-check.XXXXXX")
trap 'rm -rf "$guest"' EXIT
mkdir -p "$guest/debs" "$guest/dkms"
cp build/deb/*.deb "$guest/debs/"
cp "$ko" "$(dirname "$ko")/depends.txt" "$guest/dkms/"
tests/board run --driver none --writable-userland --timeout 300 \
	--add "$guest/debs:/root/debs" --add "$guest/dkms:/root/dkms" -- deb-install.sh
