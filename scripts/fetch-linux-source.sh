#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches Debian's linux-source-6.1 (the version apt offers) and unpacks only
# what scripts/checkpatch.pl reads: the script, its spelling and const-struct
# lists, and its documentation (for --verbose). The rest of the 140 MB
# package is not kept. Prints the cache folder on stdout; checkpatch is
# FOLDER/scripts/checkpatch.pl.
# SLEIPNIR_LINUX_SOURCE_DEB=PATH uses that .deb instead of downloading one.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=linux-source-6.1
# Paths inside the package's tarball, below linux-source-6.1/.
files=(
	scripts/checkpatch.pl
	scripts/spelling.txt
	scripts/const_structs.checkpatch
	Documentation/dev-tools/checkpatch.rst
)

deb=${SLEIPNIR_LINUX_SOURCE_DEB:-}
if [ -n "$deb" ]; then
	[ -f "$deb" ] || die "SLEIPNIR_LINUX_SOURCE_DEB=$deb: no such file"
	ver=$(dpkg-deb -f "$deb" Version)
else
	ver=$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')
	[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
		die "apt knows no $pkg (run scripts/setup-host.sh)"
fi
dir="$SLEIPNIR_CACHE/$pkg-$ver"

if [ ! -e "$dir/.done" ]; then
	say "fetching $pkg $ver for checkpatch"
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	if [ -z "$deb" ]; then
		# apt's download sandbox user must be able to write here.
		chmod 777 "$dir/debs"
		(cd "$dir/debs" && apt-get download -qq "$pkg=$ver") >/dev/null ||
			die "apt-get download $pkg=$ver failed"
		deb=$(ls "$dir"/debs/*.deb)
	fi
	# The package holds one tarball; take the few files out of it as it
	# streams past, without writing the whole tree.
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xOf - "./usr/src/$pkg.tar.xz" |
		xz -dc |
		tar -xf - -C "$dir" --strip-components=1 "${files[@]/#/$pkg/}" ||
		die "unpacking $pkg failed"
	for f in "${files[@]}"; do
		[ -s "$dir/$f" ] || die "$pkg $ver has no $f"
	done
	rm -rf "$dir/debs"
	touch "$dir/.done"
fi
echo "$dir"
