// Package results parses `go test -bench` output into the samples of each
// benchmark, for the commands that print and plot weft's benchmarks.
package results

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A Set is the parsed output of one or more `go test -bench` runs.
type Set struct {
	CPU     string // the last "cpu:" line, "" if none
	Machine string // the last "machine:" line (benchrun's), "" if none
	Procs   string // the last -GOMAXPROCS suffix of a name, "" if none
	// Benchmarks in the order of their first result line.
	Benchmarks []*Benchmark
	byName     map[string]*Benchmark // the first of each name
	byKey      map[string]*Benchmark // by name-procs
}

// A Benchmark is every result line of one benchmark name.
type Benchmark struct {
	// Name without "Benchmark" and the -GOMAXPROCS suffix, for example
	// "W2ParallelFor/weft/chunk=1024".
	Name string
	// Parts is Name split at "/".
	Parts []string
	// Procs is the GOMAXPROCS suffix ("" for 1): the same name at another
	// GOMAXPROCS is another Benchmark.
	Procs string
	// Metrics maps a unit ("ns/op", "allocs/op", "visible", ...) to its
	// values, one per result line that reported it, in input order.
	Metrics map[string][]float64
}

// procsSuffix is the -GOMAXPROCS suffix go test appends to benchmark names.
var procsSuffix = regexp.MustCompile(`-(\d+)$`)

// Parse reads result lines and ignores every other line (goos, PASS, test
// log output, ...). A result line is a name starting with "Benchmark", an
// iteration count, and value-unit pairs that include ns/op.
func Parse(r io.Reader) (*Set, error) {
	s := &Set{byName: map[string]*Benchmark{}, byKey: map[string]*Benchmark{}}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if c, ok := strings.CutPrefix(line, "cpu: "); ok {
			s.CPU = c
			continue
		}
		if m, ok := strings.CutPrefix(line, "machine: "); ok {
			s.Machine = m
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // a log line that happens to start with Benchmark
		}
		m, ok := metrics(f[2:])
		if !ok {
			continue
		}
		name, procs := strings.TrimPrefix(f[0], "Benchmark"), ""
		if p := procsSuffix.FindStringSubmatch(name); p != nil {
			s.Procs, procs = p[1], p[1]
			name = name[:len(name)-len(p[0])]
		}
		b := s.byKey[name+"-"+procs]
		if b == nil {
			b = &Benchmark{Name: name, Parts: strings.Split(name, "/"), Procs: procs, Metrics: map[string][]float64{}}
			s.byKey[name+"-"+procs] = b
			if s.byName[name] == nil {
				s.byName[name] = b
			}
			s.Benchmarks = append(s.Benchmarks, b)
		}
		for u, v := range m {
			b.Metrics[u] = append(b.Metrics[u], v)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return s, nil
}

// ParseFile parses the named file.
func ParseFile(path string) (*Set, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s, err := Parse(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// Lookup returns the first benchmark of that name (as in Benchmark.Name),
// at whichever GOMAXPROCS came first, or nil.
func (s *Set) Lookup(name string) *Benchmark { return s.byName[name] }

// NsPerOp is the benchmark's ns/op samples; every result line has one.
func (b *Benchmark) NsPerOp() []float64 { return b.Metrics["ns/op"] }

// metrics reads the value-unit pairs of a result line; ok is false if a
// value is not a number or there is no ns/op.
func metrics(f []string) (m map[string]float64, ok bool) {
	m = map[string]float64{}
	for i := 0; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, false
		}
		m[f[i+1]] = v
	}
	_, ok = m["ns/op"]
	return m, ok
}

// Median of a non-empty sample.
func Median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
