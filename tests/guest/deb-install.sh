#!/bin/sh
# SPDX-License-Identifier: MIT
# make deb's packages used on the board as on a Debian board (tests/deb-check.sh
# boots it with --driver none --writable-userland, the .debs in /root/debs and
# the sleipnir.ko Debian's dkms built from sleipnir-dkms in /root/dkms):
# that module is loaded in place of make build's, dpkg -i installs the ICD,
# tools and headers against the userland's dpkg database (so their Depends
# are checked), and everything then runs from the installed paths alone.
# Plain POSIX sh: runs under dash or busybox sh.
. "$(dirname "$0")/check.sh"

debs=/root/debs
dkms=/root/dkms
libdir=/usr/lib/aarch64-linux-gnu

# --- the kernel module DKMS built -------------------------------------------
# The modules it needs are the initramfs's (bound in at /lib/modules).
st=0
for m in $(cat $dkms/depends.txt); do
	modprobe "$m" || st=1
done
check $st "modprobe the module's dependencies: $(echo $(cat $dkms/depends.txt))"
# The board came up with --driver none: no sleipnir is loaded, so the
# one insmod loads is dkms's. Its options as scripts/guest-init.sh's.
[ ! -e /sys/module/sleipnir ] && insmod $dkms/sleipnir.ko max_job_timeout_ms=1800000 &&
	[ -e /sys/module/sleipnir ]
check $? "insmod the sleipnir.ko dkms built from sleipnir-dkms (none loaded before)"
i=0
while [ ! -e /dev/dri/renderD128 ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
[ -e /dev/dri/renderD128 ]
check $? "it probes the GPU: /dev/dri/renderD128"

# --- dpkg -i -----------------------------------------------------------------
# All of them in one run (dpkg reads its database once: seconds here).
# DKMS builds on the board itself; this userland has no dkms (the host's
# tests/dkms-build.sh runs it), so dpkg must leave sleipnir-dkms
# unconfigured: the Depends are enforced, not ignored. The others must
# be installed.
dpkg -i $debs/*.deb >/tmp/dpkg.log 2>&1; st=$?
for f in $debs/*.deb; do
	p=$(dpkg-deb -f "$f" Package)
	want="install ok installed"
	[ "$p" = sleipnir-dkms ] && want="install ok unpacked"
	s=$(dpkg-query -W -f '${Status}' "$p" 2>&1)
	[ "$s" = "$want" ]
	check $? "dpkg -i $(basename "$f"): '$s'"
done
[ $st = 1 ] && grep -q 'sleipnir-dkms depends on dkms' /tmp/dpkg.log &&
	grep -q 'dependency problems prevent configuration of sleipnir-dkms' /tmp/dpkg.log
st=$?
[ $st = 0 ] || cat /tmp/dpkg.log
check $st "dpkg stops at sleipnir-dkms: it depends on dkms"

# --- the ICD through the loader's own folder -----------------------------------
# guest-init.sh points the loader at make build's ICD (/opt/sleipnir);
# from here on it reads /etc/OpenCL/vendors as on a board.
unset OCL_ICD_VENDORS
icd=$(cat /etc/OpenCL/vendors/sleipnir.icd 2>/dev/null)
[ "$icd" = $libdir/libSleipnirOpenCL.so ] && [ -e "$icd" ] &&
	grep -qx /etc/OpenCL/vendors/sleipnir.icd /var/lib/dpkg/info/sleipnir-opencl-icd.list
check $? "/etc/OpenCL/vendors/sleipnir.icd (sleipnir-opencl-icd's) names $icd"
out=$(clinfo -l 2>&1); st=$?
echo "$out" | sed 's/^/    /'
[ $st = 0 ] && echo "$out" | grep -q 'Platform #0: Sleipnir' &&
	echo "$out" | grep -q 'Mali-T860'
check $? "clinfo -l finds the Sleipnir platform and its Mali-T860"
# ld.so names every library it loads: the ICD must be the package's.
LD_DEBUG=files sample_vector_add >/tmp/vadd.log 2>/tmp/vadd-ld.log; st=$?
[ $st = 0 ] || cat /tmp/vadd.log
check $st "sample_vector_add through the installed ICD: $(grep '^demo:' /tmp/vadd.log)"
grep -q "file=$libdir/libSleipnirOpenCL.so " /tmp/vadd-ld.log &&
	! grep -q 'file=/opt/sleipnir/lib/libSleipnirOpenCL.so' /tmp/vadd-ld.log
check $? "the loader opened $libdir/libSleipnirOpenCL.so (and not /opt/sleipnir's)"

# --- the tools ---------------------------------------------------------------
cat >/tmp/scale.cl <<'EOF'
__kernel void scale(__global float *a, float s)
{
	a[get_global_id(0)] *= s;
}
EOF
/usr/bin/sleipnir-cc /tmp/scale.cl -o /tmp/scale.bin >/tmp/cc.log 2>&1; st=$?
[ $st = 0 ] || cat /tmp/cc.log
check $st "/usr/bin/sleipnir-cc compiles an OpenCL C kernel"
/usr/bin/sleipnir-disasm /tmp/scale.bin >/tmp/scale.dis 2>&1 &&
	grep -q '^; kernel scale' /tmp/scale.dis && grep -q 'fmul.f32' /tmp/scale.dis
check $? "/usr/bin/sleipnir-disasm shows kernel scale and its fmul"
# The counted loop of midgard/README.md, through the assembler and back.
cat >/tmp/loop.s <<'EOF'
alu
	vmul.imov.i32 r1.x, #10
loop:
alu
	sadd.isub.i32 r1.x, r1.x, #1
	smul.ine.i32 r31.w, r1.x, #0
	br.true loop
ldst
	st.32 r27.xxxx, [r26.xy]
EOF
/usr/bin/sleipnir-as /tmp/loop.s -o /tmp/loop.bin >/tmp/as.log 2>&1 &&
	/usr/bin/sleipnir-disasm /tmp/loop.bin >/tmp/loop.dis 2>&1 &&
	grep -q 'br.true' /tmp/loop.dis && grep -q 'isub.i32' /tmp/loop.dis
st=$?
[ $st = 0 ] || cat /tmp/as.log /tmp/loop.dis
check $st "/usr/bin/sleipnir-as assembles a loop that sleipnir-disasm reads back"
/usr/bin/sleipnir-info >/tmp/info.log 2>&1 && grep -q '^/dev/dri/renderD128: sleipnir ' /tmp/info.log
check $? "/usr/bin/sleipnir-info: $(head -1 /tmp/info.log)"

# --- the headers ---------------------------------------------------------------
cat >/tmp/hdr.c <<'EOF'
#include <stdint.h>
#include <drm/sleipnir_drm.h>
#include <CL/cl_sleipnir.h>
unsigned long ioctl_number = DRM_IOCTL_SLEIPNIR_GET_PARAM;
unsigned int vendor_query = CL_DEVICE_SLEIPNIR_BYTES_COPIED;
EOF
# -I as `pkg-config --cflags libdrm` gives: where libdrm-dev keeps drm.h.
clang-15 -fsyntax-only -Wall -Werror -I/usr/include/libdrm /tmp/hdr.c >/tmp/hdr.log 2>&1; st=$?
[ $st = 0 ] || cat /tmp/hdr.log
[ $st = 0 ] && [ -e /usr/include/drm/sleipnir_drm.h ] && [ -e /usr/include/CL/cl_sleipnir.h ]
check $? "sleipnir-dev's <drm/sleipnir_drm.h> and <CL/cl_sleipnir.h> compile from /usr/include"

summary deb-install
