#!/bin/sh
# SPDX-License-Identifier: MIT
# Proves the board: the guest kernel runs, the Sleipnir GPU model answers at
# its MMIO window with the documented GPU_ID, and both sleipnir.ko and the
# upstream panfrost driver probe it, create a render node, and unload and
# reload cleanly.
. "$(dirname "$0")/check.sh"

# The model's registers, read straight from the bus before any driver binds:
# GPU_ID of a Mali-T860 r2p0 (docs/hardware.md §1.1).
gpu_id=$(devmem 0x0b000000 32)
[ "$gpu_id" = 0x08602000 ]; check $? "GPU_ID reads 0x08602000 (got $gpu_id)"
js_present=$(devmem 0x0b00001c 32)
[ "$js_present" = 0x00000007 ]; check $? "JS_PRESENT reads 0x7 (got $js_present)"

grep -q 'arm,mali-t860' /proc/device-tree/gpu@b000000/compatible 2>/dev/null
check $? "the DT node gpu@b000000 is compatible with arm,mali-t860"

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

load_unload sleipnir 'Mali-T860 (id 0x860 r2p0)'
# panfrost 6.1 prints the id, revision and feature registers it read.
load_unload panfrost 'mali-t860 id 0x860 major 0x2 minor 0x0 status 0x0'
dmesg | grep -q 'Features: L2:0x07120206 Shader:0x00000000 Tiler:0x00000809 Mem:0x1 MMU:0x00002830 AS:0xff JS:0x7'
check $? "panfrost read the RK3399 T860 feature registers"
dmesg | grep -q 'shader_present=0xf l2_present=0x1'; check $? "panfrost sees 4 shader cores and one L2"

summary board-smoke
