# SPDX-License-Identifier: MIT
# Cross-builds sleipnir.ko (and the board's test modules) against Debian's
# arm64 headers unpacked by scripts/fetch-guest-kernel.sh, for one kernel
# series (KSERIES: 6.1, the default, or 6.12).
#
# Kbuild puts a module's objects beside its sources (M=), so two kernels
# cannot share one tree: 6.1 builds in the source tree as it always has
# (kernel/sleipnir.ko, tests/kmod/*.ko), every other series in its own copy
# of the module sources, build/kmod-SERIES/ (build/kmod-6.12/kernel/sleipnir.ko).
KSERIES ?= 6.1
KCACHE ?= $(shell scripts/fetch-guest-kernel.sh $(KSERIES))
KDIR := $(KCACHE)/root/usr/src/linux-headers-$(shell cat $(KCACHE)/abi)
KMAKE := $(MAKE) -s -C $(KDIR) ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-

ifeq ($(KSERIES),6.1)
KTREE := $(CURDIR)
else
KTREE := $(CURDIR)/build/kmod-$(KSERIES)
endif

.PHONY: modules clean sources
modules: sources
	$(KMAKE) M=$(KTREE) modules
	$(KMAKE) M=$(KTREE)/tests/kmod modules

# The copy holds only the sources Kbuild reads (not the 6.1 build's
# generated *.mod.c); rsync keeps the objects (excluded, so never deleted)
# and the timestamps of unchanged files, so a rebuild compiles only what
# changed.
sources:
ifneq ($(KTREE),$(CURDIR))
	@mkdir -p $(KTREE)
	@rsync -aR --delete --exclude='*.mod.c' --include='*/' --include=Kbuild \
		--include='*.[ch]' \
		--exclude='*' --prune-empty-dirs Kbuild kernel uapi tests/kmod $(KTREE)/
endif

clean:
	-$(KMAKE) M=$(KTREE) clean
	-$(KMAKE) M=$(KTREE)/tests/kmod clean
