#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The host half of `make conformance`: Debian's OpenCL clients on the host
# with pocl 3.1 (pocl-opencl-icd) as the reference implementation. Installs
# the small clients with apt and unpacks piglit's CL parts (not the 2 GB
# package) into the cache. Idempotent. Prints the piglit root on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PACKAGES=(
	pocl-opencl-icd clpeak clblast-tests python3-pyopencl python3-numpy
	python3-mako python3-six libegl1
)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing the reference clients and pocl: ${missing[*]}"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}"; } >"$SLEIPNIR_CACHE/apt-conformance.log" 2>&1 ||
		{ tail -30 "$SLEIPNIR_CACHE/apt-conformance.log"; die "apt-get install failed"; }
fi

version=$(apt-cache show --no-all-versions piglit | awk '/^Version: /{print $2; exit}')
[ -n "$version" ] || die "apt knows no piglit package"
dir="$SLEIPNIR_CACHE/host-piglit-cl-$version-$(hash_inputs scripts/unpack-piglit-cl.sh)"
if [ ! -e "$dir/.done" ]; then
	say "unpacking piglit $version's CL tests for the host"
	work="$dir.tmp.$$"
	trap 'rm -rf "$work"' EXIT
	rm -rf "$work"
	mkdir -p "$work/debs"
	chmod 777 "$work/debs"
	(cd "$work/debs" && apt-get download -qq "piglit=$version") >/dev/null 2>&1 ||
		die "apt-get download piglit failed"
	"$SLEIPNIR_ROOT/scripts/unpack-piglit-cl.sh" "$work"/debs/piglit_*.deb "$work/root"
	rm -rf "$work/debs"
	touch "$work/.done"
	rm -rf "$dir"
	mv "$work" "$dir"
	trap - EXIT
fi
echo "$dir/root"
