#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the conformance layer for `make conformance`: Debian's OpenCL clients
# (piglit's CL tests, clblast-tests, clpeak, python3-pyopencl) and whatever
# they need beyond the guest userland (scripts/fetch-guest-userland.sh), as a
# second read-only ext4 image that the guest stacks over the userland with
# overlayfs (tests/board --conformance). The `make check` userland is left as
# it is. Prints the layer image's path on stdout.
#
# apt resolves the layer against a package status that lists the userland's
# packages as installed, so the layer holds exactly what is missing. Like the
# userland, nothing is installed: packages are unpacked with dpkg-deb -x.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The clients and what they need at run time. piglit itself is unpacked
# without walking its dependencies (OpenGL, Vulkan, Wayland, X11: 2 GB of
# GL tests); its CL programs need only libEGL (libpiglitutil links it; the
# library alone, without Mesa's EGL it would pull in) and its Python runner
# mako and six.
SEEDS=(
	clblast-tests libclblast1 clpeak python3-pyopencl python3-numpy
	python3 python3-mako python3-six
)
UNPACK_ONLY=(piglit libegl1 libglvnd0)
# The OpenCL implementation PyOpenCL asks for (pocl-opencl-icd |
# mesa-opencl-icd | opencl-icd) is Sleipnir's own ICD, which the guest reads
# from /opt/sleipnir. (dpkg is in the userland itself.)
PROVIDED="Package: sleipnir-opencl-icd
Status: install ok installed
Version: 1
Architecture: arm64
Provides: opencl-icd
"

APT_ARM64=(
	-o APT::Architecture=arm64 -o APT::Architectures::=arm64
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
)

base_image=$("$SLEIPNIR_ROOT/scripts/fetch-guest-userland.sh")
base_dir=$(dirname "$base_image")
[ -s "$base_dir/packages" ] || die "no package list beside $base_image"

work_status=$(mktemp)
trap 'rm -f "$work_status"' EXIT
{
	printf '%s\n' "$PROVIDED"
	# The archive's own records (Multi-Arch and all): with less, apt
	# takes a package for another and "upgrades" it to the same version.
	apt-cache "${APT_ARM64[@]}" show $(cat "$base_dir/packages") |
		awk '/^Package: /{ print; print "Status: install ok installed"; next } { print }'
} >"$work_status"

# "Inst NAME (VERSION origin [arch])" for each package apt would add.
pinned=($(apt-get "${APT_ARM64[@]}" -o Dir::State::status="$work_status" \
	-s install --no-install-recommends "${SEEDS[@]}" |
	awk '/^Inst /{ v = $3; sub(/^\(/, "", v); print $2 "=" v }' | LC_ALL=C sort -u))
[ ${#pinned[@]} -gt 0 ] || die "apt cannot resolve the conformance layer: ${SEEDS[*]}"
pinned+=($(apt-cache "${APT_ARM64[@]}" show --no-all-versions "${UNPACK_ONLY[@]}" |
	awk '/^Package: /{p=$2} /^Version: /{print p "=" $2}'))
key=$({ basename "$base_dir"; printf '%s\n' "${pinned[@]}"; cat "$0" "$SLEIPNIR_ROOT/scripts/unpack-piglit-cl.sh"; } | sha256sum | cut -c1-16)
dir="$SLEIPNIR_CACHE/guest-conformance-$key"
image="$dir/layer.ext4"

if [ ! -e "$dir/.done" ]; then
	say "building the conformance layer (${#pinned[@]} packages over the guest userland)"
	work="$dir.tmp.$$"
	trap 'rm -f "$work_status"; rm -rf "$work"' EXIT
	rm -rf "$work"
	mkdir -p "$work/debs" "$work/root"
	chmod 777 "$work/debs"
	(cd "$work/debs" && apt-get "${APT_ARM64[@]}" download -qq "${pinned[@]}") >/dev/null ||
		die "apt-get download failed"
	root="$work/root"
	for deb in "$work"/debs/*.deb; do
		case "$(basename "$deb")" in
		piglit_*) "$SLEIPNIR_ROOT/scripts/unpack-piglit-cl.sh" "$deb" "$root" ;;
		*) dpkg-deb -x "$deb" "$root" ;;
		esac
	done
	rm -rf "$work/debs"

	# The userland is merged-/usr and already has the /bin, /lib...
	# symlinks: a real folder here would hide them in the overlay.
	for d in bin sbin lib lib64; do
		if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
			mkdir -p "$root/usr/$d"
			cp -a "$root/$d/." "$root/usr/$d/"
			rm -rf "${root:?}/$d"
		fi
	done
	pig="$root/usr/lib/aarch64-linux-gnu/piglit"
	# Alternatives a maintainer script would have made: the reference
	# BLAS and LAPACK that numpy and clblast's tests link.
	lib="$root/usr/lib/aarch64-linux-gnu"
	for a in blas/libblas.so.3 lapack/liblapack.so.3; do
		[ -e "$lib/$a" ] || die "no $a in the layer"
		ln -sfn "$a" "$lib/$(basename "$a")"
	done
	rm -rf "$root"/usr/share/{doc,man,info,locale,lintian,bug,doc-base}
	# Byte-compiled ahead (the guest cannot write into the image, and
	# compiling numpy at each start costs seconds under emulation); the
	# host's Python is the same 3.11.
	/usr/bin/python3 -m compileall -q -j0 "$root/usr/lib/python3" "$root/usr/lib/python3.11" \
		"$pig/framework" -d / >/dev/null 2>&1 || true
	# Every program the runs start must find its libraries in userland
	# plus layer.
	missing=$(for f in "$pig"/bin/cl-* "$root"/usr/bin/clpeak "$root"/usr/bin/clblast_test_x*; do
		readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
	done | LC_ALL=C sort -u | while read -r so; do
		[ -n "$(find "$root/usr/lib" "$pig/lib" -maxdepth 2 -name "$so" -print -quit)" ] && continue
		debugfs -R "stat /usr/lib/aarch64-linux-gnu/$so" "$base_image" 2>/dev/null | grep -q Inode ||
			debugfs -R "stat /usr/lib/$so" "$base_image" 2>/dev/null | grep -q Inode ||
			echo "$so"
	done)
	[ -z "$missing" ] || die "libraries the clients need are in neither image: $missing"

	kib=$(du -sk "$root" | cut -f1)
	files=$(find "$root" | wc -l)
	mke2fs -q -t ext4 -O ^has_journal -m 0 -N $((files + 1024)) -E root_owner=0:0 \
		-d "$root" -L sleipnir-conform "$work/layer.ext4" $((kib + kib / 10 + 8192))k \
		>&2 || die "mke2fs failed"
	rm -rf "$root"
	printf '%s\n' "${pinned[@]}" >"$work/packages"
	touch "$work/.done"
	rm -rf "$dir"
	mv "$work" "$dir"
	say "conformance layer: $(du -h --apparent-size "$image" | cut -f1) ($(du -h "$image" | cut -f1) on disk)"
	# Older layers go, unless a board has one open.
	for old in "$SLEIPNIR_CACHE"/guest-conformance-*; do
		[ "$old" = "$dir" ] || [ ! -d "$old" ] && continue
		case "$old" in *.tmp.*) kill -0 "${old##*.tmp.}" 2>/dev/null && continue ;; esac
		[ -n "$(find /proc/[0-9]*/fd -lname "$old/*" -print -quit 2>/dev/null)" ] && continue
		rm -rf "$old"
	done
fi
echo "$image"
