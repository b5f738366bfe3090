# ascendopt: the two entry points are `make demo` and `make test`; both install missing
# Debian packages first (scripts/install-deps.sh), then configure and build.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# -g1 (line tables, no variable info): backtraces keep file:line, and the build takes about a
# third less time than with -g, which matters on CI's two cores.
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
CCACHE := $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
CMAKE_FLAGS += -DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE)
endif

.PHONY: all deps build test test-plain test-cann test-cann-full fuzz demo bench study-cann clean

all: build

# DEPS_FLAGS: extras for install-deps.sh; make test adds --test (headless Chromium for the report test).
deps:
	@bash scripts/install-deps.sh $(DEPS_FLAGS)

build: deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# make test: the whole suite once, on a build of ascendopt's own code with AddressSanitizer and
# UndefinedBehaviorSanitizer (in $(BUILD)-sanitize; -O1 -g1: every report has file:line). What
# operator binaries link (the twin runtime and harness, core/) stays uninstrumented, and most of
# the suite's time is spent compiling and running operators, so the sanitizers cost the run
# little; one build instead of an optimized one plus a sanitized one keeps CI's cold run short.
# make test-plain runs the same suite on the optimized build that make demo uses.
SANITIZE_BUILD = $(BUILD)-sanitize
test: DEPS_FLAGS += --test
test: deps
	@cmake -S . -B $(SANITIZE_BUILD) -G Ninja $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=Sanitize -DCMAKE_CXX_FLAGS_SANITIZE="-O1 -g1" \
	  -DASCENDOPT_SANITIZE=ON -DASCENDOPT_BUILD_BENCH=OFF > /dev/null
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest -j $(JOBS) --output-on-failure

# The suite on the optimized build (make build), without sanitizers.
test-plain: DEPS_FLAGS += --test
test-plain: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

# The cann-ops suites (suite/cann-ops-level1..3: our manifests and numpy goldens) on the twin,
# with the operators from the cann-ops checkout CANN_OPS; skipped, with a message, when there
# is none. Known operator defects show as XFAIL and do not fail it. LEVELS picks levels.
CANN_OPS ?= ../shared/cann-ops
test-cann: build
	@bash scripts/test-cann.sh $(BUILD) $(CANN_OPS) $(LEVELS)

# Every operator of the three cann-ops suites as make test's Suite/CannOps tests (make test runs
# all of Level 1 and a subset of Levels 2 and 3; tests/e2e/test_cann_suites.cpp names it), and
# every Level-1 operator through --backend twin-acl (Suite/TwinAclLevel1, which make test runs too).
test-cann-full: DEPS_FLAGS += --test
test-cann-full: build
	cd $(BUILD) && ASCENDOPT_ALL_LEVELS=1 ctest -j $(JOBS) --output-on-failure -R 'Suite/(CannOps|TwinAclLevel1)\.'

# The study on the cann-ops Level-1 operators (scripts/study-cann.sh): rule-based rewind into a
# bank, then every offline method at 230 evaluations per operator with three seeds, then the
# report, in STUDY_OUT. Skipped, with a message, without a checkout.
STUDY_OUT ?= study-level1
study-cann: build
	@bash scripts/study-cann.sh $(BUILD) $(CANN_OPS) $(STUDY_OUT)

# libFuzzer over the parsers of untrusted text, FUZZ_SECONDS per target (clang; not part of make test).
FUZZ_SECONDS ?= 60
fuzz:
	@bash scripts/install-deps.sh --fuzz
	@cmake -S . -B $(BUILD)-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DASCENDOPT_FUZZ=ON \
	  -DASCENDOPT_BUILD_TESTS=OFF -DASCENDOPT_BUILD_BENCH=OFF > /dev/null
	@cmake --build $(BUILD)-fuzz -j $(JOBS) --target fuzz_manifest fuzz_msopst fuzz_reply fuzz_chat
	bash scripts/run-fuzz.sh $(BUILD)-fuzz $(FUZZ_SECONDS)

# The main job offline: rewind -> bank -> the study on the bundled suite (scripts/demo.sh).
demo: build
	BUILD=$(BUILD) bash scripts/demo.sh

bench: build
	$(BUILD)/bench/bench_eval

clean:
	rm -rf $(BUILD)
