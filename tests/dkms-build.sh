#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds sleipnir.ko from the sleipnir-dkms package (build/deb, make deb) with
# Debian's own dkms, as `dpkg -i` on a board does, but against an arm64
# kernel's unpacked headers on this machine (the package's dkms.conf adds the
# cross compiler when the kernel is not this machine's architecture).
#
#   tests/dkms-build.sh [HEADERS_DIR [REFERENCE_KO]]
#
# HEADERS_DIR (empty or left out) defaults to the guest kernel's
# (scripts/fetch-guest-kernel.sh); another kernel's (such as 6.12's) is
# passed the same way. The module lands
# in build/dkms/<kernel release>/sleipnir.ko, with the modules it depends on
# in depends.txt beside it (the guest loads them first). Checks: dkms
# reports the module built for that kernel, its vermagic names it, and its
# srcversion (modpost's checksum of the sources) equals REFERENCE_KO's when
# given (make build's kernel/sleipnir.ko, built from this tree). A result for
# the same module sources and headers is reused.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"
cd "$SLEIPNIR_ROOT"

if [ -n "${1:-}" ]; then
	kdir=$1
else
	kcache=$(scripts/fetch-guest-kernel.sh)
	kdir=$kcache/root/usr/src/linux-headers-$(cat "$kcache/abi")
fi
ref=${2:-}
[ -e "$kdir/.config" ] || die "$kdir: not a kernel headers folder (no .config)"
[ -z "$ref" ] || [ -e "$ref" ] || die "$ref: no such module"

debs=(build/deb/sleipnir-dkms_*_all.deb)
[ ${#debs[@]} = 1 ] && [ -e "${debs[0]}" ] || die "no single sleipnir-dkms package in build/deb: run make deb"
deb=${debs[0]}
version=$(dpkg-deb -f "$deb" Version)
# Debian's headers name their release in .kernelvariables (the ABI name,
# 6.1.0-NN-arm64); a plain kernel tree in include/config/kernel.release.
kver=$(sed -n 's/^override KERNELRELEASE = //p' "$kdir/.kernelvariables" 2>/dev/null)
[ -n "$kver" ] || kver=$(cat "$kdir/include/config/kernel.release")

out=build/dkms/$kver
# Keyed by what DKMS reads (the source tree's names and contents, not the
# package's dates), the headers and this script.
key=$({
	dpkg-deb --fsys-tarfile "$deb" | tar -t | grep '^\./usr/src/'
	dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards './usr/src/*'
	echo "$kdir"
	cat "$SLEIPNIR_ROOT/tests/dkms-build.sh"
} | sha256sum | cut -c1-16)
if [ "$(cat "$out/key" 2>/dev/null)" != "$key" ] || [ ! -e "$out/sleipnir.ko" ]; then
	say "dkms: building sleipnir $version for $kver"
	rm -rf "$out"
	mkdir -p "$out/work"
	work=$SLEIPNIR_ROOT/$out/work
	mkdir -p "$work/tree"
	dpkg-deb -x "$deb" "$work/root"
	# The package's own source tree and a private DKMS tree: nothing of
	# this machine's DKMS (/var/lib/dkms) is touched.
	dk=(-m sleipnir -v "$version" --dkmstree "$work/tree" --sourcetree "$work/root/usr/src")
	dkms add "${dk[@]}" >"$out/dkms.log" 2>&1 &&
		dkms build "${dk[@]}" -k "$kver" -a aarch64 --kernelsourcedir "$kdir" \
			>>"$out/dkms.log" 2>&1 || {
		cat "$out/dkms.log" "$work"/tree/sleipnir/"$version"/build/make.log 2>/dev/null
		die "dkms build failed (log: $out/dkms.log)"
	}
	dkms status "${dk[@]}" -k "$kver" -a aarch64 >"$out/status" 2>&1
	grep -q "^sleipnir/$version, $kver, aarch64: built" "$out/status" ||
		die "dkms does not report sleipnir built for $kver: $(cat "$out/status")"
	ko="$work/tree/sleipnir/$version/$kver/aarch64/module/sleipnir.ko"
	[ -e "$ko" ] || die "dkms built no $ko"
	cp "$ko" "$out/sleipnir.ko"
	modinfo -F depends "$out/sleipnir.ko" | tr ',' '\n' | sed '/^$/d' >"$out/depends.txt"
	rm -rf "$work"
	echo "$key" >"$out/key"
else
	say "dkms: sleipnir $version for $kver already built from this package"
fi

magic=$(modinfo -F vermagic "$out/sleipnir.ko")
case "$magic" in
"$kver "*aarch64*) ;;
*) die "the module's vermagic is '$magic', not for $kver (aarch64)" ;;
esac
if [ -n "$ref" ]; then
	want=$(modinfo -F srcversion "$ref")
	got=$(modinfo -F srcversion "$out/sleipnir.ko")
	[ "$got" = "$want" ] ||
		die "dkms's module has srcversion $got, $ref has $want: the package's sources differ from the tree's"
fi
echo "$out/sleipnir.ko"
