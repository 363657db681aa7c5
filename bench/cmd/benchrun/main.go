// Command benchrun runs every benchmark configuration of a compiled test
// binary as its own process, over shuffled rounds, and writes the result
// lines to one file that benchtable reads:
//
//	go test -c -o bench.test .
//	go run ./cmd/benchrun -bin ./bench.test -rounds 9 -procs 2 -o results.txt \
//		-bench '^BenchmarkW1=1000000x' -bench '^BenchmarkW[2-9]=100x'
//
// Each -bench is a regexp of top-level benchmarks and the -benchtime their
// leaves run with. -bin may be given more than once: every binary's leaves
// join the same shuffled rounds (scripts/peers.sh adds the C++ peers of
// bench/cpp, which answer like test binaries), so one table compares them. A first pass at -benchtime 1x lists the leaves (the
// sub-benchmarks that print results); then each round runs every (leaf,
// GOMAXPROCS) pair once, in an order shuffled per round, so that a noisy
// spell of the machine spreads over all rows instead of hitting one, and no
// configuration inherits another's heap, caches or parked threads.
//
// The output starts with a "machine:" line (hostname and the CPU model
// from /proc/cpuinfo), then the binary's goos/goarch/pkg/cpu lines and
// every result line, written when the last round is done (to -o, or
// stdout), so that an interrupted run leaves the last results in place.
// Progress goes to stderr.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchrun:", err)
		os.Exit(1)
	}
}

// set is one -bench flag: top-level benchmarks and their -benchtime.
type set struct{ re, benchtime string }

type sets []set

func (s *sets) String() string { return fmt.Sprint(*s) }

func (s *sets) Set(v string) error {
	re, bt, ok := strings.Cut(v, "=")
	if !ok || re == "" || bt == "" {
		return fmt.Errorf("want regexp=benchtime, got %q", v)
	}
	*s = append(*s, set{re, bt})
	return nil
}

// config is one process: a leaf benchmark of a binary at one GOMAXPROCS.
type config struct {
	bin, leaf, benchtime, procs string
	lines                       []string // result lines of every round
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("benchrun", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var bins list
	fs.Var(&bins, "bin", "compiled test `binary` (go test -c), repeatable")
	rounds := fs.Int("rounds", 9, "rounds; each runs every configuration once")
	procs := fs.String("procs", "2", "space-separated GOMAXPROCS values")
	seed := fs.Uint64("seed", 1, "seed of the shuffle")
	outPath := fs.String("o", "", "write the results to `file` at the end (default: stdout)")
	var benches sets
	fs.Var(&benches, "bench", "`regexp=benchtime`, repeatable: top-level benchmarks and their -benchtime")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(bins) == 0 || len(benches) == 0 || *rounds < 1 {
		return errors.New("need -bin, at least one -bench and -rounds ≥ 1")
	}
	configs, header, err := listConfigs(bins, benches, strings.Fields(*procs))
	if err != nil {
		return err
	}
	if len(configs) == 0 {
		return errors.New("no benchmark matched")
	}
	r := rand.New(rand.NewPCG(*seed, 0))
	order := slices.Clone(configs)
	for round := range *rounds {
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for i, c := range order {
			fmt.Fprintf(stderr, "round %d/%d, %d/%d: %s GOMAXPROCS=%s\n", round+1, *rounds, i+1, len(order), c.leaf, c.procs)
			out, err := invoke(c.bin, exact(c.leaf), c.benchtime, c.procs)
			if err != nil {
				return err
			}
			c.lines = append(c.lines, resultLines(out)...)
		}
	}
	// In the binary's order, so that tables list rows as the source does.
	var b strings.Builder
	fmt.Fprintf(&b, "machine: %s\n%s", machine(), header)
	for _, c := range configs {
		for _, l := range c.lines {
			fmt.Fprintln(&b, l)
		}
	}
	if *outPath != "" {
		return os.WriteFile(*outPath, []byte(b.String()), 0o644)
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

// listConfigs runs every binary's matching benchmarks once at -benchtime 1x and
// returns a config per (leaf, procs), and the first binary's header.
func listConfigs(bins []string, benches sets, procs []string) ([]*config, string, error) {
	var configs []*config
	var header string
	for _, bin := range bins {
		for _, b := range benches {
			out, err := invoke(bin, b.re, "1x", "")
			if err != nil {
				return nil, "", err
			}
			if header == "" {
				header = headerOf(out)
			}
			for _, leaf := range leaves(out) {
				for _, p := range procs {
					configs = append(configs, &config{bin: bin, leaf: leaf, benchtime: b.benchtime, procs: p})
				}
			}
		}
	}
	return configs, header, nil
}

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, " ") }
func (l *list) Set(v string) error { *l = append(*l, v); return nil }

// invoke runs the test binary's benchmarks matching re, once each.
func invoke(bin, re, benchtime, procs string) ([]byte, error) {
	cmd := exec.Command(bin, "-test.run=^$", "-test.bench="+re, "-test.benchtime="+benchtime,
		"-test.count=1", "-test.benchmem", "-test.timeout=30m")
	cmd.Env = os.Environ()
	if procs != "" {
		cmd.Env = append(cmd.Env, "GOMAXPROCS="+procs)
	}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s -test.bench %s: %v\n%s%s", bin, re, err, out, errb.Bytes())
	}
	return out, nil
}

// result is a result line: name, iterations, values.
var result = regexp.MustCompile(`^Benchmark\S+\s+\d+\s`)

// procsSuffix is the -GOMAXPROCS suffix go test appends to names.
var procsSuffix = regexp.MustCompile(`-\d+$`)

func resultLines(out []byte) []string {
	var ls []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if result.MatchString(sc.Text()) {
			ls = append(ls, sc.Text())
		}
	}
	return ls
}

// leaves are the names (without "Benchmark" and the procs suffix) of the
// benchmarks that printed a result.
func leaves(out []byte) []string {
	var ns []string
	for _, l := range resultLines(out) {
		name := strings.TrimPrefix(strings.Fields(l)[0], "Benchmark")
		ns = append(ns, procsSuffix.ReplaceAllString(name, ""))
	}
	return ns
}

// exact is the -test.bench pattern that matches only leaf: each level
// anchored and quoted.
func exact(leaf string) string {
	parts := strings.Split("Benchmark"+leaf, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// headerOf keeps the goos, goarch, pkg and cpu lines.
func headerOf(out []byte) string {
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		for _, k := range []string{"goos:", "goarch:", "pkg:", "cpu:"} {
			if strings.HasPrefix(sc.Text(), k) {
				b.WriteString(sc.Text() + "\n")
			}
		}
	}
	return b.String()
}

// machine is the hostname and the first CPU model of /proc/cpuinfo.
func machine() string {
	host, _ := os.Hostname()
	model := "unknown CPU"
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for l := range strings.Lines(string(b)) {
			if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
				model = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %s", host, model)
}
