# SPDX-License-Identifier: MIT
# Shared helpers for Sleipnir's build scripts: cache location, progress lines, hashing.

SLEIPNIR_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SLEIPNIR_CACHE=${SLEIPNIR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleipnir}
SLEIPNIR_START=${SLEIPNIR_START:-$(date +%s)}
export SLEIPNIR_ROOT SLEIPNIR_CACHE SLEIPNIR_START

# The one place the guest kernels' Debian packages are pinned: each series'
# metapackage resolves to a concrete ABI (6.1.0-NN, 6.12.NN+deb12) through
# apt at set-up time. 6.1 is bookworm's own kernel and the board's default;
# 6.12 comes from bookworm-security (the backported LTS).
SLEIPNIR_KERNEL_SERIES="6.1 6.12"
SLEIPNIR_KERNEL_DEFAULT=6.1
SLEIPNIR_KERNEL_META=linux-image-arm64
# kernel_meta SERIES : the metapackage naming that series' arm64 kernel.
kernel_meta() {
	case "$1" in
	6.1) echo "$SLEIPNIR_KERNEL_META" ;;
	6.12) echo linux-image-6.12-arm64 ;;
	*) return 1 ;;
	esac
}
# Debian's QEMU 7.2 source package.
SLEIPNIR_QEMU_SRCPKG=qemu

mkdir -p "$SLEIPNIR_CACHE"

# Compiler outputs, cached outside the tree (ccache, which meson uses for
# the host builds on its own and meson/aarch64-linux-gnu.ini names for the
# guest's): a fresh clone builds from the cache instead of compiling
# everything again. Paths are rewritten relative to the tree and the
# working directory is left out of the hash, so any clone hits what
# another compiled (its debug info then names that clone's directory).
export CCACHE_DIR=${CCACHE_DIR:-$SLEIPNIR_CACHE/ccache}
export CCACHE_BASEDIR=$SLEIPNIR_ROOT
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}

say() {
	local now=$(date +%s)
	printf '[%4ds] %s\n' $((now - SLEIPNIR_START)) "$*" >&2
}

die() {
	say "error: $*"
	exit 1
}

# hash_inputs FILE_OR_DIR... : a short stable hash of the named files' contents.
hash_inputs() {
	(
		cd "$SLEIPNIR_ROOT"
		find "$@" -type f ! -name '*~' -print0 | LC_ALL=C sort -z |
			xargs -0 sha256sum
	) | sha256sum | cut -c1-16
}
