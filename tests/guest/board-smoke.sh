#!/bin/sh
# SPDX-License-Identifier: MIT
# Proves the board: the guest kernel runs, the Sleipnir GPU model answers at
# its MMIO window with the documented GPU_ID, and sleipnir.ko probes it,
# creates a render node, and unloads and reloads cleanly.
passed=0
failed=0
check() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok   $2"
	else
		failed=$((failed + 1)); echo "FAIL $2"
	fi
}

# The model's registers, read straight from the bus before any driver binds:
# GPU_ID of a Mali-T860 r2p0 (midgard-facts.md section 1.1).
gpu_id=$(devmem 0x0b000000 32)
[ "$gpu_id" = 0x08602000 ]; check $? "GPU_ID reads 0x08602000 (got $gpu_id)"
js_present=$(devmem 0x0b00001c 32)
[ "$js_present" = 0x00000007 ]; check $? "JS_PRESENT reads 0x7 (got $js_present)"

grep -q 'arm,mali-t860' /proc/device-tree/gpu@b000000/compatible 2>/dev/null
check $? "the DT node gpu@b000000 is compatible with arm,mali-t860"

modprobe sleipnir; check $? "modprobe sleipnir"
i=0; while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
[ -e /dev/dri/renderD128 ]; check $? "sleipnir creates /dev/dri/renderD128"
dmesg | grep -q 'Mali-T860 (id 0x860 r2p0)'; check $? "sleipnir reports the GPU it probed"

for round in 1 2; do
	rmmod sleipnir; check $? "rmmod sleipnir (round $round)"
	[ ! -e /dev/dri/renderD128 ]; check $? "render node gone after unload (round $round)"
	modprobe sleipnir; check $? "modprobe sleipnir again (round $round)"
done
rmmod sleipnir; check $? "final rmmod sleipnir"

echo "board-smoke: $passed passed, $failed failed"
[ $failed = 0 ]
