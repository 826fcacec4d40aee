#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The board runner's own tests: it reports the guest command's output and
# exit status, and fails a run in which the guest kernel warned.
set -u
cd "$(dirname "$0")/.."
# check and summary, shared with the guest's shell tests.
. tests/guest/check.sh

out=$(tests/board run --driver none --timeout 120 -- uname -m); st=$?
[ $st = 0 ] && [ "$out" = aarch64 ]; check $? "uname -m prints aarch64 and exits 0 (got '$out', $st)"

tests/board run --driver none --timeout 120 -- false; st=$?
[ $st = 1 ]; check $? "false exits 1 (got $st)"

tests/board run --driver none --timeout 120 -- sh -c 'exit 7'; st=$?
[ $st = 7 ]; check $? "exit status 7 passes through (got $st)"

tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf 'hello from the host\n' >"$tmp/note.txt"
out=$(tests/board run --driver none --timeout 120 --add "$tmp/note.txt:/data/note.txt" -- cat /data/note.txt); st=$?
[ $st = 0 ] && [ "$out" = "hello from the host" ]; check $? "--add puts a host file into the guest (got '$out', $st)"

err=$(tests/board run --driver none --timeout 120 -- insmod /opt/sleipnir/kmod/board_warn.ko 2>&1 >/dev/null); st=$?
[ $st = 3 ] && grep -q "kernel splat" <<<"$err"; check $? "a guest WARN fails the run even though the command succeeded (got $st)"

# --gpu: the product and core count reach the model (GPU_ID, SHADER_PRESENT
# and L2_PRESENT straight from the bus: r1p0, 4 + 2 cores) and the command.
# shellcheck disable=SC2016 # expanded in the guest
out=$(tests/board run --driver none --timeout 120 --gpu t628 -- sh -c \
	'echo $SLEIPNIR_EXPECT_GPU $(devmem 0x0b000000 32) $(devmem 0x0b000100 32) $(devmem 0x0b000120 32)'); st=$?
[ $st = 0 ] && [ "$out" = "t628:6 0x06201000 0x0000003F 0x00000011" ]
check $? "--gpu t628 is a T628 MP6 r1p0 (got '$out', $st)"
tests/board run --gpu t628:17 -- true 2>/dev/null; st=$?
[ $st = 2 ]; check $? "--gpu t628:17 is refused (got $st)"

summary board-runner
