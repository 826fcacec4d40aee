#!/bin/sh
# SPDX-License-Identifier: MIT
# System suspend and resume of sleipnir.ko, inside the guest: the kernel's
# suspend test mode (/sys/power/pm_test = devices) runs every device's
# suspend callbacks, waits, and runs the resume ones, without putting the
# machine to sleep. The driver's system suspend pauses its schedulers
# (sleipnir_compat.h: a kthread park on 6.1, a work-queue stop on 6.12),
# waits for the GPU to go idle and powers it off; resume undoes it.
#  1. jobs run before the suspend (sleipnir_stress);
#  2. `echo freeze > /sys/power/state` succeeds, and the kernel log shows
#     the driver's suspend and resume callbacks returning 0
#     (pm_print_times);
#  3. jobs run after the resume, from several processes, and the kernel
#     log is clean (no WARN, oops, lockdep... since the suspend).
# Usage: sleipnir-suspend.sh [STRESS_SUBMITS]
submits=${1:-200}
. "$(dirname "$0")/check.sh"
. "$(dirname "$0")/kernel-log.sh"

[ -e $node ]
check $? "$node is there"
run_prog sleipnir_stress sleipnir_stress -n "$submits" -t parallel

mark suspend
echo 1 >/sys/power/pm_print_times &&
	echo devices >/sys/power/pm_test &&
	echo 1 >/sys/module/suspend/parameters/pm_test_delay
check $? "suspend test mode set (pm_test=devices, pm_print_times)"
echo freeze >/sys/power/state
check $? "suspend to idle and resume (pm_test=devices)"
echo none >/sys/power/pm_test
echo 0 >/sys/power/pm_print_times

# pm_print_times logs each device's callbacks by the bus's name for them
# (platform_pm_suspend calls the driver's); the line's prefix names the
# driver bound to the device.
log=$(log_since suspend)
echo "$log" | grep -q '^\[.*\] sleipnir [^ ]*: .*pm_suspend[^ ]* returned 0 '
check $? "the driver's system suspend returned 0"
echo "$log" | grep -q '^\[.*\] sleipnir [^ ]*: .*pm_resume[^ ]* returned 0 '
check $? "the driver's system resume returned 0"

run_prog sleipnir_stress sleipnir_stress -n "$submits" -t parallel

log=$(log_since suspend)
check_log_clean suspend "the kernel log is clean after suspend and resume"

summary sleipnir-suspend
