# SPDX-License-Identifier: MIT
# The render node and the kernel log, for the guest's shell tests that
# unload, reload or suspend sleipnir.ko; sourced after check.sh (installed
# beside them in /opt/sleipnir/bin). Plain POSIX sh.
#   wait_node              waits up to 10 s for the render node
#   mark NAME              writes a mark into the kernel log
#   log_since NAME         the log after that mark (all of it if the mark
#                          has scrolled out of the ring buffer)
#   check_log_clean NAME TEXT
#                          one check: no splat in the log since the mark
node=/dev/dri/renderD128
log_tag=${0##*/}
log_tag=${log_tag%.sh}

# Kernel log lines that mean trouble (as tests/board's splat scanner), and
# what the DRM core says of objects a driver left behind.
SPLAT='Oops|BUG:|kernel BUG|WARNING:|cut here|KASAN|UBSAN|possible recursive locking|possible circular locking|lockdep|Unable to handle kernel|Kernel panic|general protection fault|Call trace:|INFO: task .* blocked|refcount_t:|list_(add|del) corruption|sleipnir.*(leak|not clean)|drm_mm.*not clean'

wait_node() {
	i=0
	while [ ! -e $node ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e $node ]
}

mark() {
	echo "$log_tag: mark $1" >/dev/kmsg
}

log_since() {
	dmesg | awk -v m="$log_tag: mark $1" \
		'{ line[n++] = $0 } index($0, m) { from = n }
		 END { for (i = from; i < n; i++) print line[i] }'
}

check_log_clean() {
	new=$(log_since "$1")
	if echo "$new" | grep -Eq "$SPLAT"; then
		echo "$new" | grep -E "$SPLAT" | head -20
		check 1 "$2"
	else
		check 0 "$2"
	fi
}
