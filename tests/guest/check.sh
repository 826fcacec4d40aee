# SPDX-License-Identifier: MIT
# The pass/fail bookkeeping of the guest's shell tests, sourced by them
# (installed beside them in /opt/sleipnir/bin): `check STATUS TEXT` counts
# and prints one result, `summary NAME` prints the line tests/run-tests.py
# counts and returns non-zero when a check failed. Plain POSIX sh.
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
