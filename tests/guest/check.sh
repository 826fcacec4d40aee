# SPDX-License-Identifier: MIT
# The pass/fail bookkeeping of the guest's shell tests, sourced by them
# (installed beside them in /opt/sleipnir/bin): `check STATUS TEXT` counts
# and prints one result, `summary NAME` prints the line tests/run-tests.py
# counts and returns non-zero when a check failed, `run_prog NAME CMD...`
# runs a test program that prints its own summary line. Plain POSIX sh.
passed=0
failed=0

check() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1)); echo "ok   $2"
	else
		failed=$((failed + 1)); echo "FAIL $2"
	fi
}

summary() {
	echo "$1: $passed passed, $failed failed"
	[ $failed = 0 ]
}

# Runs a test program; fails a check only when it printed no summary line
# (its own failures are in that line already, which the runner adds up).
run_prog() {
	name=$1
	shift
	out=/tmp/${0##*/}-$name.log
	"$@" >"$out" 2>&1
	status=$?
	cat "$out"
	grep -q "^$name: [0-9]* passed, [0-9]* failed" "$out" ||
		check 1 "$name ended without a summary (exit status $status)"
}
