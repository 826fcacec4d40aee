# SPDX-License-Identifier: MIT
# Sleipnir's two commands: `make demo` and `make check` (see README.md);
# `make bench`, `make conformance`, `make sim` and `make install` besides.
# Each step installs or builds only what is missing; heavy artifacts are
# cached under ~/.cache/sleipnir (override with SLEIPNIR_CACHE).

export SLEIPNIR_START := $(shell date +%s)

.PHONY: all setup build check demo bench conformance conformance-sim sim install deb clean

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
# board and on the host simulator, pocl on the host beside them; not part
# of check (about an hour).
conformance: build
	@scripts/conformance.py

# The same clients on the host simulator alone, against the same expected
# lists (minutes: no board); the guest's recorded results stay.
conformance-sim: setup
	@scripts/conformance.py --sim

# The OpenCL ICD on the simulated Mali (userspace/sim, README.md): the
# optimised host build's, without sanitizers, so any program can load it
# through build/release/userspace/icd/sleipnir.icd.
sim: setup
	@scripts/build-release.sh userspace/icd/libSleipnirOpenCL.so

# The same ICD for every OpenCL program of this machine: the library under
# /usr/local and its /etc/OpenCL/vendors/sleipnir.icd (DESTDIR honoured).
install: sim
	@meson install -C build/release --no-rebuild --tags opencl

# Debian packages for arm64 boards in build/deb/ (docs/boards.md):
# sleipnir-dkms, -firmware, -opencl-icd, -tools, -dev.
deb: build
	@scripts/build-deb.sh

clean:
	rm -rf build
	$(MAKE) -s -C . -f scripts/kbuild.mk clean
