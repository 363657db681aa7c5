# weft: build, test, benchmark. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# make bench ROUNDS=13 BENCHTIME=200x PROCS="1 2"; make fuzz FUZZTIME=5m
# Rounds of make bench and make bench-frame: every configuration (benchmark
# and GOMAXPROCS) runs once per round as its own process, in shuffled order.
ROUNDS ?= 9
PROCS ?= 2
# W1's op is one empty job, so it needs many; W2-W4 ops take milliseconds.
W1TIME ?= 1000000x
BENCHTIME ?= 100x
FUZZTIME ?= 30s
# What `make run` starts.
RUN ?= ./demo

# Debian packages: Ebiten's cgo build (also gcc for -race), and for tests
# xvfb-run, which calls xauth.
BUILD_DEBS := gcc pkg-config libc6-dev libgl1-mesa-dev libxcursor-dev libxi-dev \
	libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev
TEST_DEBS := $(BUILD_DEBS) xvfb xauth

# Tracked Go files, bench/ included (every .go file outside a git checkout).
GOFILES = $(wildcard $(shell git ls-files -co --exclude-standard '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))

XVFB := xvfb-run -a -s "-screen 0 1280x800x24"

.PHONY: help deps deps-build deps-test test fmt fmt-check gen-check vet run bench bench-jobs fuzz bench-frame bench-batch bench-contention plots

help:
	@echo "make run         run the demo game, go run ./demo (installs build packages if missing)"
	@echo "make test        gofmt, vet, race tests, bench checks, xvfb tests"
	@echo "make deps        install missing Debian packages (deps-build, deps-test)"
	@echo "make fmt | vet | fuzz [FUZZTIME=30s]"
	@echo "make bench [ROUNDS=9] [PROCS=2]  comparison tables, raw output in bench/results.txt"
	@echo "make bench-jobs        the jobs package's own benchmarks"
	@echo "make bench-frame [ROUNDS=9] [PROCS=2]  raw output in bench/frame.txt; make plots  redraws docs/img/plot-*.png"
	@echo "make bench-batch [ROUNDS=9]  the frame at fixed batch sizes against the adaptive batch, raw output in bench/batch.txt"
	@echo "make bench-contention [ROUNDS=5]  headless step, 0 against 1 worker, with a CPU hog on core 1"

deps: deps-test

# scripts/deps.sh runs apt-get only when a package is missing.
deps-build:
	@bash scripts/deps.sh $(BUILD_DEBS)

deps-test:
	@bash scripts/deps.sh $(TEST_DEBS)

# Packages importing Ebiten panic at init without a display: they run under
# xvfb; everything else runs with -race.
test: deps-test fmt-check gen-check vet
	@headless=$$(bash scripts/pkgs.sh headless); ebiten=$$(bash scripts/pkgs.sh ebiten); \
	[ -n "$$ebiten" ] || echo "test: no package imports Ebiten; no xvfb run"; \
	if [ -n "$$headless" ]; then \
		echo go test -race -count=1 -timeout 15m $$headless; \
		go test -race -count=1 -timeout 15m $$headless; \
	fi; \
			if [ -n "$$headless" ]; then \
		echo "go test -count=1 -run 'Determinism|Alloc' (without -race: the full determinism matrix, zero-allocation checks)"; \
		go test -count=1 -timeout 15m -run 'Determinism|Alloc' $$headless; \
	fi; \
	echo "go test -count=1 -tags weft_nochecks ./safety/... ./ecs/..."; \
	go test -count=1 -tags weft_nochecks ./safety/... ./ecs/...; \
	echo "cd bench && go test -count=1 ./..."; \
	(cd bench && go test -count=1 ./...); \
	if [ -n "$$ebiten" ]; then \
		echo '$(XVFB)' go test -count=1 $$ebiten; \
		$(XVFB) go test -count=1 $$ebiten; \
	fi

fmt-check:
	@bad=$$($(if $(GOFILES),gofmt -l $(GOFILES))); \
	if [ -n "$$bad" ]; then \
		echo "gofmt: these files need formatting (make fmt):"; echo "$$bad"; exit 1; \
	fi

fmt:
	$(if $(GOFILES),gofmt -l -w $(GOFILES),@true)

# The generated arity variants must match their generator.
gen-check:
	@d=$$(mktemp -d); go run ./ecs/internal/gen -dir $$d; \
	for f in $$d/*.go; do \
		cmp -s $$f ecs/$$(basename $$f) || { echo "gen-check: ecs/$$(basename $$f) is stale: run go generate ./ecs"; exit 1; }; \
	done; rm -rf $$d

# vet type-checks Ebiten's cgo code too, hence the build packages.
vet: deps-build
	go vet ./...
	cd bench && go vet ./...

run: deps-build
	go run $(RUN) $(ARGS)

# benchrun (bench/cmd/benchrun) runs each configuration as its own process
# over ROUNDS shuffled rounds; W1 has its own -benchtime. benchtable prints
# median and min–max per row.
bench:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; cd bench && go test -c -o $$d/bench.test . && \
	go run ./cmd/benchrun -bin $$d/bench.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o results.txt -bench '^BenchmarkW1=$(W1TIME)' -bench '^BenchmarkW[2-9]=$(BENCHTIME)'
	cd bench && go run ./cmd/benchtable < results.txt

bench-jobs:
	go test -run XXX -bench . -benchmem ./jobs/...

fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

# The engine's whole fixed step at 10k to 200k entities, serial and
# parallel, each as its own process over ROUNDS shuffled rounds.
bench-frame:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; go test -c -o $$d/systems.test ./systems && cd bench && \
	go run ./cmd/benchrun -bin $$d/systems.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o frame.txt -bench '^BenchmarkFrame$$=30x'
	cd bench && go run ./cmd/benchtable < frame.txt

# The parallel step at fixed batch sizes against the adaptive batch, each
# as its own process over ROUNDS shuffled rounds; raw output in
# bench/batch.txt.
bench-batch:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; go test -c -o $$d/systems.test ./systems && cd bench && \
	go run ./cmd/benchrun -bin $$d/systems.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o batch.txt -bench '^BenchmarkFrameBatch$$=30x'
	cd bench && go run ./cmd/benchtable < batch.txt

# Never slower than serial: the headless step with 0 and 1 workers at 20k
# and 50k entities, alternating, while a hog spins on core 1.
bench-contention:
	bash scripts/contention.sh $(ROUNDS)

# Redraws docs/img/plot-*.png from the committed bench/results.txt and
# bench/frame.txt; no benchmark runs.
plots:
	cd bench && go run ./cmd/plots -results results.txt -frame frame.txt -out ../docs/img
