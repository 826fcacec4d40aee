#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages Sleipnir builds and tests with. Idempotent:
# packages already present are not touched; apt's lists are refreshed only
# when something is missing or the deb-src/arm64 configuration was added.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

HOST_PACKAGES=(
	build-essential meson ninja-build pkg-config python3 python3-venv
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross linux-libc-dev-arm64-cross
	libglib2.0-dev libpixman-1-dev libfdt-dev zlib1g-dev flex bison
	libdrm-dev ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-c-headers opencl-clhpp-headers clinfo
	clang-15 llvm-15 llvm-spirv-15 libclc-15 spirv-tools spirv-headers
	device-tree-compiler kmod cpio xz-utils dpkg-dev rsync perl e2fsprogs
	libasan8 libubsan1 gnuplot-nox ccache
	libelf-dev libxxhash-dev
	# dts/: the binding and the device trees checked with dt-schema.
	dt-schema python3-libfdt
	# pahole: the 6.12 guest kernel's modules carry BTF (kernel/README.md)
	dwarves
)
ARM64_PACKAGES=(
	libdrm-dev:arm64 ocl-icd-opencl-dev:arm64 libc6-dev:arm64
	libelf-dev:arm64 zlib1g-dev:arm64 libxxhash-dev:arm64
)

need_update=0
src=/etc/apt/sources.list.d/debian-src.sources
if ! grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list 2>/dev/null; then
	say "enabling Debian deb-src entries"
	sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources >"$src"
	need_update=1
fi
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	say "enabling the arm64 architecture"
	dpkg --add-architecture arm64
	need_update=1
fi

missing=()
for p in "${HOST_PACKAGES[@]}" "${ARM64_PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

if [ "$need_update" = 1 ] || [ ${#missing[@]} -gt 0 ]; then
	say "apt-get update"
	apt-get update -qq
fi

if [ ${#missing[@]} -gt 0 ]; then
	say "installing ${#missing[@]} Debian packages: ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >"$SLEIPNIR_CACHE/apt-install.log" 2>&1 ||
		{ tail -30 "$SLEIPNIR_CACHE/apt-install.log"; die "apt-get install failed"; }
fi
say "host packages ready"
