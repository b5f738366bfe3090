# ascendopt: the two entry points are `make demo` and `make test`; both install missing
# Debian packages first (scripts/install-deps.sh), then configure and build.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo
CCACHE := $(shell command -v ccache 2>/dev/null)
ifneq ($(CCACHE),)
CMAKE_FLAGS += -DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE)
endif

.PHONY: all deps build test demo bench clean

all: build

deps:
	@bash scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

# Evaluates every bundled operator on the Ascend C twin and prints a summary table.
demo: build
	$(BUILD)/bin/ascendopt eval ops/*

bench: build
	$(BUILD)/bench/bench_eval

clean:
	rm -rf $(BUILD)
