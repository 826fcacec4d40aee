#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the board's initramfs (busybox). Loads the GPU driver named on the
# kernel command line (sleipnir.driver=sleipnir|panfrost|none), runs the
# command tests/board put into /run/sleipnir/cmd, reports its exit status and
# the kernel log to the host over the console, and powers off.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /run
/bin/busybox --install -s
export PATH=/opt/sleipnir/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
mkdir -p /root /dev/pts
cd /root

driver=sleipnir
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	sleipnir.driver=*) driver=${arg#sleipnir.driver=} ;;
	esac
done

load_driver() {
	[ "$driver" = none ] && return 0
	modprobe "$driver" || { echo "board: modprobe $driver failed"; return 1; }
	# The render node appears once the driver has probed the GPU.
	i=0
	while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e /dev/dri/renderD128 ] || { echo "board: $driver did not create /dev/dri/renderD128"; return 1; }
}

if load_driver; then
	echo "SLEIPNIR-BOARD: ready"
	sh /run/sleipnir/cmd
	status=$?
else
	echo "SLEIPNIR-BOARD: ready"
	status=125
fi
echo "SLEIPNIR-BOARD: exit $status"
echo "SLEIPNIR-BOARD: dmesg-begin"
dmesg
echo "SLEIPNIR-BOARD: dmesg-end"
sync
poweroff -f
