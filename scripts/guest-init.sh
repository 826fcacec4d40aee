#!/bin/busybox sh
# SPDX-License-Identifier: MIT
# /init of the board's initramfs (busybox). Loads the GPU driver named on the
# kernel command line (sleipnir.driver=sleipnir|panfrost|none), runs the
# command tests/board put into /run/sleipnir/cmd, reports its exit status and
# the kernel log to the host over the console, and powers off.
# With sleipnir.userland=1 the command runs chrooted in the Debian arm64
# userland (scripts/fetch-guest-userland.sh) from the first virtio disk.
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
userland=0
clcache=0
conformance=0
rwuserland=0
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	sleipnir.driver=*) driver=${arg#sleipnir.driver=} ;;
	sleipnir.userland=*) userland=${arg#sleipnir.userland=} ;;
	sleipnir.clcache=*) clcache=${arg#sleipnir.clcache=} ;;
	sleipnir.conformance=*) conformance=${arg#sleipnir.conformance=} ;;
	sleipnir.rwuserland=*) rwuserland=${arg#sleipnir.rwuserland=} ;;
	esac
done

# The longest a job chain may run on the emulated GPU. sleipnir.ko grants
# at most 60 s by default, as for a Mali, but the model runs kernels a few
# hundred times slower than one: an honest OpenCL kernel can take minutes
# (one launch of clpeak's at its full size took 7 min in issue 17). The ICD
# asks for the longest timeout the driver grants, so this decides; only an
# endless kernel waits it out (or until its process closes the device).
max_job_timeout_ms=1800000

load_driver() {
	[ "$driver" = none ] && return 0
	opts=
	[ "$driver" = sleipnir ] && opts="max_job_timeout_ms=$max_job_timeout_ms"
	modprobe "$driver" $opts || { echo "board: modprobe $driver failed"; return 1; }
	# The render node appears once the driver has probed the GPU.
	i=0
	while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ -e /dev/dri/renderD128 ] || { echo "board: $driver did not create /dev/dri/renderD128"; return 1; }
}

# The Debian userland at /debian: its own /proc, /sys, /dev (with /dev/shm,
# which POSIX semaphores need: Python's multiprocessing), /tmp and /run,
# with our programs, the command, /root (where --add puts files) and the
# kernel modules bound in from the initramfs. The image is read-only: every
# mount point was made when it was built.
debian=/debian
mount_userland() {
	for m in virtio_mmio virtio_blk crc32c_generic ext4; do
		modprobe "$m" || { echo "board: modprobe $m failed"; return 1; }
	done
	# Disks are found by label: the order virtio-mmio probes them in is
	# not the order they were given in.
	i=0
	while ! udisk=$(findfs LABEL=sleipnir-debian 2>/dev/null) && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	mkdir -p $debian
	if [ "$conformance" = 1 ]; then
		# make conformance's clients (scripts/fetch-conformance-layer.sh)
		# over the userland: two read-only lower layers, no upper one.
		modprobe overlay || { echo "board: modprobe overlay failed"; return 1; }
		i=0
		while ! ldisk=$(findfs LABEL=sleipnir-conform 2>/dev/null) && [ $i -lt 200 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		mkdir -p /lower/base /lower/conformance
		mount -t ext4 -o ro "$udisk" /lower/base &&
			mount -t ext4 -o ro "$ldisk" /lower/conformance &&
			mount -t overlay overlay -o lowerdir=/lower/conformance:/lower/base $debian ||
			{ echo "board: cannot mount the conformance layer ($ldisk)"; return 1; }
	elif [ "$rwuserland" = 1 ]; then
		# tests/board --writable-userland: the image under a tmpfs upper
		# layer, so dpkg can install packages (tests/guest/deb-install.sh);
		# what is written there is gone at power-off.
		modprobe overlay || { echo "board: modprobe overlay failed"; return 1; }
		mkdir -p /lower/base /upper
		mount -t ext4 -o ro "$udisk" /lower/base &&
			mount -t tmpfs tmpfs /upper &&
			mkdir -p /upper/data /upper/work &&
			mount -t overlay overlay \
				-o lowerdir=/lower/base,upperdir=/upper/data,workdir=/upper/work $debian ||
			{ echo "board: cannot mount the writable userland ($udisk)"; return 1; }
	else
		mount -t ext4 -o ro "$udisk" $debian || { echo "board: cannot mount the userland ($udisk)"; return 1; }
	fi
	mount -t proc proc $debian/proc &&
		mount -t sysfs sysfs $debian/sys &&
		mount -t debugfs debugfs $debian/sys/kernel/debug &&
		mount -t devtmpfs devtmpfs $debian/dev &&
		mkdir -p $debian/dev/pts $debian/dev/shm &&
		mount -t tmpfs tmpfs $debian/dev/shm &&
		mount -t tmpfs tmpfs $debian/tmp &&
		mount -t tmpfs tmpfs $debian/run &&
		mkdir -p $debian/run/sleipnir $debian/run/busybox &&
		mount --bind /run/sleipnir $debian/run/sleipnir &&
		mount --bind /opt/sleipnir $debian/opt/sleipnir &&
		mount --bind /root $debian/root &&
		mount --bind /lib/modules $debian/lib/modules ||
		{ echo "board: cannot set up the userland's mounts"; return 1; }
	# The compiler's disk cache (tests/board): $HOME/.cache/sleipnir
	# lives on it. Without it the cache stays in RAM for this boot.
	if [ "$clcache" = 1 ]; then
		i=0
		while ! cdisk=$(findfs LABEL=sleipnir-clcache 2>/dev/null) && [ $i -lt 200 ]; do
			sleep 0.05
			i=$((i + 1))
		done
		mkdir -p /root/.cache/sleipnir &&
			mount -t ext4 "$cdisk" $debian/root/.cache/sleipnir ||
			echo "board: compiler cache disk not mounted"
	fi
	# busybox's applets stand in for the tools (coreutils, grep...) the
	# image does not carry; Debian's own programs come first on PATH.
	chroot $debian /bin/busybox --install -s /run/busybox
}

run_command() {
	if [ "$userland" = 1 ]; then
		# The image is read-only and cached, so Sleipnir's ICD is not in
		# its /etc/OpenCL/vendors: ocl-icd reads ours from /opt/sleipnir
		# (userspace/icd/sleipnir.icd) instead.
		OCL_ICD_VENDORS=/opt/sleipnir/etc/OpenCL/vendors \
		PATH=/opt/sleipnir/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/run/busybox \
			chroot $debian /bin/sh -c 'cd /root && exec /bin/sh /run/sleipnir/cmd'
	else
		sh /run/sleipnir/cmd
	fi
}

if load_driver && { [ "$userland" != 1 ] || mount_userland; }; then
	echo "SLEIPNIR-BOARD: ready"
	run_command
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
