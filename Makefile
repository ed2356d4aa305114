# A thin wrapper over CMake + CTest. `make`, `make check`, `make demo`, `make bench`,
# `make install` (PREFIX=/usr/local). Build tree: $(BUILD). `make
# check-sanitize` and `make fuzz` (docs/testing.md) have their own trees.
BUILD ?= build
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all check check-sanitize fuzz demo install clean bench bench-scale

all: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_INSTALL_PREFIX=$(PREFIX) $(CMAKE_FLAGS)

check: all
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The tests that need no plugin, under ASan and UBSan (CMakeLists.txt).
SANITIZE_BUILD ?= build-sanitize
check-sanitize: $(SANITIZE_BUILD)/CMakeCache.txt
	cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	ctest --test-dir $(SANITIZE_BUILD) --output-on-failure -j $(JOBS)

$(SANITIZE_BUILD)/CMakeCache.txt:
	cmake -S . -B $(SANITIZE_BUILD) -DPATHCOV_SANITIZE=ON $(CMAKE_FLAGS)

# AFL++ on each reader for FUZZ_SECONDS (FUZZ_READERS: some of them), with
# ASan and UBSan, or until FUZZ_QUIET seconds pass without a new path; fails
# if any run found a crash or a hang.
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_READERS ?=
FUZZ_QUIET ?=
FUZZ_RESUME ?=
FUZZ_KEEP ?=
fuzz: all
	./scripts/install-deps.sh --fuzz
	$(MAKE) $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	python3 fuzz/run_fuzz.py --build $(FUZZ_BUILD) --seconds $(FUZZ_SECONDS) \
	  $(if $(FUZZ_QUIET),--quiet-for $(FUZZ_QUIET)) $(if $(FUZZ_RESUME),--resume) $(if $(FUZZ_KEEP),--keep) $(FUZZ_READERS)

# afl-clang-fast: Debian's afl-gcc-fast refuses its own GCC 12 ("GCC and
# plugin have incompatible versions").
$(FUZZ_BUILD)/CMakeCache.txt:
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_C_COMPILER=afl-clang-fast \
	  -DCMAKE_CXX_COMPILER=afl-clang-fast++ -DPATHCOV_FUZZ=ON \
	  -DPATHCOV_SANITIZE=ON -DBUILD_TESTING=OFF \
	  -DPATHCOV_MODULE_SEEDS=$(abspath $(BUILD))/fuzz/module-seeds

demo: all
	BUILD=$(BUILD) ./scripts/demo.sh

# Not part of `check`: downloads Debian source packages (adds a deb-src entry
# when missing, as root) and takes about 40 minutes (8 packages, 5 variants,
# 5 runs each); writes docs/benchmarks.md. Installs what it needs first.
bench: all
	./scripts/install-deps.sh --bench
	python3 bench/run_bench.py --build $(BUILD)

# Not part of `check`: a residual compilation against synthetic corpora of
# up to a million functions (a gigabyte of JSON, a few minutes); writes
# docs/bench-scale.md.
bench-scale: all
	python3 bench/run_scale.py --build $(BUILD)

install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(FUZZ_BUILD)
