#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unpacks the OpenCL half of Debian's piglit package into ROOT: the runner
# (/usr/bin/piglit and its framework), the cl-* test programs and the two
# libraries they link, the cl profile and the program-tester files. The rest
# of the package (2 GB of OpenGL tests) stays in the .deb.
# Usage: unpack-piglit-cl.sh PIGLIT_DEB ROOT
set -euo pipefail
. "$(dirname "$0")/lib.sh"

deb=$1 root=$2
mkdir -p "$root"
# cl-interop-egl_khr_cl_event2 needs a whole GL stack (waffle, X11,
# Wayland) for EGL interop no Sleipnir device has: piglit reports a missing
# test program as a skip, on Sleipnir and on the reference alike.
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$root" --wildcards \
	--exclude='*/piglit/bin/cl-interop-*' \
	'./usr/bin/piglit' \
	'./usr/lib/*/piglit/framework/*' \
	'./usr/lib/*/piglit/templates/*' \
	'./usr/lib/*/piglit/bin/cl-*' \
	'./usr/lib/*/piglit/lib/libpiglitutil.so.0' \
	'./usr/lib/*/piglit/lib/libpiglitutil_cl.so.0' \
	'./usr/lib/*/piglit/tests/__init__.py' \
	'./usr/lib/*/piglit/tests/cl.xml.gz' \
	'./usr/lib/*/piglit/tests/quick_cl.meta.xml' \
	'./usr/lib/*/piglit/tests/opencl_foreign.py' \
	'./usr/lib/*/piglit/tests/cl/*' \
	'./usr/lib/*/piglit/generated_tests/cl/*' ||
	die "cannot unpack piglit's CL parts from $deb"
pig=$(echo "$root"/usr/lib/*/piglit)
[ -x "$pig/bin/cl-program-tester" ] && [ -e "$pig/tests/cl.xml.gz" ] ||
	die "piglit's CL parts are missing from $deb"
