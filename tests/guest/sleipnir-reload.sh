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
node=/dev/dri/renderD128
. "$(dirname "$0")/check.sh"

# Runs a test program; fails the check only when it printed no summary line
# (its own failures are in that line already).
run_prog() {
	name=$1
	shift
	out=/tmp/reload-$name.log
	"$@" >"$out" 2>&1
	status=$?
	cat "$out"
	if grep -q "^$name: [0-9]* passed, [0-9]* failed" "$out"; then
		return 0
	fi
	check 1 "$name ended without a summary (exit status $status)"
}

# Kernel log lines that mean trouble (as tests/board's splat scanner).
SPLAT='Oops|BUG:|kernel BUG|WARNING:|cut here|KASAN|UBSAN|possible recursive locking|possible circular locking|lockdep|Unable to handle kernel|Kernel panic|general protection fault|Call trace:|INFO: task .* blocked|refcount_t:|list_(add|del) corruption|sleipnir.*(leak|not clean)|drm_mm.*not clean'

wait_node() {
	i=0
	while [ ! -e $node ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e $node ]
}

# Marks the kernel log; log_since prints what came after the mark (all of
# the log if the mark has already scrolled out of the ring buffer).
mark() {
	echo "sleipnir-reload: mark $1" >/dev/kmsg
}
log_since() {
	dmesg | awk -v m="sleipnir-reload: mark $1" \
		'{ line[n++] = $0 } index($0, m) { from = n }
		 END { for (i = from; i < n; i++) print line[i] }'
}

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
new=$(log_since unload)
if echo "$new" | grep -Eq "$SPLAT"; then
	echo "$new" | grep -E "$SPLAT" | head -20
	check 1 "the kernel log is clean after rmmod"
else
	check 0 "the kernel log is clean after rmmod"
fi

mark reload
modprobe sleipnir || insmod "/lib/modules/$(uname -r)/extra/sleipnir.ko"
check $? "sleipnir loads again"
wait_node
check $? "$node is back"
log_since reload | grep -q 'Mali-T'
check $? "the reloaded driver probed the GPU"

run_prog sleipnir_stress sleipnir_stress -n "$stress_submits"

new=$(log_since reload)
if echo "$new" | grep -Eq "$SPLAT"; then
	echo "$new" | grep -E "$SPLAT" | head -20
	check 1 "the kernel log is clean after the reload"
else
	check 0 "the kernel log is clean after the reload"
fi

summary sleipnir-reload
