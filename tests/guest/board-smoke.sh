#!/bin/sh
# SPDX-License-Identifier: MIT
# Proves the board: the guest kernel runs, the Sleipnir GPU model answers at
# its MMIO window with the documented GPU_ID, and both sleipnir.ko and the
# upstream panfrost driver probe it, create a render node, and unload and
# reload cleanly.
. "$(dirname "$0")/check.sh"

# The GPU the board emulates (tests/board --gpu; default RK3399's T860 MP4
# r2p0, docs/hardware.md §1.1), and what it must report: GPU_ID, DT model,
# the two drivers' probe lines and panfrost's feature and core lines.
case "${SLEIPNIR_EXPECT_GPU:-t860:4}" in
t860:4)
	want_id=0x08602000 model=t860 sl='Mali-T860 (id 0x860 r2p0)'
	pf='mali-t860 id 0x860 major 0x2 minor 0x0 status 0x0'
	l2=0x07120206 mem=0x1 cores='shader_present=0xf l2_present=0x1' ;;
t760:4)	# RK3288
	want_id=0x07500000 model=t760 sl='Mali-T760 (id 0x750 r0p0)'
	pf='mali-t760 id 0x750 major 0x0 minor 0x0 status 0x0'
	l2=0x07120206 mem=0x1 cores='shader_present=0xf l2_present=0x1' ;;
t628:6)	# Exynos 5422: two core groups, 4 + 2
	want_id=0x06201000 model=t628 sl='Mali-T62x (id 0x620 r1p0)'
	pf='mali-t620 id 0x620 major 0x1 minor 0x0 status 0x0'
	l2=0x07110206 mem=0x0 cores='shader_present=0x3f l2_present=0x11' ;;
*)
	echo "board-smoke: no facts for SLEIPNIR_EXPECT_GPU=$SLEIPNIR_EXPECT_GPU"
	exit 1 ;;
esac

# The model's registers, read straight from the bus before any driver binds.
gpu_id=$(devmem 0x0b000000 32)
[ "$gpu_id" = $want_id ]; check $? "GPU_ID reads $want_id (got $gpu_id)"
js_present=$(devmem 0x0b00001c 32)
[ "$js_present" = 0x00000007 ]; check $? "JS_PRESENT reads 0x7 (got $js_present)"

grep -q "arm,mali-$model" /proc/device-tree/gpu@b000000/compatible 2>/dev/null
check $? "the DT node gpu@b000000 is compatible with arm,mali-$model"

wait_render_node() {
	i=0
	while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e /dev/dri/renderD128 ]
}

# $1: module, $2: what its probe must have printed in the kernel log.
load_unload() {
	modprobe "$1"; check $? "modprobe $1"
	wait_render_node; check $? "$1 creates /dev/dri/renderD128"
	dmesg | grep -q "$2"; check $? "$1 reports the GPU it probed ($2)"
	for round in 1 2; do
		rmmod "$1"; check $? "rmmod $1 (round $round)"
		[ ! -e /dev/dri/renderD128 ]; check $? "render node gone after unloading $1 (round $round)"
		modprobe "$1"; check $? "modprobe $1 again (round $round)"
		wait_render_node; check $? "$1 render node back (round $round)"
	done
	rmmod "$1"; check $? "final rmmod $1"
}

load_unload sleipnir "$sl"
# panfrost 6.1 prints the id, revision and feature registers it read.
load_unload panfrost "$pf"
dmesg | grep -q "Features: L2:$l2 Shader:0x00000000 Tiler:0x00000809 Mem:$mem MMU:0x00002830 AS:0xff JS:0x7"
check $? "panfrost read the $model feature registers"
dmesg | grep -q "$cores"; check $? "panfrost sees the shader cores and L2s ($cores)"

summary board-smoke
