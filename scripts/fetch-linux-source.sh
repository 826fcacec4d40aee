#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian's linux-source-6.1 (the version apt offers) and unpacks only
# the files one of our checks reads, into a cache folder per set; the rest of
# the 140 MB package is not kept. Offline once fetched. Prints the folder.
#
#   fetch-linux-source.sh [checkpatch]  scripts/checkpatch.pl, its spelling
#                                       and const-struct lists, its docs
#   fetch-linux-source.sh dts           for dts/check.sh: the device trees of
#                                       the Rockchip and Exynos boards, the
#                                       dt-bindings headers they include, the
#                                       upstream Mali Midgard binding (~8 MB)
#
# SLEIPNIR_LINUX_SOURCE_DEB=PATH uses that .deb instead of downloading one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=linux-source-6.1
set=${1:-checkpatch}
# Patterns inside the package's tarball, below linux-source-6.1/, and the
# files that must then be there.
case "$set" in
checkpatch)
	prefix=$pkg
	wanted=(
		scripts/checkpatch.pl
		scripts/spelling.txt
		scripts/const_structs.checkpatch
		Documentation/dev-tools/checkpatch.rst
	)
	must=("${wanted[@]}")
	;;
dts)
	prefix=linux-dts-6.1
	wanted=(
		'arch/arm64/boot/dts/rockchip/*'
		'arch/arm/boot/dts/rk3*'
		'arch/arm/boot/dts/rockchip-*'
		'arch/arm/boot/dts/exynos*'
		'include/dt-bindings/*'
		# dt-bindings/input/linux-event-codes.h is a link to this one.
		'include/uapi/linux/input-event-codes.h'
		'Documentation/devicetree/bindings/gpu/arm,mali-midgard.yaml'
	)
	must=(
		arch/arm64/boot/dts/rockchip/rk3399.dtsi arch/arm/boot/dts/rk3288.dtsi
		arch/arm/boot/dts/exynos5420.dtsi include/dt-bindings/clock/rk3399-cru.h
		Documentation/devicetree/bindings/gpu/arm,mali-midgard.yaml
	)
	;;
*) die "usage: $0 [checkpatch|dts]" ;;
esac

deb=${SLEIPNIR_LINUX_SOURCE_DEB:-}
if [ -n "$deb" ]; then
	[ -f "$deb" ] || die "SLEIPNIR_LINUX_SOURCE_DEB=$deb: no such file"
	ver=$(dpkg-deb -f "$deb" Version)
else
	ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		# Offline with apt's lists gone: any version already fetched will do.
		old=$(ls -d "$SLEIPNIR_CACHE/$prefix"-*/.done 2>/dev/null | sort -V | tail -1)
		[ -n "$old" ] || die "apt knows no $pkg (run scripts/setup-host.sh)"
		dirname "$old"
		exit 0
	fi
fi
dir="$SLEIPNIR_CACHE/$prefix-$ver"

if [ ! -e "$dir/.done" ]; then
	say "fetching $pkg $ver ($set files)"
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	if [ -z "$deb" ]; then
		# apt's download sandbox user must be able to write here.
		chmod 777 "$dir/debs"
		(cd "$dir/debs" && apt-get download -qq "$pkg=$ver") >/dev/null ||
			die "apt-get download $pkg=$ver failed"
		deb=$(ls "$dir"/debs/*.deb)
	fi
	# The package holds one tarball; take the files out of it as it
	# streams past, without writing the whole tree.
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xOf - "./usr/src/$pkg.tar.xz" |
		xz -dc |
		tar -xf - -C "$dir" --strip-components=1 --wildcards "${wanted[@]/#/$pkg/}" ||
		die "unpacking $pkg failed"
	for f in "${must[@]}"; do
		[ -s "$dir/$f" ] || die "$pkg $ver has no $f"
	done
	rm -rf "$dir/debs"
	touch "$dir/.done"
fi
echo "$dir"
