#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Assembles the board's initramfs: busybox, the guest kernel's DRM modules
# (drm, drm_shmem_helper, gpu-sched, panfrost and what they depend on), the
# modules that mount the Debian userland image (virtio-mmio, virtio-blk, ext4),
# our sleipnir.ko, and our aarch64 programs staged by `meson install`.
# TEST_KMOD_DIR, when given, holds the board's test modules (tests/kmod) built
# for this kernel; they replace the staged ones in /opt/sleipnir/kmod.
# Usage: build-initramfs.sh KERNEL_CACHE_DIR SLEIPNIR_KO GUEST_STAGE_DIR OUTPUT
#                           [TEST_KMOD_DIR]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kcache=$1 ko=$2 stage=$3 out=$4 test_kmods=${5:-}
abi=$(cat "$kcache/abi")
kroot="$kcache/root"
kmods="$kroot/lib/modules/$abi"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root/bin" "$root/lib/modules/$abi/extra" "$root/opt/sleipnir" "$root/run/sleipnir"
cp "$kroot/bin/busybox" "$root/bin/busybox"
install -m 755 "$SLEIPNIR_ROOT/scripts/guest-init.sh" "$root/init"

# Copy a module and, recursively, the modules it depends on. Debian's 6.12
# ships its modules xz-compressed, which busybox's insmod and modprobe
# cannot load: they go into the image decompressed, as NAME.ko.
declare -A copied=()
copy_module() {
	local name=$1 path dest dep
	[ -n "${copied[$name]:-}" ] && return 0
	copied[$name]=1
	path=$(find "$kmods/kernel" -name "$name.ko" -o -name "$name.ko.xz" | head -1)
	[ -n "$path" ] ||
		path=$(find "$kmods/kernel" -name "${name//_/-}.ko" -o -name "${name//_/-}.ko.xz" | head -1)
	[ -n "$path" ] || die "guest module $name not found"
	dest="$root/${path#$kroot/}"
	mkdir -p "$(dirname "$dest")"
	case "$path" in
	*.ko.xz)
		dest=${dest%.xz}
		xz -dc "$path" >"$dest"
		;;
	*) cp "$path" "$dest" ;;
	esac
	for dep in $(modinfo -F depends "$dest" | tr ',' ' '); do
		copy_module "$dep"
	done
}
for m in drm drm_shmem_helper gpu-sched panfrost; do
	copy_module "$m"
done
# tests/board --userland attaches the image as a virtio-blk-device, which
# sits on virt's built-in virtio-mmio transports. ext4 and jbd2 want crc32c
# through a soft dependency (crypto-crc32c) that modinfo's depends misses,
# and busybox's modprobe does not follow: guest-init.sh loads it by name.
# overlay stacks make conformance's layer over the userland.
for m in virtio_mmio virtio_blk ext4 crc32c_generic overlay; do
	copy_module "$m"
done
cp "$ko" "$root/lib/modules/$abi/extra/"
for dep in $(modinfo -F depends "$ko" | tr ',' ' '); do
	copy_module "$dep"
done
cp "$kmods"/modules.builtin* "$kmods"/modules.order "$root/lib/modules/$abi/" 2>/dev/null || true
depmod -b "$root" "$abi"

if [ -d "$stage" ]; then
	cp -a "$stage/." "$root/"
fi
if [ -n "$test_kmods" ]; then
	mkdir -p "$root/opt/sleipnir/kmod"
	cp "$test_kmods"/*.ko "$root/opt/sleipnir/kmod/"
fi

mkdir -p "$(dirname "$out")"
(cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet --owner=0:0) |
	gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
say "initramfs: $(du -h "$out" | cut -f1) ($(basename "$out"))"
