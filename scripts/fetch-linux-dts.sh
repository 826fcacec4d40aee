#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian's linux-source-6.1 (the version apt offers, as
# scripts/fetch-linux-source.sh) and keeps only what dts/check.sh needs to
# check our overlays against real boards: the device trees of the Rockchip
# (arm64, arm) and Exynos (arm) boards, the dt-bindings headers they
# include, and the upstream Mali Midgard binding. About 8 MB in the cache;
# offline once fetched. Prints the cache folder on stdout.
# SLEIPNIR_LINUX_SOURCE_DEB=PATH uses that .deb instead of downloading one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=linux-source-6.1
# Patterns inside the package's tarball, below linux-source-6.1/.
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

deb=${SLEIPNIR_LINUX_SOURCE_DEB:-}
if [ -n "$deb" ]; then
	[ -f "$deb" ] || die "SLEIPNIR_LINUX_SOURCE_DEB=$deb: no such file"
	ver=$(dpkg-deb -f "$deb" Version)
else
	ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	if [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		# Offline with apt's lists gone: any version already fetched will do.
		old=$(ls -d "$SLEIPNIR_CACHE"/linux-dts-6.1-*/.done 2>/dev/null | sort -V | tail -1)
		[ -n "$old" ] || die "apt knows no $pkg (run scripts/setup-host.sh)"
		dirname "$old"
		exit 0
	fi
fi
dir="$SLEIPNIR_CACHE/linux-dts-6.1-$ver"

if [ ! -e "$dir/.done" ]; then
	say "fetching $pkg $ver for the device-tree checks"
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	if [ -z "$deb" ]; then
		# apt's download sandbox user must be able to write here.
		chmod 777 "$dir/debs"
		(cd "$dir/debs" && apt-get download -qq "$pkg=$ver") >/dev/null ||
			die "apt-get download $pkg=$ver failed"
		deb=$(ls "$dir"/debs/*.deb)
	fi
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xOf - "./usr/src/$pkg.tar.xz" |
		xz -dc |
		tar -xf - -C "$dir" --strip-components=1 --wildcards "${wanted[@]/#/$pkg/}" ||
		die "unpacking $pkg failed"
	for f in arch/arm64/boot/dts/rockchip/rk3399.dtsi arch/arm/boot/dts/rk3288.dtsi \
		arch/arm/boot/dts/exynos5420.dtsi include/dt-bindings/clock/rk3399-cru.h \
		Documentation/devicetree/bindings/gpu/arm,mali-midgard.yaml; do
		[ -s "$dir/$f" ] || die "$pkg $ver has no $f"
	done
	rm -rf "$dir/debs"
	touch "$dir/.done"
fi
echo "$dir"
