# weft: build, test, benchmark. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

# make bench COUNT=13 BENCHTIME=200x; make fuzz FUZZTIME=5m
COUNT ?= 5
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

.PHONY: help deps deps-build deps-test test fmt fmt-check gen-check vet run bench bench-jobs fuzz bench-frame plots

help:
	@echo "make run         run the demo game, go run ./demo (installs build packages if missing)"
	@echo "make test        gofmt, vet, race tests, bench checks, xvfb tests"
	@echo "make deps        install missing Debian packages (deps-build, deps-test)"
	@echo "make fmt | vet | fuzz [FUZZTIME=30s]"
	@echo "make bench [COUNT=5]   comparison tables, raw output in bench/results.txt"
	@echo "make bench-jobs        the jobs package's own benchmarks"
	@echo "make bench-frame [COUNT=5]  raw output in bench/frame.txt; make plots  redraws docs/img/plot-*.png"

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

# W1 runs alone with its own -benchtime; benchtable reads both runs.
bench:
	cd bench && { \
		GOMAXPROCS=2 go test -run XXX -bench '^BenchmarkW1' -benchmem -benchtime=$(W1TIME) -count=$(COUNT); \
		GOMAXPROCS=2 go test -run XXX -bench '^BenchmarkW[2-9]' -benchmem -benchtime=$(BENCHTIME) -count=$(COUNT); \
	} | tee results.txt
	cd bench && go run ./cmd/benchtable < results.txt

bench-jobs:
	go test -run XXX -bench . -benchmem ./jobs/...

fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

# The engine's whole fixed step at 10k to 200k entities, serial and parallel.
bench-frame:
	GOMAXPROCS=2 go test -timeout 30m -run XXX -bench BenchmarkFrame -benchtime 30x -count $(COUNT) ./systems/ | tee bench/frame.txt

# Redraws docs/img/plot-*.png from the committed bench/results.txt and
# bench/frame.txt; no benchmark runs.
plots:
	cd bench && go run ./cmd/plots -results results.txt -frame frame.txt -out ../docs/img
