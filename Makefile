# SPDX-License-Identifier: GPL-2.0
#
# User entry points. The module itself is described by ./Kbuild; kbuild
# reads that file, not this one, when it descends here with M=.

# The build host usually runs another kernel: default to the running
# kernel when its headers exist, else the newest installed headers.
KVER ?= $(shell bash -c '. scripts/lib.sh; default_kver')
# The headers: the host's, or those in the build root of the suite that
# carries KVER (scripts/suite-root), where scripts/kbuild then runs make.
KDIR ?= $(shell bash -c '. scripts/lib.sh; headers_dir $(KVER)')
VERSION := $(shell cat VERSION)

.PHONY: all module import tools deps demo test test-debug bench check \
	dkms-install deb dist install refresh drift clean help torture fsstress \
	fstests parity

all: module tools ## build f2fs_packed.ko and the tools

# The module of each kernel is kept as build/<kernel>/f2fs_packed.ko, so
# the tests and the bench can boot one series while the tree is imported
# for another.
module: import
	KDIR=$(KDIR) scripts/kbuild $(KVER) modules
	mkdir -p build/$(KVER)
	# Renamed into place: a guest test may be loading the old one.
	cp f2fs_packed.ko build/$(KVER)/.f2fs_packed.ko.new
	mv -f build/$(KVER)/.f2fs_packed.ko.new build/$(KVER)/f2fs_packed.ko

# Imports fs/f2fs from the kernel source and applies patches/<series>;
# a no-op while the imported tree matches the series and the patches.
import:
	@test -n "$(KVER)" || { echo "f2fs_packed: no kernel headers installed: install linux-headers-amd64 (or run scripts/install-deps)" >&2; exit 1; }
	scripts/import $(KVER)

tools:
	$(MAKE) -C tools/f2fs-gc
	$(MAKE) -C tools/replay-log-writes

deps: ## install the Debian packages the build, tests and VM need
	scripts/install-deps $(if $(filter command line,$(origin KVER)),$(KVER))

demo: deps ## build, boot the VM, show packing at work
	$(MAKE) all
	scripts/demo

# Every series of META unless KVER is given on the command line; tests/run
# builds the module for each kernel before its tests.
test: deps ## run the whole test suite (host checks and VM tests)
	tests/run $(if $(filter command line,$(origin KVER)),-k $(KVER))

# The debug lane (opt-in, not part of make test): the guest tests below on
# a debug kernel of SERIES (scripts/debug-kernel: lockdep, KASAN, kmemleak,
# list and object debugging), built once from its linux-source and cached.
# SERIES is KVER's series when KVER is given, else 6.12; DEBUG_TESTS
# chooses other tests; TEST_JOBS lanes as for make test.
DEBUG_SERIES = $(if $(filter command line,$(origin KVER)),$(shell bash -c '. scripts/lib.sh; series_of_kver $(KVER)'),6.12)
DEBUG_TESTS ?= 30-packing 37-packing-races 40-zoned-packing 47-packing-sections \
	52-batch-gc-range 53-batch-hint 54-batch-space 55-batch-held-emptied \
	56-batch-one-time 57-batch-freezer 60-powercut-log-writes 62-torture-smoke
test-debug: ## the debug lane: guest tests on a lockdep+KASAN+kmemleak kernel (SERIES=, DEBUG_TESTS=)
	k=$$(scripts/debug-kernel $(or $(SERIES),$(DEBUG_SERIES))) && \
		tests/run -k "$$k" $(DEBUG_TESTS)

# fstests' fsstress alone, for the torture run (FSTESTS_SRC or
# FSTESTS_TARBALL name the fstests source; needs xfslibs-dev).
fsstress:
	nice -n 10 scripts/build-fsstress

# Seeded GC torture in the VM: make torture DURATION=30m [KVER=...]
# [TORTURE_SEED=N to replay a run, TORTURE_FS=stock against the kernel's
# own f2fs]; opt-in, not part of make test.
DURATION ?= 10m
torture: ## seeded GC torture in the VM (DURATION=10m, TORTURE_SEED=N replays)
	$(MAKE) module tools
	-$(MAKE) fsstress
	scripts/torture -k $(KVER) $(DURATION)

# The differential lane in the VM: generated operation sequences on stock
# f2fs and on f2fs_packed (knobs off, packing on x 1, x 64), compared step
# by step: make parity [KVER=...] [PARITY_SEEDS="1 2"] [PARITY_STEPS=60];
# opt-in, its short form is guest test 65.
parity: ## stock f2fs and f2fs_packed step by step in the VM (PARITY_SEEDS=, PARITY_STEPS=)
	$(MAKE) module tools
	scripts/parity -k $(KVER)

# fstests in the VM against f2fs_packed and stock f2fs, normal and GC
# storm, verdicts side by side (opt-in, not part of make test):
# make fstests [KVER=...] [FSTESTS_GROUPS="f2fs/* generic/quick"]
# [FSTESTS_TESTS="f2fs/001 ..."]; the rest in scripts/fstests.
fstests: ## fstests in the VM, f2fs_packed and stock f2fs side by side
	scripts/install-deps --fstests
	$(MAKE) module
	scripts/fstests -k $(KVER)

bench: deps ## packing benchmarks side by side, figures in results/
	$(MAKE) all
	bench/run

check: import ## checkpatch over our C and patches, shellcheck over scripts
	scripts/check

dkms-install: ## install under /usr/src, DKMS-build for every supported kernel
	scripts/dkms-install

deb: ## build the f2fs-packed-dkms and f2fs-packed-tools packages into build/
	scripts/mkdeb

# Our files as the tree has them (not git's): works from the tarball too.
dist: ## write the release tarball build/f2fs_packed-VERSION.tar.xz
	scripts/dist

# After editing src/f2fs: make refresh PATCH=0002-gc-hook-inode-local-packing.patch
# (the hook is 0003 on 6.1)
refresh: ## rewrite PATCH=<name> of the series from the edited src/f2fs
	@test -n "$(PATCH)" || { echo "usage: make refresh PATCH=<patch file name>" >&2; exit 2; }
	scripts/refresh $(PATCH)

# Imports every linux-source-<series> the suites of META carry now.
drift: ## does every kernel source Debian carries now import? (a table)
	scripts/drift

install: tools ## install f2fs-gc, its man page and systemd units (/usr/local)
	$(MAKE) -C tools/f2fs-gc install

clean: ## remove build products (keeps the imported tree)
	-KDIR=$(KDIR) scripts/kbuild $(KVER) clean
	-$(MAKE) -C tools/f2fs-gc clean
	-$(MAKE) -C tools/replay-log-writes clean
	rm -rf build tests/out

help:
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/' | expand -t 16
