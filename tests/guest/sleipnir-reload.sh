#!/bin/sh
# SPDX-License-Identifier: MIT
# Unload and reload sleipnir.ko after it has been fuzzed, inside the guest:
#  1. a short ioctl fuzz (sleipnir_ioctl_fuzz, which ends with every file
#     closed and the debugfs counters back at 0);
#  2. rmmod sleipnir: it must go (nothing may still hold the module), its
#     render node and debugfs folder must disappear, and the kernel log must
#     be clean (no WARN from a DRM core that finds objects left over, no
#     oops, no KASAN/UBSAN/lockdep report);
#  3. modprobe it again: the render node must come back;
#  4. good jobs on the reloaded driver: a short sleipnir_stress run.
# Usage: sleipnir-reload.sh [FUZZ_CALLS] [STRESS_SUBMITS]
# The fuzzer and sleipnir_stress print their own summary lines, which the
# test runner adds up; this script counts only its own checks (and a
# program that ended without its summary line, i.e. crashed, as a failure).
fuzz_calls=${1:-8000}
stress_submits=${2:-400}
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/kernel-log.sh"

debugfs_dir() {
	[ -d /sys/kernel/debug/dri ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	for d in /sys/kernel/debug/dri/*; do
		case "$(cat "$d/name" 2>/dev/null)" in
		sleipnir*) echo "$d"; return 0 ;;
		esac
	done
	return 1
}

grep -q '^sleipnir ' /proc/modules
check $? "sleipnir is loaded"
wait_node
check $? "$node is there"

run_prog sleipnir_ioctl_fuzz sleipnir_ioctl_fuzz -n "$fuzz_calls" -e 1000

mark unload
rmmod sleipnir
check $? "rmmod sleipnir after the fuzz"
! grep -q '^sleipnir ' /proc/modules
check $? "sleipnir is no longer in /proc/modules"
[ ! -e $node ]
check $? "$node is gone"
dfs=$(debugfs_dir)
[ -z "$dfs" ]
check $? "no sleipnir folder left in /sys/kernel/debug/dri${dfs:+ (found $dfs)}"
check_log_clean unload "the kernel log is clean after rmmod"

mark reload
modprobe sleipnir || insmod "/lib/modules/$(uname -r)/extra/sleipnir.ko"
check $? "sleipnir loads again"
wait_node
check $? "$node is back"
log_since reload | grep -q 'Mali-T'
check $? "the reloaded driver probed the GPU"

run_prog sleipnir_stress sleipnir_stress -n "$stress_submits"

check_log_clean reload "the kernel log is clean after the reload"

summary sleipnir-reload
