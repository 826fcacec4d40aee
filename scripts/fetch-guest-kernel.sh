#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Downloads one series of Debian's arm64 kernel (6.1, the default, or 6.12:
# SLEIPNIR_KERNEL_SERIES in lib.sh), its headers, the host-side kbuild
# scripts and busybox-static:arm64, and unpacks them (never installs them)
# into the cache, a folder per kernel version. Prints that folder on stdout.
# Usage: fetch-guest-kernel.sh [SERIES]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

series=${1:-$SLEIPNIR_KERNEL_DEFAULT}
meta=$(kernel_meta "$series") ||
	die "unknown kernel series '$series' (known: $SLEIPNIR_KERNEL_SERIES)"
image_pkg=$(apt-cache depends "$meta:arm64" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*-arm64\)\(:arm64\)\?$/\1/p' | head -1)
[ -n "$image_pkg" ] || die "cannot resolve $meta:arm64 through apt"
abi=${image_pkg#linux-image-}
# The headers name their kbuild package (linux-kbuild-6.1 for 6.1, one per
# upload for 6.12: linux-kbuild-6.12.NN+deb12); it runs on the host.
kbuild_pkg=$(apt-cache depends "linux-headers-$abi:arm64" 2>/dev/null |
	sed -n 's/^ *Depends: \(linux-kbuild-[^:]*\)\(:arm64\)\?$/\1/p' | head -1)
[ -n "$kbuild_pkg" ] || die "cannot resolve the kbuild package of linux-headers-$abi through apt"
kver_pkg=$(apt-cache policy "$image_pkg:arm64" | sed -n 's/^ *Candidate: //p')
dir="$SLEIPNIR_CACHE/guest-kernel-$abi-$kver_pkg"

if [ ! -e "$dir/.done" ]; then
	say "fetching Debian kernel $abi ($kver_pkg) for the guest"
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$dir/root"
	common=${abi%-arm64}
	chmod 777 "$dir/debs"
	(cd "$dir/debs" && apt-get download -qq \
		"$image_pkg:arm64" "linux-headers-$abi:arm64" "linux-headers-$common-common" \
		"$kbuild_pkg" busybox-static:arm64) >/dev/null ||
		die "apt-get download failed"
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$dir/root"
	done
	# The arm64 headers' Makefile includes the common headers by an absolute
	# /usr/src path; point it at the unpacked copy.
	hdr="$dir/root/usr/src/linux-headers-$abi"
	sed -i "s|/usr/src/linux-headers-$common-common|$dir/root/usr/src/linux-headers-$common-common|g" \
		"$hdr/Makefile"
	# The kbuild scripts are linked by absolute /usr/lib paths as well.
	for l in $(find "$dir/root/usr/src" -maxdepth 3 -type l); do
		t=$(readlink "$l")
		case "$t" in /*) ln -sfn "$dir/root$t" "$l" ;; esac
	done
	echo "$abi" >"$dir/abi"
	rm -rf "$dir/debs"
	touch "$dir/.done"
fi
echo "$dir"
