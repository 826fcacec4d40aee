#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian's mesa source package (the newest version apt offers, 22.3
# on bookworm) and keeps only the Midgard disassembler's sources, for the
# cross-check in tests/isa/mesa-crosscheck.sh, and the descriptor layouts
# (genxml), texture and compiler code docs/hardware.md cites as facts.
# Nothing of Mesa is copied into the tree; the files stay in the cache. Debian's own patches
# do not touch these files, so the upstream tarball is all that is read.
# Prints the cache folder on stdout; the files are FOLDER/<path below>.
# SLEIPNIR_MESA_ORIG_TAR=PATH uses that mesa_VERSION.orig.tar.* instead of
# downloading one (the version is taken from its name).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=mesa
# Paths inside the tarball, below mesa-UPSTREAM/. The few src/util headers
# they include are replaced by tests/isa/mesa-shim/ (our own).
files=(
	src/panfrost/midgard/disassemble.c
	src/panfrost/midgard/disassemble.h
	src/panfrost/midgard/midgard.h
	src/panfrost/midgard/midgard_ops.c
	src/panfrost/midgard/midgard_ops.h
	src/panfrost/midgard/midgard_print_constant.c
	src/panfrost/midgard/midgard_quirks.h
	src/panfrost/midgard/helpers.h
	src/panfrost/midgard/midgard_compile.c
	src/panfrost/midgard/midgard_emit.c
	src/panfrost/midgard/midgard_ra.c
	src/panfrost/lib/pan_layout.c
	src/gallium/drivers/panfrost/pan_cmdstream.c
	src/panfrost/lib/genxml/v4.xml
	src/panfrost/lib/genxml/v5.xml
	src/panfrost/lib/pan_texture.c
	src/panfrost/lib/pan_texture.h
	src/panfrost/shared/pan_tiling.c
	src/panfrost/lib/pan_format.c
	src/panfrost/lib/pan_format.h
	docs/license.rst
)

tarball=${SLEIPNIR_MESA_ORIG_TAR:-}
if [ -n "$tarball" ]; then
	[ -f "$tarball" ] || die "SLEIPNIR_MESA_ORIG_TAR=$tarball: no such file"
	ver=$(basename "$tarball" | sed -n 's/^mesa_\(.*\)\.orig\.tar\..*$/\1/p')
	[ -n "$ver" ] || die "$tarball: not a mesa_VERSION.orig.tar.* name"
else
	# The newest source version apt knows (local lists: works offline).
	ver=
	for v in $(apt-cache showsrc "$pkg" 2>/dev/null |
		   sed -n 's/^Version: //p'); do
		if [ -z "$ver" ] || dpkg --compare-versions "$v" gt "$ver"; then
			ver=$v
		fi
	done
	[ -n "$ver" ] || die "apt knows no source package $pkg (run scripts/setup-host.sh)"
fi
dir="$SLEIPNIR_CACHE/$pkg-$ver"

# .done holds the file list: a list that grew fetches again.
if [ "$(cat "$dir/.done" 2>/dev/null)" != "${files[*]}" ]; then
	say "fetching $pkg $ver source for the Midgard cross-check"
	rm -rf "$dir"
	mkdir -p "$dir/src-pkg"
	if [ -z "$tarball" ]; then
		# apt's download sandbox user must be able to write here.
		chmod 777 "$dir/src-pkg"
		(cd "$dir/src-pkg" &&
			apt-get source -qq --download-only "$pkg=$ver") >/dev/null ||
			die "apt-get source --download-only $pkg=$ver failed"
		tarball=$(ls "$dir"/src-pkg/"$pkg"_*.orig.tar.* | head -n 1)
		[ -f "$tarball" ] || die "$pkg $ver: no .orig tarball downloaded"
	fi
	# The tarball's top folder is mesa-UPSTREAM (no epoch, no revision).
	upstream=${ver#*:}
	top=$pkg-${upstream%-*}
	tar -xf "$tarball" -C "$dir" --strip-components=1 "${files[@]/#/$top/}" ||
		die "unpacking $pkg failed"
	for f in "${files[@]}"; do
		[ -s "$dir/$f" ] || die "$pkg $ver has no $f"
	done
	rm -rf "$dir/src-pkg"
	echo "${files[*]}" >"$dir/.done"
fi
echo "$dir"
