#!/bin/sh
# SPDX-License-Identifier: MIT
# sleipnir.ko's probe-time GPU self-test (kernel/sleipnir_selftest.c) from
# /lib/firmware/sleipnir/midgard-selftest.bin (firmware/), inside the guest:
#  1. the boot's probe ran it and logged "self-test passed";
#  2. reloaded without the file: "self-test skipped: no firmware ...", and
#     the device works (a short sleipnir_stress run);
#  3. reloaded with damaged copies (bad magic, truncated, a flipped code
#     byte): each is rejected with its reason, the render node comes back,
#     and the device works after the last;
#  4. reloaded with well-formed files whose shader is wrong (tests/firmware:
#     the seed left out, a store to address 0, an endless loop): "FAILED"
#     with the word, the fault status or the timeout; the device is still
#     registered, and works after the endless one was stopped;
#  5. with selftest=0: skipped as disabled;
#  6. the real file back: passed again.
# The kernel log must stay clean throughout (tests/board checks it too).
# Usage: sleipnir-selftest.sh [STRESS_SUBMITS]
stress_submits=${1:-40}
fwdir=/lib/firmware/sleipnir
fw=$fwdir/midgard-selftest.bin
saved=/tmp/midgard-selftest.bin
bad=/opt/sleipnir/share/sleipnir/test-firmware
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/kernel-log.sh"

# Reloads sleipnir.ko (with module options $2...) after mark $1; checks that
# the render node comes back.
reload() {
	name=$1
	shift
	rmmod sleipnir
	check $? "$name: rmmod sleipnir"
	mark "$name"
	modprobe sleipnir "$@"
	check $? "$name: modprobe sleipnir $*"
	wait_node
	check $? "$name: $node is back"
}

# Checks that the log since mark $1 has a line matching $2, and shows it.
expect_line() {
	line=$(log_since "$1" | grep -E "$2" | head -1)
	[ -n "$line" ]
	check $? "$1: the log says /$2/"
	[ -n "$line" ] && echo "     ${line#*] }"
}

# The device runs jobs: sleipnir_stress's parallel submits.
device_works() {
	out=/tmp/selftest-stress.log
	sleipnir_stress -n "$stress_submits" -p 2 -t parallel >$out 2>&1
	status=$?
	grep -q "^sleipnir_stress: [0-9]* passed, 0 failed" $out
	ok=$?
	[ $ok = 0 ] || cat $out
	check $((status | ok)) "$1: jobs run (sleipnir_stress -n $stress_submits)"
}

# A byte of the file at offset $2 replaced with octal $3, into $1.
poke() {
	cp $saved "$1" && printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

[ -f $fw ]
check $? "$fw is in the initramfs"
cp $fw $saved

# 1. The boot's probe.
line=$(dmesg | grep -E 'sleipnir .*self-test' | head -1)
echo "$line" | grep -Eq 'self-test passed: [0-9]+ threads wrote .* in [0-9]+ us'
check $? "boot: the probe's self-test passed: ${line#*] }"

# 2. No file.
rm $fw
reload no-file
expect_line no-file 'self-test skipped: no firmware sleipnir/midgard-selftest.bin'
device_works no-file

# 3. Damaged files.
poke $fw 0 130 # 'X' over the 'S' of "SLFW"
reload bad-magic
expect_line bad-magic 'self-test firmware sleipnir/midgard-selftest.bin rejected: bad magic'
head -c 100 $saved >$fw
reload truncated
expect_line truncated 'rejected: file is 100 bytes, its header says [0-9]+ \(truncated'
poke $fw 80 377 # a code byte
reload flipped-byte
expect_line flipped-byte 'rejected: checksum 0x[0-9a-f]+ does not match'
if log_since bad-magic | grep -q 'self-test passed\|self-test FAILED'; then
	check 1 "a damaged file never ran"
else
	check 0 "a damaged file never ran"
fi
device_works damaged

# 4. Shaders that fail.
cp $bad/selftest-wrong.bin $fw
reload wrong
expect_line wrong 'self-test FAILED: word 0 is 0x00000000, expected 0x600dcafe'
cp $bad/selftest-fault.bin $fw
reload fault
expect_line fault 'self-test FAILED: the job ended with status 0xc[0-7]'
expect_line fault 'MMU fault in AS[0-9]+, client [0-9]+ \(selftest\)'
cp $bad/selftest-endless.bin $fw
reload endless
expect_line endless 'self-test FAILED: the job did not end within [0-9]+ ms'
device_works endless

# 5. Disabled.
cp $saved $fw
reload disabled selftest=0
expect_line disabled 'self-test skipped: disabled'

# 6. The real file again.
reload restored
expect_line restored 'self-test passed: [0-9]+ threads'

check_log_clean no-file "the kernel log is clean after the reloads"

summary sleipnir-selftest
