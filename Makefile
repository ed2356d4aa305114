# A thin wrapper over CMake + CTest. `make`, `make check`, `make demo`, `make bench`,
# `make install` (PREFIX=/usr/local). Build tree: $(BUILD).
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all check demo install clean bench

all: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

check: all
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

demo: all
	BUILD=$(BUILD) ./scripts/demo.sh

# Not part of `check`: downloads Debian source packages (adds a deb-src entry
# when missing, as root) and takes about half an hour (7 packages, 5 variants,
# 5 runs each); writes docs/benchmarks.md. Installs what it needs first.
bench: all
	./scripts/install-deps.sh --bench
	python3 bench/run_bench.py --build $(BUILD)

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD)
