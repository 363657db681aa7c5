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
# Each fuzz target's time in CI (make fuzz-ci, from .ci/run).
CI_FUZZTIME ?= 20s
# make soak: interaction-scene seeds for SOAK, from SEED (default: the
# clock), with SOAK_ENTITIES entities a game (0: as generated).
SOAK ?= 1m
SEED ?=
SOAK_ENTITIES ?= 0
# What `make run` starts.
RUN ?= ./demo
# The benchmark targets write raw output under bench/results/$(MACHINE)/:
# amd-epyc and intel-xeon are docs/PERFORMANCE.md's machines, told by the
# CPU model; another machine is named by its model in lower case. make
# plots draws PLOT_MACHINE's committed files. RESULTS is relative to bench/.
MACHINE ?= $(shell m=$$(grep -m1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 || true); \
	case "$$m" in (*EPYC*) echo amd-epyc;; (*Xeon*) echo intel-xeon;; \
	(*[a-zA-Z0-9]*) echo "$$m" | tr A-Z a-z | tr -cs a-z0-9 - | sed 's/^-*//; s/-*$$//';; (*) echo unknown;; esac)
RESULTS = results/$(MACHINE)
PLOT_MACHINE ?= amd-epyc

# Debian packages: Ebiten's cgo build (also gcc for -race), and for tests
# xvfb-run, which calls xauth.
BUILD_DEBS := gcc pkg-config libc6-dev libgl1-mesa-dev libxcursor-dev libxi-dev \
	libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev
TEST_DEBS := $(BUILD_DEBS) xvfb xauth chromium

# Tracked Go files, bench/ included (every .go file outside a git checkout).
GOFILES = $(wildcard $(shell git ls-files -co --exclude-standard '*.go' 2>/dev/null || find . -name '*.go' -not -path './.git/*'))

XVFB := xvfb-run -a -s "-screen 0 1280x800x24"

STATICCHECK_VERSION := v0.8.2
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

.PHONY: help deps deps-build deps-test test test-race test-nonrace test-nochecks test-bench test-xvfb flaky fmt fmt-check gen-check vet staticcheck run bench bench-jobs fuzz fuzz-ci soak bench-frame bench-propagate bench-batch bench-contention bench-w1-hog bench-peers bench-demo bench-ecs plots

help:
	@echo "make run         run the demo game, go run ./demo (installs build packages if missing)"
	@echo "make test        deps, gofmt, generated code, vet, staticcheck, race tests, the rest without race, bench checks, xvfb tests"
	@echo "make flaky       every package's tests five times on one CPU (slow)"
	@echo "make deps        install missing Debian packages (deps-build, deps-test)"
	@echo "make soak [SOAK=1m] [SEED=n] [SOAK_ENTITIES=0]  the interaction scene on new seeds: seeds/s, failures, memory"
	@echo "make fmt | vet | staticcheck | fuzz [FUZZTIME=30s] | fuzz-ci (every fuzz target 20 s, as CI runs them)"
	@echo "make bench [ROUNDS=9] [PROCS=2]  comparison tables, raw output in bench/$(RESULTS)/results.txt (MACHINE=$(MACHINE))"
	@echo "make bench-jobs        the jobs package's own benchmarks"
	@echo "make bench-frame [ROUNDS=9] [PROCS=2] [SIZES='(50|100)k'] [FRAME_OUT=frame.txt]  raw output in bench/$(RESULTS)/frame.txt; make plots [PLOT_MACHINE=amd-epyc]  redraws docs/img/plot-*.png"
	@echo "make bench-propagate [ROUNDS=9]  transform propagation, 100k entities 1-8 deep, serial against 1 and 2 workers: bench/$(RESULTS)/propagate.txt"
	@echo "make bench-batch [ROUNDS=9]  the frame at fixed batch sizes against the adaptive batch, raw output in bench/$(RESULTS)/batch.txt"
	@echo "make bench-contention [ROUNDS=9]  headless step, 0 against 1 worker, with a CPU hog on core 1"
	@echo "make bench-w1-hog [ROUNDS=9]  bench/'s W1, weft against the Go peers, with a CPU hog on core 1: bench/$(RESULTS)/w1-hog.txt"
	@echo "make bench-peers [ROUNDS=9] [WORKLOADS=1234] [OUT=peers.txt]  make bench's workloads with enkiTS and Taskflow (C++) in the same rounds: bench/$(RESULTS)/peers.txt"
	@echo "make bench-demo [ROUNDS=9]   the demo window under Xvfb, serial against 1 worker: TPS and FPS"
	@echo "make bench-ecs [ROUNDS=9] [ECS_BENCHTIME=20ms] [ECS_BENCHTIME_LARGE=300ms]  go-ecs-benchmarks' workloads, weft beside Ark, Arche, Donburi, ggecs, uot, Volt: bench/$(RESULTS)/ecs-suite-*.txt"
	@echo "make screenshots       the README's pictures into docs/img/ (scripts/screenshots.sh)"
	@echo "make web [WEB_ADDR=127.0.0.1:8080]  the demo and the examples in the browser (GOOS=js GOARCH=wasm), served on localhost"
	@echo "make test-web          the demo in headless Chromium: it draws, its world moves (also part of make test)"

deps: deps-test

# scripts/deps.sh runs apt-get only when a package is missing.
deps-build:
	@bash scripts/deps.sh $(BUILD_DEBS)

deps-test:
	@echo "== deps: Debian packages for Ebiten's cgo build, xvfb and chromium (scripts/deps.sh)"
	@bash scripts/deps.sh $(TEST_DEBS)

# The steps of make test, in order; each prints one header line ("== ...").
# Packages importing Ebiten panic at init without a display: they run under
# xvfb; every other package runs once with -race. Tests that the race
# detector would make too slow or wrong skip or shorten themselves under it
# (raceOn, in the packages with a norace_test.go): the nonrace step runs
# just those without -race.
test: deps-test fmt-check gen-check vet staticcheck test-race test-nonrace test-nochecks test-bench test-xvfb test-web

test-race:
	@pkgs=$$(bash scripts/pkgs.sh headless); \
	echo "== race: go test -race, every package without Ebiten"; \
	go test -race -count=1 -timeout 30m $$pkgs

test-nonrace:
	@pkgs=$$(bash scripts/pkgs.sh norace); \
	echo "== nonrace: go test -run 'Determinism|Alloc|Showcase' without -race: the full determinism matrix, zero-allocation checks, the demo's long run"; \
	if [ -n "$$pkgs" ]; then go test -count=1 -timeout 15m -run 'Determinism|Alloc|Showcase' $$pkgs; fi

test-nochecks:
	@echo "== nochecks: go test -tags weft_nochecks ./safety/... ./ecs/... (the checks compiled out)"
	@go test -count=1 -tags weft_nochecks ./safety/... ./ecs/...

test-bench:
	@echo "== bench: the benchmark module's tests (cd bench && go test ./...)"
	@cd bench && go test -count=1 ./...

test-xvfb:
	@pkgs=$$(bash scripts/pkgs.sh ebiten); \
	echo "== xvfb: go test under xvfb-run, the packages importing Ebiten"; \
	if [ -n "$$pkgs" ]; then $(XVFB) go test -count=1 $$pkgs; else echo "no package imports Ebiten"; fi

# Every root-module package's tests five times on one CPU: a test that
# leans on scheduling luck fails here. Slow (the systems package is last).
flaky: deps-test
	@echo "== flaky: go test -count=5 on one CPU, every package (scripts/flaky.sh)"
	@bash scripts/flaky.sh

fmt-check:
	@echo "== fmt: gofmt -l"
	@bad=$$($(if $(GOFILES),gofmt -l $(GOFILES))); \
	if [ -n "$$bad" ]; then \
		echo "gofmt: these files need formatting (make fmt):"; echo "$$bad"; exit 1; \
	fi

fmt:
	$(if $(GOFILES),gofmt -l -w $(GOFILES),@true)

# The generated arity variants must match their generator.
gen-check:
	@echo "== gen: ecs's generated arity variants match ecs/internal/gen"
	@d=$$(mktemp -d); go run ./ecs/internal/gen -dir $$d; \
	for f in $$d/*.go; do \
		cmp -s $$f ecs/$$(basename $$f) || { echo "gen-check: ecs/$$(basename $$f) is stale: run go generate ./ecs"; exit 1; }; \
	done; rm -rf $$d

# vet type-checks Ebiten's cgo code too, hence the build packages.
vet: deps-build
	@echo "== vet: go vet ./..., with -tags weft_nochecks, and in bench/"
	@go vet ./...
	@go vet -tags weft_nochecks ./...
	@cd bench && go vet ./...

# Pinned: a new staticcheck release may report new things. The first run
# compiles it (minutes); later runs use the build cache.
staticcheck:
	@echo "== staticcheck $(STATICCHECK_VERSION): go run $(STATICCHECK) ./..."
	@go run $(STATICCHECK) ./...

run: deps-build
	go run $(RUN) $(ARGS)

# benchrun (bench/cmd/benchrun) runs each configuration as its own process
# over ROUNDS shuffled rounds; W1 has its own -benchtime. benchtable prints
# median and min–max per row.
bench:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; cd bench && mkdir -p $(RESULTS) && go test -c -o $$d/bench.test . && \
	go run ./cmd/benchrun -bin $$d/bench.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o $(RESULTS)/results.txt -bench '^BenchmarkW1=$(W1TIME)' -bench '^BenchmarkW[2-9]=$(BENCHTIME)'
	cd bench && go run ./cmd/benchtable < $(RESULTS)/results.txt

bench-jobs:
	go test -run XXX -bench . -benchmem ./jobs/...

# Every Fuzz target of the headless packages, found by scripts/fuzz.sh, for
# FUZZTIME each from its committed corpus (testdata/fuzz/); a failure fails
# the run and leaves its input there. fuzz-ci is CI's bounded run.
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

fuzz-ci:
	bash scripts/fuzz.sh $(CI_FUZZTIME)

# The interaction scene (internal/interact) on new seeds for SOAK: seeds/s
# and failures as it goes, memory and allocations per step at the end.
soak:
	go run ./internal/interact/cmd/soak -for $(SOAK) -entities $(SOAK_ENTITIES) $(if $(SEED),-seed $(SEED))

# The engine's whole fixed step at 10k to 200k entities, serial and
# parallel, each as its own process over ROUNDS shuffled rounds. SIZES
# picks sizes by regexp (SIZES='(50|100)k'), FRAME_OUT names the raw
# output in bench/$(RESULTS)/ (make plots reads frame.txt).
SIZES ?=
FRAME_OUT ?= frame.txt
bench-frame:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; go test -c -o $$d/systems.test ./systems && cd bench && mkdir -p $(RESULTS) && \
	go run ./cmd/benchrun -bin $$d/systems.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o $(RESULTS)/$(FRAME_OUT) -bench '^BenchmarkFrame$$/$(SIZES)=30x'
	cd bench && go run ./cmd/benchtable < $(RESULTS)/$(FRAME_OUT)

# Transform propagation over 100,000 entities in hierarchies 1 to 8 links
# deep, serial against 2 workers, each as its own process over ROUNDS
# shuffled rounds; raw output in bench/$(RESULTS)/propagate.txt.
bench-propagate:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; go test -c -o $$d/transform.test ./systems/transform && cd bench && mkdir -p $(RESULTS) && \
	go run ./cmd/benchrun -bin $$d/transform.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o $(RESULTS)/propagate.txt -bench '^BenchmarkPropagate$$=100x'
	cd bench && go run ./cmd/benchtable < $(RESULTS)/propagate.txt

# The parallel step at fixed batch sizes against the adaptive batch, each
# as its own process over ROUNDS shuffled rounds; raw output in
# bench/$(RESULTS)/batch.txt.
bench-batch:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; go test -c -o $$d/systems.test ./systems && cd bench && mkdir -p $(RESULTS) && \
	go run ./cmd/benchrun -bin $$d/systems.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o $(RESULTS)/batch.txt -bench '^BenchmarkFrameBatch$$=30x'
	cd bench && go run ./cmd/benchtable < $(RESULTS)/batch.txt

# Never slower than serial: the headless step with 0 and 1 workers at 20k
# and 50k entities, alternating, while a hog spins on core 1.
bench-contention:
	bash scripts/contention.sh $(ROUNDS)

# bench/'s W1 (weft, serial and the Go peers, each its own process over
# ROUNDS shuffled rounds) while a hog spins on core 1 (scripts/hog.sh).
bench-w1-hog:
	d=$$(mktemp -d); trap 'rm -rf $$d' EXIT; cd bench && mkdir -p $(RESULTS) && go test -c -o $$d/bench.test . && \
	bash ../scripts/hog.sh go run ./cmd/benchrun -bin $$d/bench.test -rounds $(ROUNDS) -procs "$(PROCS)" \
		-o $(RESULTS)/w1-hog.txt -bench '^BenchmarkW1=$(W1TIME)'
	cd bench && go run ./cmd/benchtable < $(RESULTS)/w1-hog.txt

bench-demo: deps-test
	bash scripts/demo-rates.sh $(ROUNDS)

# bench/'s workloads with the C++ peers enkiTS and Taskflow in the same
# rounds (scripts/peers.sh says where their sources come from); not part of
# make test. Raw output in bench/$(RESULTS)/peers.txt; WORKLOADS=3
# OUT=peers-w3.txt runs W3 alone into bench/$(RESULTS)/peers-w3.txt.
bench-peers:
	mkdir -p bench/$(RESULTS)
	ROUNDS=$(ROUNDS) PROCS="$(PROCS)" W1TIME=$(W1TIME) BENCHTIME=$(BENCHTIME) WORKLOADS="$(WORKLOADS)" OUT="$(RESULTS)/$(or $(OUT),peers.txt)" bash scripts/peers.sh

# go-ecs-benchmarks' workloads (bench/ecsbench: the suite's code, weft's
# systems beside it), after TestSameWork checks that every candidate does
# the same work; each candidate, workload and N its own process over ROUNDS
# shuffled rounds, in three runs (bench/ecsbench/bench.sh says which N and
# candidates each has) into bench/$(RESULTS)/ecs-suite-*.txt; then the
# tables (bench/ecsbench/cmd/ecstable).
ECS_BENCHTIME ?= 20ms
ECS_BENCHTIME_LARGE ?= 300ms
bench-ecs:
	cd bench && bash ecsbench/bench.sh $(RESULTS) $(ROUNDS) "$(PROCS)" $(ECS_BENCHTIME) $(ECS_BENCHTIME_LARGE)

# Redraws docs/img/plot-*.png from the committed peers.txt (weft, the Go
# peers and the C++ peers of one make bench-peers run) and frame.txt of
# bench/results/$(PLOT_MACHINE)/; no benchmark runs.
plots:
	cd bench && go run ./cmd/plots -results results/$(PLOT_MACHINE)/peers.txt -frame results/$(PLOT_MACHINE)/frame.txt -out ../docs/img

# Every screenshot of the README into docs/img/, under Xvfb, and the demo's
# systems and keys beside them (docs/img/screenshots.txt, which the demo's
# TestScreenshotsCurrent compares with the demo's).
.PHONY: screenshots
screenshots: deps-test
	bash scripts/screenshots.sh

# The demo, examples/fireworks and examples/bounce built for the browser
# (GOOS=js GOARCH=wasm, Ebiten's WebAssembly) into artifacts/web/, served
# with the page demo/web on WEB_ADDR until stopped (scripts/web.sh).
WEB_ADDR ?= 127.0.0.1:8080
.PHONY: web test-web
web:
	bash scripts/web.sh serve $(WEB_ADDR)

# The demo's browser build opened twice in headless Chromium (Debian's
# chromium, which deps-test installs): the overlay draws and the world
# moves (demo/web's TestDemoInBrowser).
test-web: deps-test
	@echo "== web: go test ./demo/web, the demo as WebAssembly in headless Chromium"
	@WEFT_WEB_TEST=1 go test -count=1 -timeout 15m ./demo/web
