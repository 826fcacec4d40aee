#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the guest's Debian arm64 userland: clang-15, llvm-spirv-15, libclc-15,
# the OpenCL ICD loader, clinfo, libdrm and everything they depend on, unpacked
# (never installed: no root, no binfmt, no maintainer scripts) from Debian's
# archive into one merged-/usr root, then packed into a read-only ext4 image
# that tests/board attaches with --userland. Prints the image's path on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# What OpenCL programs need to build kernels in the guest as on a board.
# llvm-15 is there for opt-15, which compiler/frontend runs between clang and
# llvm-spirv; dash is /bin/sh; busybox-static gives the chroot the small tools
# (ls, cat, od, modprobe...) Debian's coreutils would otherwise bring.
# libelf1 and libxxhash0 are the compiler's shared libraries inside our ICD.
# dpkg (with libc-bin's ldconfig, which dpkg wants on PATH) installs make
# deb's packages in the guest as on a board (tests/guest/deb-install.sh); the
# image carries a dpkg database that lists every package below as installed.
# libdrm-dev has the drm.h that sleipnir-dev's <drm/sleipnir_drm.h> includes.
SEEDS=(
	clang-15 llvm-15 llvm-spirv-15 libclc-15 ocl-icd-libopencl1 clinfo libdrm2
	libelf1 libxxhash0 dash busybox-static dpkg libc-bin libdrm-dev
)
# Packages neither taken nor walked through (none at present).
SKIP=()

# arm64 as the only architecture makes unqualified names mean arm64 and lets
# Architecture: all packages resolve their dependencies to arm64 too. The
# empty cache paths keep apt from rewriting the host's package cache files.
APT_ARM64=(
	-o APT::Architecture=arm64 -o APT::Architectures::=arm64
	-o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=
)

# The dependency graph (Depends and Pre-Depends), walked from the seeds: of an
# alternative the first real package wins, a virtual package stands for its
# first provider, and SKIP packages are neither taken nor walked through.
resolve() {
	apt-cache "${APT_ARM64[@]}" depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances "${SEEDS[@]}" |
		awk -v seeds="${SEEDS[*]}" -v skip="${SKIP[*]}" '
		function strip(s) { gsub(/^[ |]+|[<>]/, "", s); sub(/^(Pre-?)?Depends: /, "", s); return s }
		/^[^ ]/ { pkg = strip($0); virtual[pkg] = ($0 ~ /^</); next }
		/^ *\|?(Pre-?)?Depends: / {
			dep = strip($0)
			# An alternative group is closed by the first plain line.
			if (!open[pkg]) { n[pkg]++; open[pkg] = 1 }
			alt[pkg, n[pkg], ++na[pkg, n[pkg]]] = dep
			if ($0 !~ /^ *\|/) open[pkg] = 0
			last = dep; next
		}
		/^    [^ ]/ { # a provider of the virtual package just named
			p = strip($0); if (!(last in provider)) provider[last] = p; next
		}
		END {
			ns = split(skip, s, " "); for (i = 1; i <= ns; i++) skipped[s[i]] = 1
			nq = split(seeds, q, " ")
			for (h = 1; h <= nq; h++) {
				p = q[h]
				if (p in seen || p in skipped) continue
				seen[p] = 1; print p
				for (g = 1; g <= n[p]; g++) {
					pick = ""
					for (a = 1; a <= na[p, g] && pick == ""; a++) {
						d = alt[p, g, a]
						if (d in skipped) pick = "-"
						else if (!virtual[d]) pick = d
						else if (d in provider) pick = provider[d]
					}
					if (pick != "" && pick != "-") q[++nq] = pick
				}
			}
		}' | LC_ALL=C sort -u
}

# Removes the userland images other than $dir (about 500 MB each, and a
# Debian point release changes the key), unless a board still has one open
# or a build is still making it. SLEIPNIR_KEEP_USERLANDS=1 keeps them.
prune_old_images() {
	local old pid
	[ "${SLEIPNIR_KEEP_USERLANDS:-0}" = 1 ] && return 0
	for old in "$SLEIPNIR_CACHE"/guest-userland-*; do
		[ "$old" = "$dir" ] || [ ! -d "$old" ] && continue
		case "$old" in
		*.tmp.*) pid=${old##*.tmp.}; kill -0 "$pid" 2>/dev/null && continue ;;
		esac
		if [ -n "$(find /proc/[0-9]*/fd -lname "$old/*" -print -quit 2>/dev/null)" ]; then
			say "keeping $(basename "$old"): in use"
			continue
		fi
		rm -rf "$old"
		say "removed the old guest userland $(basename "$old")"
	done
}

pkgs=($(resolve))
[ ${#pkgs[@]} -gt ${#SEEDS[@]} ] || die "cannot resolve the guest userland through apt (arm64 enabled?)"
# package=version for every package, as apt's candidate now.
pinned=($(apt-cache "${APT_ARM64[@]}" show --no-all-versions "${pkgs[@]}" |
	awk '/^Package: /{p=$2} /^Version: /{print p "=" $2}' | LC_ALL=C sort -u))
[ ${#pinned[@]} -eq ${#pkgs[@]} ] || die "apt has no candidate for some of: ${pkgs[*]}"
key=$({ printf '%s\n' "${pinned[@]}"; cat "$SLEIPNIR_ROOT/scripts/fetch-guest-userland.sh"; } |
	sha256sum | cut -c1-16)
dir="$SLEIPNIR_CACHE/guest-userland-$key"
image="$dir/userland.ext4"

if [ ! -e "$dir/.done" ]; then
	say "building the guest's Debian arm64 userland (${#pinned[@]} packages)"
	# Built aside and renamed into place, so an interrupted or concurrent
	# run never leaves a half-made folder under the final name.
	work="$dir.tmp.$$"
	trap 'rm -rf "$work"' EXIT
	rm -rf "$work"
	mkdir -p "$work/debs" "$work/root"
	# apt-get download drops to the _apt user, which must write here.
	chmod 777 "$work/debs"
	(cd "$work/debs" && apt-get "${APT_ARM64[@]}" download -qq "${pinned[@]}") >/dev/null ||
		die "apt-get download failed"
	root="$work/root"
	# dpkg's database, as if apt had installed them: each package's control
	# fields marked installed, and its file list (dpkg -X prints the paths
	# it unpacks), so the guest's dpkg -i checks our packages' Depends
	# against what is really here.
	db="$root/var/lib/dpkg"
	mkdir -p "$db/info" "$db/updates" "$db/triggers" "$db/alternatives" "$root/var/log"
	: >"$db/available"
	for deb in "$work"/debs/*.deb; do
		name=$(dpkg-deb -f "$deb" Package)
		[ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ] && name="$name:arm64"
		dpkg-deb -X "$deb" "$root" |
			sed -e 's|^\./$|/.|' -e 's|^\.||' -e 's|\(.\)/$|\1|' >"$db/info/$name.list"
		{ dpkg-deb -f "$deb" | sed '1a Status: install ok installed'; echo; } >>"$db/status"
	done
	rm -rf "$work/debs"

	# Debian 12 is merged-/usr, but packages still ship files under /bin,
	# /sbin, /lib (the loader, libc, dash): fold them into /usr and leave the
	# top-level symlinks a merged system has.
	for d in bin sbin lib lib64; do
		mkdir -p "$root/usr/$d"
		if [ -d "$root/$d" ] && [ ! -L "$root/$d" ]; then
			cp -a "$root/$d/." "$root/usr/$d/"
			rm -rf "${root:?}/$d"
		fi
		ln -sfn "usr/$d" "$root/$d"
	done
	# dash's postinst makes /bin/sh; no maintainer script runs here.
	[ -e "$root/usr/bin/sh" ] || ln -s dash "$root/usr/bin/sh"
	[ -x "$root/usr/bin/dash" ] || die "no /bin/dash in the userland"
	[ -x "$root/usr/bin/busybox" ] || die "no /bin/busybox in the userland"
	[ -e "$root/usr/lib/ld-linux-aarch64.so.1" ] || die "no dynamic loader in the userland"
	for t in clang-15 llvm-spirv-15 opt-15 clinfo; do
		[ -e "$root/usr/bin/$t" ] || die "no /usr/bin/$t in the userland"
	done

	# Nobody reads documentation in the guest.
	rm -rf "$root"/usr/share/{doc,man,info,locale,lintian,bug,doc-base}
	# libclc's builds for AMD and NVIDIA GPUs (71 MB): only the SPIR-V
	# libraries matter to a SPIR-V consumer such as compiler/.
	find "$root/usr/lib/clc" -mindepth 1 ! -name 'spirv*' -delete
	[ -e "$root/usr/lib/clc/spirv-mesa3d-.spv" ] || die "no libclc SPIR-V library in the userland"
	# clang's compiler-rt runtimes (sanitizers, profiling; 27 MB) only link
	# into CPU programs; OpenCL C needs the resource dir's headers alone.
	rm -rf "$root"/usr/lib/llvm-15/lib/clang/*/lib
	# Mount points: the image is mounted read-only, so guest-init.sh can
	# create nothing in it. usr/lib/modules takes the initramfs's modules
	# (for modprobe inside the chroot).
	mkdir -p "$root"/{proc,sys,dev,tmp,run,root,opt/sleipnir,usr/lib/modules}
	# The ICD loader reads its vendors here. Sleipnir's .icd file goes in
	# this folder once the ICD exists: copied in here, with the file made
	# part of the cache key above, since the image is read-only.
	mkdir -p "$root/etc/OpenCL/vendors"
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$root/etc/passwd"
	printf 'root:x:0:\n' >"$root/etc/group"

	# Content plus room for ext4's metadata; no journal and no reserved
	# blocks, since the guest only ever reads it.
	kib=$(du -sk "$root" | cut -f1)
	files=$(find "$root" | wc -l)
	# (An ext4 label holds 16 characters.)
	mke2fs -q -t ext4 -O ^has_journal -m 0 -N $((files + 1024)) -E root_owner=0:0 \
		-d "$root" -L sleipnir-debian "$work/userland.ext4" $((kib + kib / 20 + 8192))k \
		>&2 || die "mke2fs failed"
	rm -rf "$root"
	printf '%s\n' "${pinned[@]}" >"$work/packages"
	touch "$work/.done"
	rm -rf "$dir"
	mv "$work" "$dir"
	trap - EXIT
	say "guest userland: $(du -h --apparent-size "$image" | cut -f1) ($(du -h "$image" | cut -f1) on disk)"
	prune_old_images
fi
echo "$image"
