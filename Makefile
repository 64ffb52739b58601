# animkit: `make demo` runs the built-in sample, `make test` builds and runs every test twice
# (optimised, then under AddressSanitizer + UndefinedBehaviorSanitizer, whose pass ends with the
# fuzz smoke run: every libFuzzer target a fixed number of runs, about 10 s each, clang + the same
# sanitizers; issue 19). Both do their own set-up.
JOBS ?= 2
CMAKE_FLAGS ?=
RELEASE := build/release
SANITIZE := build/asan
FUZZ := build/fuzz
FUZZ_SECONDS ?= 60
# ccache hits across clones (CI builds a fresh clone in another folder).
export CCACHE_BASEDIR := $(CURDIR)

.PHONY: setup demo test test-release test-packaging test-asan test-asan-ctest test-fuzz bench fuzz fuzz-build format configure-release

setup:
	@bash scripts/setup.sh

configure-release: setup
	@cmake -S . -B $(RELEASE) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS) >/dev/null

demo: configure-release
	@cmake --build $(RELEASE) -j$(JOBS) --target animkit
	@$(RELEASE)/tools/animkit/animkit demo

test: test-release test-packaging test-asan

test-release: configure-release
	cmake --build $(RELEASE) -j$(JOBS)
	cd $(RELEASE) && ctest --output-on-failure -j$(JOBS)

# Issue 33: the Python wheel built from the release tree, installed into a fresh venv and tested
# there (tests/python, mypy --strict on an example); the .deb's contents and lintian. The
# consumers of the installed libraries (CMake, pkg-config, C) are a ctest test (tests/consumer).
test-packaging: test-release
	bash tests/packaging/wheel.sh $(RELEASE)
	bash tests/packaging/deb.sh $(RELEASE)

test-asan: test-asan-ctest test-fuzz

test-asan-ctest: setup
	@cmake -S . -B $(SANITIZE) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DANIMKIT_SANITIZE=ON -DANIMKIT_BENCH=OFF $(CMAKE_FLAGS) >/dev/null
	cmake --build $(SANITIZE) -j$(JOBS)
	cd $(SANITIZE) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j$(JOBS)

bench: configure-release
	cmake --build $(RELEASE) -j$(JOBS)
	@for b in $(RELEASE)/bench/bench_* $(RELEASE)/bench/*/bench_*; do \
	  [ -x "$$b" ] && echo "== $$b" && $$b --benchmark_repetitions=5 --benchmark_report_aggregates_only=true; \
	done; true

# The libFuzzer targets (clang, ASan + UBSan). The compile flags are the sanitizer pass's, so
# ccache shares the objects.
fuzz-build: setup
	@cmake -S . -B $(FUZZ) -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DANIMKIT_SANITIZE=ON -DANIMKIT_TESTS=OFF -DANIMKIT_BENCH=OFF >/dev/null
	cmake --build $(FUZZ) -j$(JOBS)

# Each libFuzzer target for FUZZ_SECONDS (default 60), one after the other, on a corpus under
# fuzz-corpus/<target> seeded from the demo's files and the fuzzers' generators; a crash, an
# input running over 10 s or an RSS over 2 GB fails the run (fuzz/scripts/run_fuzzer.sh).
fuzz: fuzz-build
	@bash fuzz/scripts/seed_corpus.sh $(FUZZ) fuzz-corpus
	@for f in $$(find $(FUZZ)/fuzz -maxdepth 2 -type f -name 'fuzz_*' -perm -u+x | sort); do \
	  n=$$(basename $$f); \
	  bash fuzz/scripts/run_fuzzer.sh $$f $(FUZZ_SECONDS) fuzz-corpus/$$n fuzz-corpus $(FUZZ)/$$n.log || exit 1; \
	done

# The fuzz smoke run (issue 19, item 4): every target for its fixed number of runs from -seed=1
# (fuzz/smoke_runs.txt, about 10 s each here; 10000 for a target not listed), JOBS at a time, on a
# fresh corpus seeded as above: deterministic, so it fails on a regression, never on a new random
# find. Artifacts and logs under $(FUZZ)/smoke. The last step of `make test-asan`.
test-fuzz: fuzz-build
	@rm -rf $(FUZZ)/smoke && bash fuzz/scripts/seed_corpus.sh $(FUZZ) $(FUZZ)/smoke
	@find $(FUZZ)/fuzz -maxdepth 2 -type f -name 'fuzz_*' -perm -u+x | sort | \
	  xargs -P $(JOBS) -I{} sh -c 'n=$$(basename {}); \
	    r=$$(awk -v n=$$n '"'"'$$1 == n {print $$2}'"'"' fuzz/smoke_runs.txt); \
	    bash fuzz/scripts/run_fuzzer.sh {} runs:$${r:-10000} $(FUZZ)/smoke/$$n $(FUZZ)/smoke' \
	  || { echo "fuzz smoke run failed"; exit 1; }

format:
	@git ls-files '*.h' '*.cpp' | xargs clang-format -i

# Imports the demo's arm in Blender (headless) and compares it with `animkit pose`: bone count,
# frame range, a joint's rotation, every joint at every key frame (tools/blender_check.py); then
# the animkit_io add-on's round trip on every engine's demo file (tools/blender/test_animkit_io.py).
# The add-on's tests are also ctest tests (label blender, part of `make test`; issue 32).
BLENDER ?= blender
.PHONY: test-blender
test-blender: configure-release
	cmake --build $(RELEASE) -j$(JOBS) --target animkit animkit_python
	@mkdir -p $(RELEASE)/blender
	$(RELEASE)/tools/animkit/animkit demo --engine core --out $(RELEASE)/blender >/dev/null
	$(RELEASE)/tools/animkit/animkit export $(RELEASE)/blender/core.json -o $(RELEASE)/blender/arm.glb
	@for clip in wave bend; do \
	  $(BLENDER) --background --factory-startup --python-exit-code 1 --python tools/blender_check.py -- \
	    $(RELEASE)/blender/arm.glb --clip $$clip --joint wrist --frame 9 \
	    --animkit $(RELEASE)/tools/animkit/animkit --source $(RELEASE)/blender/core.json || exit 1; \
	done
	@# The animkit_io add-on (tools/blender/animkit_io): import each engine's demo file, check it
	@# against animkit's poses at every key, export it back and compare.
	$(BLENDER) --background --factory-startup --python-exit-code 1 \
	  --python tools/blender/test_animkit_io.py -- --module $(RELEASE)/python --demo $(RELEASE)/blender/demo
