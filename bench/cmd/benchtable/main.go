// Command benchtable turns `go test -bench` output of the weft comparison
// benchmarks into one markdown table per workload.
//
//	go test -run XXX -bench . -benchmem -count=5 | go run ./cmd/benchtable
//
// Benchmark names are read as Benchmark<Workload>/<impl>[/<variant>][-P],
// except BenchmarkFrame/<variant>/<impl>[-P] (systems' frame, impl serial
// or parallel; FrameWaits likewise; FrameBatch: impl batch=<size> or batch=adaptive). For each workload (and variant) a row per impl gives the
// median ns/op with the fastest and slowest run, allocs/op, and the ratio
// the issue reports, from the medians:
//
//	W1     ns/job (one op is one job)
//	W2     speedup, serial ns/op ÷ impl ns/op
//	W3     ratio, impl ns/op ÷ serial ns/op
//	W4     speedup, serial ns/op ÷ impl ns/op
//	Frame  speedup, serial ns/op ÷ impl ns/op
//	FrameBatch  impl ns/op ÷ the best fixed batch's ns/op, and for the
//	            adaptive batch the batch it settled on (median)
//
// With -metrics, each workload's table is followed by one of the other
// metrics its benchmarks report (BenchmarkFrame's wait-µs/op and
// <system>-ns/entity, ...), each as its median and min–max over the runs.
//
// An impl named <name>.<lang> is compared with serial.<lang> when there is
// such a row (scripts/peers.sh's C++ peers and their own plain loops).
//
// Results at several GOMAXPROCS (benchrun -procs "1 2") get a table each.
// Other lines (goos, cpu, PASS, ...) are ignored, except that benchrun's
// machine line, cpu and the GOMAXPROCS suffix are echoed above the tables.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-engine/weft/bench/internal/results"
)

func main() {
	metrics := flag.Bool("metrics", false, "also print the benchmarks' other metrics, median and min–max")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *metrics); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// A ratio is the workload-specific last column.
type ratio struct {
	header string
	// of computes it from an impl's and serial's median ns/op; serial is
	// 0 when there is no serial row.
	of func(impl, serial float64) (string, bool)
}

// ratios maps a workload's "W<k>" prefix to its ratio column.
var ratios = map[string]ratio{
	"W1": {"ns/job", func(impl, _ float64) (string, bool) { return formatValue(impl), true }},
	"W2": {"speedup (serial ÷ impl)", divide(false)},
	"W3": {"ratio (impl ÷ serial)", divide(true)},
	"W4": {"speedup (serial ÷ impl)", divide(false)},
	"Fr": {"speedup (serial ÷ impl)", divide(false)},
}

// batchRatio is FrameBatch's column: its reference is the fastest fixed
// batch (by median) instead of serial.
var batchRatio = ratio{"impl ÷ best fixed batch", divide(true)}

// implLast names the workloads whose impl is the last part of the name.
var implLast = map[string]bool{"Frame": true, "FrameBatch": true, "FrameWaits": true}

// divide returns impl ÷ serial (or serial ÷ impl) to two decimals.
func divide(implOverSerial bool) func(impl, serial float64) (string, bool) {
	return func(impl, serial float64) (string, bool) {
		if impl <= 0 || serial <= 0 {
			return "", false
		}
		r := serial / impl
		if implOverSerial {
			r = impl / serial
		}
		return strconv.FormatFloat(r, 'f', 2, 64), true
	}
}

// workload keeps its variants and their impls in input order.
type workload struct {
	name     string // W1EmptyJobs, Frame, ...
	title    string // name, with GOMAXPROCS when there are several
	variants []string
	impls    map[string][]string // variant -> impls in order
	rows     map[[2]string]*results.Benchmark
}

func run(r io.Reader, w io.Writer, metrics bool) error {
	set, err := results.Parse(r)
	if err != nil {
		return err
	}
	var (
		order []*workload
		byKey = map[string]*workload{}
	)
	procs := map[string]bool{}
	for _, b := range set.Benchmarks {
		procs[b.Procs] = true
	}
	for _, b := range set.Benchmarks {
		parts := b.Parts
		if len(parts) < 2 {
			continue // not one of ours: no impl level
		}
		wl, im, variant := parts[0], parts[1], strings.Join(parts[2:], "/")
		if implLast[wl] {
			im, variant = parts[len(parts)-1], strings.Join(parts[1:len(parts)-1], "/")
		}
		title := wl
		if len(procs) > 1 {
			title = fmt.Sprintf("%s, GOMAXPROCS=%s", wl, cmp.Or(b.Procs, "1"))
		}
		x := byKey[title]
		if x == nil {
			x = &workload{name: wl, title: title, impls: map[string][]string{}, rows: map[[2]string]*results.Benchmark{}}
			byKey[title] = x
			order = append(order, x)
		}
		if _, seen := x.impls[variant]; !seen {
			x.variants = append(x.variants, variant)
		}
		x.impls[variant] = append(x.impls[variant], im)
		x.rows[[2]string{variant, im}] = b
	}
	if len(order) == 0 {
		return fmt.Errorf("no benchmark results on stdin")
	}

	if set.Machine != "" {
		fmt.Fprintf(w, "machine: %s\n", set.Machine)
	}
	if set.CPU != "" || set.Procs != "" {
		fmt.Fprintf(w, "cpu: %s, GOMAXPROCS: %s\n\n", cmp.Or(set.CPU, "?"), cmp.Or(set.Procs, "1"))
	}
	for i, x := range order {
		if i > 0 {
			fmt.Fprintln(w)
		}
		x.print(w)
		if metrics {
			x.printMetrics(w)
		}
	}
	return nil
}

// tableMetrics are the metrics of the main table, left out of printMetrics.
var tableMetrics = map[string]bool{"ns/op": true, "B/op": true, "allocs/op": true}

// printMetrics writes the table of the workload's other metrics: a row per
// impl, variant and metric, with the metric's median and min–max over the
// runs that reported it, and how many did.
func (x *workload) printMetrics(w io.Writer) {
	fmt.Fprintf(w, "\n#### %s: other metrics\n\n", x.title)
	row(w, []string{"impl", "variant", "metric", "median", "min–max", "runs"})
	row(w, slices.Repeat([]string{"---"}, 6))
	for _, v := range x.variants {
		for _, im := range x.impls[v] {
			b := x.rows[[2]string{v, im}]
			for _, m := range slices.Sorted(maps.Keys(b.Metrics)) {
				if vals := b.Metrics[m]; !tableMetrics[m] {
					med, rng := medianRange(vals)
					row(w, []string{im, v, m, med, rng, strconv.Itoa(len(vals))})
				}
			}
		}
	}
}

// print writes the workload's markdown table.
func (x *workload) print(w io.Writer) {
	rt, hasRatio := ratios[x.name[:min(2, len(x.name))]]
	if x.name == "FrameBatch" {
		rt = batchRatio
	}
	runs := 0
	for _, b := range x.rows {
		runs = max(runs, len(b.NsPerOp()))
	}
	vhead, vals := variantColumn(x.variants)

	fmt.Fprintf(w, "### %s (median of %d)\n\n", x.title, runs)
	head := []string{"impl"}
	if vhead != "" {
		head = append(head, vhead)
	}
	head = append(head, "ns/op", "min–max", "allocs/op")
	if hasRatio {
		head = append(head, rt.header)
	}
	row(w, head)
	row(w, slices.Repeat([]string{"---"}, len(head)))
	for vi, v := range x.variants {
		for _, im := range x.impls[v] {
			serial := x.reference(v, im)
			b := x.rows[[2]string{v, im}]
			ns := results.Median(b.NsPerOp())
			cells := []string{im}
			if vhead != "" {
				cells = append(cells, vals[vi])
			}
			med, rng := medianRange(b.NsPerOp())
			cells = append(cells, med, rng, "-")
			if allocs := b.Metrics["allocs/op"]; len(allocs) > 0 {
				cells[len(cells)-1] = strconv.FormatFloat(results.Median(allocs), 'f', -1, 64)
			}
			if hasRatio {
				c, ok := rt.of(ns, serial)
				if !ok {
					c = "-"
				}
				if settled := b.Metrics["batch"]; im == "batch=adaptive" && len(settled) > 0 {
					c += fmt.Sprintf(" (batch %g)", results.Median(settled))
				}
				cells = append(cells, c)
			}
			row(w, cells)
		}
	}
}

// reference is the median ns/op the ratio column compares impl im of
// variant v with: its serial baseline's (of the same variant, else of no
// variant: W3's and W4's forms have one serial row), or for FrameBatch
// the fastest fixed batch's; 0 if there is none.
func (x *workload) reference(v, im string) float64 {
	if x.name != "FrameBatch" {
		for _, bv := range []string{v, ""} {
			if b := x.rows[[2]string{bv, baseline(im, x.rows, bv)}]; b != nil {
				return results.Median(b.NsPerOp())
			}
		}
		return 0
	}
	best := 0.0
	for _, im := range x.impls[v] {
		if ns := results.Median(x.rows[[2]string{v, im}].NsPerOp()); im != "batch=adaptive" && (best == 0 || ns < best) {
			best = ns
		}
	}
	return best
}

// baseline is the impl im's serial row: serial.<lang> for an impl named
// <name>.<lang> when the input has that row (the C++ peers of
// scripts/peers.sh against their own plain loops), else serial.
func baseline(im string, rows map[[2]string]*results.Benchmark, variant string) string {
	if _, lang, ok := strings.Cut(im, "."); ok {
		if own := "serial." + lang; rows[[2]string{variant, own}] != nil {
			return own
		}
	}
	return "serial"
}

// variantColumn names the variant column and its cells: "chunk" and "1024"
// for variants chunk=1024 (an empty cell for rows without a variant, as
// W4's serial beside its fork=... forms), the whole variant under
// "variant" otherwise, and no column when there is no variant.
func variantColumn(variants []string) (head string, vals []string) {
	if len(variants) == 1 && variants[0] == "" {
		return "", nil
	}
	for _, v := range variants {
		if v == "" {
			vals = append(vals, "")
			continue
		}
		k, val, ok := strings.Cut(v, "=")
		if !ok || strings.Contains(val, "/") || (head != "" && k != head) {
			return "variant", variants
		}
		head = k
		vals = append(vals, val)
	}
	return head, vals
}

func row(w io.Writer, cells []string) {
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}

// formatValue keeps about three significant digits for small values and
// whole units (ns, µs, ...) for large ones.
func formatValue(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// medianRange is the cells of a row's figure: the median of vals, and
// their min–max.
func medianRange(vals []float64) (median, minMax string) {
	return formatValue(results.Median(vals)), formatValue(slices.Min(vals)) + "–" + formatValue(slices.Max(vals))
}
