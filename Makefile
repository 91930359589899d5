# parcae front door. `make run` sets up, builds and runs the default case; `make test` sets up,
# builds and runs the whole test suite (C++ via ctest, Python tooling via pytest).
BUILD := build/release
PARCAE := $(BUILD)/bin/parcae
PYTHON := /usr/bin/python3
JOBS ?= 2

.PHONY: bench-memory bench-vehicle cluster-study all setup build build-mpich fuzz-build fuzz fuzz-smoke run test test-fast bench scaling overhead contact-bench corpus reader-bench format keywords clean

all: build

setup:
	@scripts/setup.sh

build: setup
	@cmake --preset release >/dev/null
	@cmake --build --preset release -j $(JOBS)

# The same sources built against MPICH (MPI tests only; MPICH runs stay at np <= 2).
build-mpich: setup
	@cmake --preset release-mpich >/dev/null
	@cmake --build --preset release-mpich -j $(JOBS) --target parcae test_par

# The keyword reader's libFuzzer target (preset fuzz: clang, ASan + UBSan, build/fuzz), its seed
# corpus build/fuzz/seeds and dictionary (tests/fuzz/fuzz_keyword_reader.cpp).
FUZZ := build/fuzz/fuzz_keyword_reader
FUZZ_SECONDS ?= 600
FUZZ_FLAGS ?=
fuzz-build: setup
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)

# Fuzz the reader for FUZZ_SECONDS (a hang over 10 s is a finding). New inputs are kept in
# build/fuzz/corpus, a crashing input is written to build/fuzz/findings/ and stops the run;
# FUZZ_FLAGS="-fork=2 -ignore_crashes=1" goes on past findings. Reproduce: $(FUZZ) FILE.
fuzz: fuzz-build
	@mkdir -p build/fuzz/corpus build/fuzz/findings
	$(FUZZ) -max_total_time=$(FUZZ_SECONDS) -timeout=10 -max_len=16384 -rss_limit_mb=2048 \
	  -dict=build/fuzz/keywords.dict -print_final_stats=1 -artifact_prefix=build/fuzz/findings/ \
	  $(FUZZ_FLAGS) build/fuzz/corpus build/fuzz/seeds

# The short deterministic fuzz run that `make test` does (ctest label fuzz).
fuzz-smoke: fuzz-build
	ctest --preset fuzz

run: build
	$(PARCAE) run examples/taylor_bar/taylor_bar.k -o runs/taylor_bar

test: build build-mpich fuzz-build
	ctest --preset release -j $(JOBS)
	ctest --preset release-mpich -j $(JOBS) -L mpi
	ctest --preset fuzz
	scripts/setup_pyenv.sh # lasso-python and VTK: the d3plot reader checks
	PARCAE_BIN=$(CURDIR)/$(PARCAE) $(PYTHON) -m pytest -q python/tests

# Everything but the slow verification runs.
test-fast: build
	ctest --preset release -j $(JOBS) -LE slow

bench: build
	$(BUILD)/bench/parcae_bench_kernels --json bench/kernels.json
	PYTHONPATH=python $(PYTHON) -m parcae_tools.bench summarize bench/kernels.json

# Strong scaling on a generated 51,200-hexahedron deck: np x threads = 1x1, 2x1, 1x2.
scaling: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.scaling --parcae $(PARCAE) --json bench/scaling.json

# The example cluster-study campaign (examples/cluster_study/campaign.yaml: 48 short runs,
# about a minute), its report and PNG figures in runs/cluster_study/report (docs/cluster_study.md).
cluster-study: build build-mpich
	$(PARCAE) bench examples/cluster_study/campaign.yaml -o runs/cluster_study/results.jsonl
	$(PARCAE) bench report runs/cluster_study/results.jsonl -o runs/cluster_study/report

# Cost of d3plot output (a state every 100 cycles) and of --profile on the 51,200-hexahedron
# block, at 1 and 2 ranks (targets: <= 5 % and <= 1 %).
overhead: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.overhead --parcae $(PARCAE) --json bench/overhead.json

# Contact share of the cycle on a 25,600-shell tube with self-contact (target: <= element forces).
contact-bench: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.contact_bench --parcae $(PARCAE) --json bench/contact.json

# The public-deck corpus (../shared/decks): check and run every deck at np 1 and 2, write
# bench/deck_corpus.json and docs/deck_corpus.md (python/tests/test_deck_corpus.py checks both).
# `make corpus ONLY="deck_folder ..."` reruns those decks and keeps the other rows.
corpus: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.deck_corpus run --parcae $(PARCAE) \
	  --decks ../shared/decks --json bench/deck_corpus.json --table docs/deck_corpus.md \
	  $(if $(ONLY),--only $(ONLY))

# Vehicle-class crash models (docs/vehicle.md): generate neon (535 k elements), 3cars (794 k)
# and car2car (2.4 M), run a window of VEHICLE_CYCLES cycles of each at np x threads 1x1, 2x1
# and 1x2, write bench/vehicle.json (memory, set-up, phases, us per element-cycle).
VEHICLE_CYCLES ?= 500
VEHICLE_CLASSES ?= neon,3cars,car2car
bench-vehicle: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.vehicle_bench --parcae $(PARCAE) \
	  --classes $(VEHICLE_CLASSES) --cycles $(VEHICLE_CYCLES) --json bench/vehicle.json

# Reader speed: `parcae check` on a generated 1 M-hexahedron deck (140 MB), median of 3.
# Peak memory per element of a 1 M-hexahedron run against the 1 KiB budget (exit 1 over it):
# bench/memory.json.
bench-memory: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.memory_bench --parcae $(PARCAE) --json bench/memory.json

reader-bench: build
	PYTHONPATH=python $(PYTHON) -m parcae_tools.reader_bench --parcae $(PARCAE) --json bench/reader.json

keywords: build
	$(PARCAE) keywords > docs/keywords.md
	$(PYTHON) scripts/keywords_vs_openradioss.py --parcae $(PARCAE)

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build runs
