# SPDX-License-Identifier: MIT
# Cross-builds sleipnir.ko (and the board's test modules) against Debian's
# arm64 headers unpacked by scripts/fetch-guest-kernel.sh.
KCACHE ?= $(shell scripts/fetch-guest-kernel.sh)
KDIR := $(KCACHE)/root/usr/src/linux-headers-$(shell cat $(KCACHE)/abi)
KMAKE := $(MAKE) -s -C $(KDIR) ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-

.PHONY: modules clean
modules:
	$(KMAKE) M=$(CURDIR) modules
	$(KMAKE) M=$(CURDIR)/tests/kmod modules

clean:
	-$(KMAKE) M=$(CURDIR) clean
	-$(KMAKE) M=$(CURDIR)/tests/kmod clean
