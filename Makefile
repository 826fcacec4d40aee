# SPDX-License-Identifier: MIT
# Sleipnir's two commands: `make demo` and `make check` (see README.md);
# `make bench` and `make conformance` besides.
# Each step installs or builds only what is missing; heavy artifacts are
# cached under ~/.cache/sleipnir (override with SLEIPNIR_CACHE).

export SLEIPNIR_START := $(shell date +%s)

.PHONY: all setup build check demo bench conformance clean

all: build

setup:
	@scripts/setup-host.sh

build: setup
	@scripts/build.sh

check: build
	@scripts/run-tests.py

demo: build
	@scripts/demo.sh

bench: build
	@scripts/bench.sh

# Debian's OpenCL clients (piglit CL, CLBlast, clpeak, PyOpenCL) on the
# board, pocl on the host beside them; not part of check (about an hour).
conformance: build
	@scripts/conformance.py

clean:
	rm -rf build
	$(MAKE) -s -C . -f scripts/kbuild.mk clean
