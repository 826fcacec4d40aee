#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds everything: host code (under ASan/UBSan, for the tests), the aarch64
# guest programs, the kernel module, QEMU with the GPU model, and the board
# image and the guest's Debian userland image in build/board/; links Linux's
# checkpatch.pl into build/linux-source/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cd "$SLEIPNIR_ROOT"

build=build
board=$build/board
mkdir -p "$board"

say "building host code (ASan + UBSan)"
[ -e $build/host/build.ninja ] ||
	meson setup $build/host -Db_sanitize=address,undefined >/dev/null
ninja -C $build/host >$build/host.log 2>&1 || { cat $build/host.log; die "host build failed"; }

say "cross-building guest programs (aarch64)"
# The host tools the cross build runs, by the native file's [binaries].
tools=$build/host-tools.ini
printf "[binaries]\nsleipnir-cc = '%s'\nsleipnir-as = '%s'\n" \
	"$SLEIPNIR_ROOT/$build/host/compiler/tools/sleipnir-cc" \
	"$SLEIPNIR_ROOT/$build/host/midgard/sleipnir-as" >$tools.new
cmp -s $tools.new $tools || mv $tools.new $tools
rm -f $tools.new
if [ ! -e $build/aarch64/build.ninja ] ||
	! grep -q host-tools.ini $build/aarch64/meson-private/cmd_line.txt; then
	rm -rf $build/aarch64
	meson setup $build/aarch64 --cross-file meson/aarch64-linux-gnu.ini \
		--native-file $tools --prefix /opt/sleipnir >/dev/null
fi
ninja -C $build/aarch64 >$build/aarch64.log 2>&1 || { cat $build/aarch64.log; die "guest build failed"; }
rm -rf $build/stage
DESTDIR="$SLEIPNIR_ROOT/$build/stage" meson install -C $build/aarch64 --quiet --no-rebuild >/dev/null

kcache=$(scripts/fetch-guest-kernel.sh)
# checkpatch.pl and its word lists, for tests/checkpatch.sh.
ln -sfn "$(scripts/fetch-linux-source.sh)" $build/linux-source
say "building sleipnir.ko against Debian's $(cat "$kcache/abi") headers"
make -s -f scripts/kbuild.mk KCACHE="$kcache" modules >$build/kbuild.log 2>&1 ||
	{ cat $build/kbuild.log; die "kernel module build failed"; }

qemu=$(scripts/build-qemu.sh)
ln -sfn "$qemu" $board/qemu-system-aarch64
ln -sfn "$kcache/root/boot/vmlinuz-$(cat "$kcache/abi")" $board/vmlinuz
# For tests/board --userland. The ICD's file in /etc/OpenCL/vendors/ will be
# put into this image once the ICD exists.
ln -sfn "$(scripts/fetch-guest-userland.sh)" $board/userland.ext4
# Test-only modules go into the image beside our driver.
mkdir -p $build/stage/opt/sleipnir/kmod $build/stage/opt/sleipnir/bin
cp tests/kmod/*.ko $build/stage/opt/sleipnir/kmod/
install -m 755 tests/guest/*.sh $build/stage/opt/sleipnir/bin/ 2>/dev/null || true

say "assembling the board image"
scripts/build-initramfs.sh "$kcache" kernel/sleipnir.ko $build/stage $board/initramfs.cpio.gz

# The other guest kernels (tests/board run --kernel SERIES): the module and
# the test modules built in build/kmod-SERIES/ (scripts/kbuild.mk), and
# build/board/vmlinuz-SERIES and initramfs-SERIES.cpio.gz beside 6.1's.
for series in $SLEIPNIR_KERNEL_SERIES; do
	[ "$series" = "$SLEIPNIR_KERNEL_DEFAULT" ] && continue
	kc=$(scripts/fetch-guest-kernel.sh "$series")
	say "building sleipnir.ko against Debian's $(cat "$kc/abi") headers"
	make -s -f scripts/kbuild.mk KSERIES="$series" KCACHE="$kc" modules \
		>$build/kbuild-$series.log 2>&1 ||
		{ cat $build/kbuild-$series.log; die "kernel module build for $series failed"; }
	ln -sfn "$kc/root/boot/vmlinuz-$(cat "$kc/abi")" $board/vmlinuz-$series
	scripts/build-initramfs.sh "$kc" $build/kmod-$series/kernel/sleipnir.ko $build/stage \
		$board/initramfs-$series.cpio.gz $build/kmod-$series/tests/kmod
done
say "build done"
