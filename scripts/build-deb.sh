#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make deb: Debian packages for boards (arm64) in build/deb/, with Debian's
# own tools (dpkg-shlibdeps, dpkg-gencontrol, dpkg-deb; packaging/debian/):
#   sleipnir-opencl-icd  meson install tag 'opencl': the ICD, its .icd file
#                        and its data (/usr/share/sleipnir)
#   sleipnir-tools       tag 'tools': sleipnir-cc, sleipnir-as, sleipnir-disasm,
#                        sleipnir-info
#   sleipnir-dev         tag 'devel': <drm/sleipnir_drm.h>, <CL/cl_sleipnir.h>
#   sleipnir-firmware    tag 'firmware' (/lib/firmware/sleipnir/), when the
#                        build installs any
#   sleipnir-dkms        kernel/ and the uapi header under /usr/src/sleipnir-V
#                        with packaging/dkms/dkms.conf.in
# from a cross build with --prefix /usr (build/deb-aarch64; the board's
# build/aarch64 uses /opt/sleipnir). The version is meson.build's. Needs
# `make build` first (the host's sleipnir-cc, build/host-tools.ini).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"

out=build/deb
bdir=build/deb-aarch64
stage=build/deb-stage
pkgdir=packaging/debian
tools=build/host-tools.ini
[ -e $tools ] || die "$tools is missing: run make build first"

# What dpkg-gencontrol and dpkg-shlibdeps build for: arm64 (Debian's names).
eval "$(dpkg-architecture -aarm64 -s 2>/dev/null)"
export DEB_HOST_ARCH DEB_HOST_MULTIARCH DEB_HOST_GNU_TYPE
# Debian's hardening flags for arm64 (dpkg-buildflags, as a package build
# gets them; -g and -O2 come from meson's buildtype).
flags=$(DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh |
	sed -n 's/^export \(CPPFLAGS\|CFLAGS\|LDFLAGS\)="\(.*\)"$/\1=\2/p' |
	sed 's/ *-g -O2//')
cflags="$(echo "$flags" | sed -n 's/^CPPFLAGS=//p') $(echo "$flags" | sed -n 's/^CFLAGS=//p')"
ldflags=$(echo "$flags" | sed -n 's/^LDFLAGS=//p')

# Shared libraries, not the board's static links (meson_options.txt).
setup=(--cross-file meson/aarch64-linux-gnu.ini --native-file $tools
	--prefix /usr --libdir lib/aarch64-linux-gnu -Dguest_static=false
	-Dc_args="$cflags" -Dc_link_args="$ldflags")

say "building the packages' tree (aarch64, prefix /usr)"
# Set up again when the options or the host tools it runs change.
stamp="${setup[*]} $(cat $tools)"
if [ ! -e $bdir/build.ninja ] || [ "$(cat $bdir/.setup 2>/dev/null)" != "$stamp" ]; then
	rm -rf $bdir
	meson setup $bdir "${setup[@]}" >/dev/null
	echo "$stamp" >$bdir/.setup
fi
# Only what the packages carry: the tests' programs link -static, which
# this build's shared libraries do not allow.
packaged_tags='opencl tools devel firmware'
targets=($(meson introspect --install-plan $bdir | python3 -c '
import json, os, sys
tags, bdir = sys.argv[1].split(), os.path.realpath(sys.argv[2])
for src, info in json.load(sys.stdin).get("targets", {}).items():
    if info.get("tag") in tags:
        print(os.path.relpath(src, bdir))' "$packaged_tags" $bdir))
ninja -C $bdir "${targets[@]}" >build/deb-aarch64.log 2>&1 ||
	{ cat build/deb-aarch64.log; die "package build failed"; }

version=$(meson introspect --projectinfo $bdir |
	python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])')
# Dates in the packages come from the last commit, so the same tree makes
# the same files.
export SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null || date +%s)
rm -rf $stage
mkdir -p $stage
maintainer=$(sed -n 's/^Maintainer: //p' $pkgdir/control)
changelog=$stage/changelog
{
	printf 'sleipnir (%s) unstable; urgency=medium\n\n' "$version"
	printf '  * Built from the Sleipnir tree by make deb (commit %s).\n\n' \
		"$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
	printf ' -- %s  %s\n' "$maintainer" "$(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} >$changelog

# stage_tag PKG TAG: what meson installs under TAG into PKG's tree, its ELF
# files stripped as dh_strip does (symbols, and the .comment and .note
# sections; a shared object's unneeded symbols too).
stage_tag() {
	local f
	meson install -C $bdir --no-rebuild --quiet --tags "$2" \
		--destdir "$SLEIPNIR_ROOT/$stage/$1" >/dev/null
	[ -d $stage/$1 ] || return 0
	while IFS= read -r -d '' f; do
		[ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		case "$f" in
		*.so | *.so.*) aarch64-linux-gnu-strip --remove-section=.comment \
			--remove-section=.note --strip-unneeded "$f" ;;
		*) aarch64-linux-gnu-strip --remove-section=.comment --remove-section=.note "$f" ;;
		esac
	done < <(find $stage/$1 -type f -print0)
}

# stage_dkms: the module's source as DKMS wants it. Every kernel/*.c *.h
# (new files come along by themselves; not kbuild's generated *.mod.c), the
# Kbuild files, and the uapi header the module includes.
stage_dkms() {
	local src=$stage/sleipnir-dkms/usr/src/sleipnir-$version
	mkdir -p $src/kernel $src/uapi/drm
	install -m 644 Kbuild $src/
	install -m 644 kernel/Kbuild $(ls kernel/*.c kernel/*.h | grep -v '\.mod\.c$') $src/kernel/
	install -m 644 uapi/drm/sleipnir_drm.h $src/uapi/drm/
	sed "s/@VERSION@/$version/g" packaging/dkms/dkms.conf.in >$src/dkms.conf
}

# finish PKG: docs, maintainer scripts, control file and md5sums, then the
# .deb itself.
finish() {
	local pkg=$1 root=$stage/$1 f script
	local doc=$root/usr/share/doc/$pkg
	mkdir -p $doc $root/DEBIAN
	install -m 644 $pkgdir/copyright $doc/copyright
	# A native version (no Debian revision): changelog.gz, as policy says.
	gzip -9n <$changelog >$doc/changelog.gz
	# The manual page of each program it carries (packaging/man).
	for f in $root/usr/bin/*; do
		[ -e "$f" ] || continue
		[ -e packaging/man/${f##*/}.1 ] || die "no manual page packaging/man/${f##*/}.1"
		mkdir -p $root/usr/share/man/man1
		gzip -9n <packaging/man/${f##*/}.1 >$root/usr/share/man/man1/${f##*/}.1.gz
	done
	# Files in /etc are the admin's to edit: dpkg keeps their changes.
	if [ -d $root/etc ]; then
		(cd $root && find etc -type f -printf '/%p\n' | LC_ALL=C sort) >$root/DEBIAN/conffiles
	fi
	# meson installs shared objects executable; Debian's are not.
	find $root/usr/lib -name '*.so*' -type f -exec chmod 644 {} + 2>/dev/null || true
	for script in postinst prerm triggers; do
		f=$pkgdir/$pkg.$script
		[ -e "$f" ] || continue
		sed "s/@VERSION@/$version/g" "$f" >$root/DEBIAN/$script
		case $script in triggers) chmod 644 $root/DEBIAN/$script ;; *) chmod 755 $root/DEBIAN/$script ;; esac
	done
	# The shared libraries the ELF files need, with the versions their
	# symbols ask for (the arm64 libraries scripts/setup-host.sh installs).
	local elfs=()
	# Dynamically linked ELF files only (a static one needs nothing).
	while IFS= read -r -d '' f; do
		[ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
			aarch64-linux-gnu-readelf -l "$f" 2>/dev/null | grep -q 'Requesting program interpreter\|DYNAMIC' &&
			elfs+=("$f")
	done < <(find $root -path $root/DEBIAN -prune -o -type f -print0)
	: >$stage/$pkg.substvars
	if [ ${#elfs[@]} -gt 0 ]; then
		# dpkg-shlibdeps reads debian/control from the folder it runs in.
		(cd packaging && dpkg-shlibdeps -T"$SLEIPNIR_ROOT/$stage/$pkg.substvars" \
			"${elfs[@]/#/$SLEIPNIR_ROOT/}")
		grep -q '^shlibs:Depends=' $stage/$pkg.substvars ||
			die "dpkg-shlibdeps found no libraries for $pkg"
	fi
	dpkg-gencontrol -p"$pkg" -P"$root" -c$pkgdir/control -l$changelog \
		-T$stage/$pkg.substvars -f$stage/files -v"$version" 2>&1 |
		grep -v 'unknown substitution variable\|used, but is not defined' >&2 || true
	[ -s $root/DEBIAN/control ] || die "dpkg-gencontrol made no control file for $pkg"
	(cd $root && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
		LC_ALL=C sort -z | xargs -0r md5sum >DEBIAN/md5sums)
	dpkg-deb --root-owner-group -Zxz --build $root $out >/dev/null
}

stage_tag sleipnir-opencl-icd opencl
stage_tag sleipnir-tools tools
stage_tag sleipnir-dev devel
stage_tag sleipnir-firmware firmware
stage_dkms
# The same trees, packaging and changelog make the same packages: kept.
key=$(cd $stage && { find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
	sha256sum "$SLEIPNIR_ROOT"/$pkgdir/* "$SLEIPNIR_ROOT"/packaging/dkms/* \
		"$SLEIPNIR_ROOT"/packaging/man/* "$SLEIPNIR_ROOT/scripts/build-deb.sh"; } |
	sha256sum | cut -c1-16)
if [ "$(cat $out/.key 2>/dev/null)" = "$key" ]; then
	say "packages up to date: $(cd $out && echo *.deb)"
	exit 0
fi
rm -rf $out
mkdir -p $out
say "packaging sleipnir $version (arm64)"
for pkg in sleipnir-opencl-icd sleipnir-tools sleipnir-dev sleipnir-dkms sleipnir-firmware; do
	if [ $pkg = sleipnir-firmware ] &&
		[ -z "$(find $stage/$pkg -type f 2>/dev/null | head -1)" ]; then
		say "no firmware installed by the build: sleipnir-firmware left out"
		continue
	fi
	finish $pkg
done
echo "$key" >$out/.key
say "packages: $(cd $out && echo *.deb)"
