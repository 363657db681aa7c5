// Command ecstable turns bench/ecsbench's results (benchrun's output of
// BenchmarkSuite/<workload>/<candidate>/N=<n>) into markdown: a summary
// table of weft's configurations against Ark and the fastest other
// candidate, then a table per workload of every candidate at every N.
// Each cell is the median ns/entity over the runs, with the fastest and
// slowest run.
//
//	go run ./ecsbench/cmd/ecstable < results/amd-epyc/ecs-suite.txt
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/weft-engine/weft/bench/internal/results"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "ecstable:", err)
		os.Exit(1)
	}
}

// cell is one candidate at one N.
type cell struct{ med, lo, hi float64 }

func (c cell) String() string {
	return fmt.Sprintf("%s (%s–%s)", num(c.med), num(c.lo), num(c.hi))
}

// num prints three significant digits.
func num(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 2, 64)
	}
}

// workload is one workload's cells by candidate and N, in input order.
type workload struct {
	name  string
	cands []string
	ns    []int
	cells map[string]map[int]cell
}

func parse(r io.Reader) (*results.Set, []*workload, error) {
	set, err := results.Parse(r)
	if err != nil {
		return nil, nil, err
	}
	var ws []*workload
	for _, b := range set.Benchmarks {
		if len(b.Parts) != 4 || b.Parts[0] != "Suite" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(b.Parts[3], "N="))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", b.Name, err)
		}
		v := b.Metrics["ns/entity"]
		if len(v) == 0 {
			return nil, nil, fmt.Errorf("%s: no ns/entity", b.Name)
		}
		i := slices.IndexFunc(ws, func(w *workload) bool { return w.name == b.Parts[1] })
		if i < 0 {
			ws = append(ws, &workload{name: b.Parts[1], cells: map[string]map[int]cell{}})
			i = len(ws) - 1
		}
		w, cand := ws[i], strings.ReplaceAll(b.Parts[2], "_", " ")
		if w.cells[cand] == nil {
			w.cands = append(w.cands, cand)
			w.cells[cand] = map[int]cell{}
		}
		if !slices.Contains(w.ns, n) {
			w.ns = append(w.ns, n)
		}
		w.cells[cand][n] = cell{results.Median(v), slices.Min(v), slices.Max(v)}
	}
	for _, w := range ws {
		slices.Sort(w.ns)
	}
	return set, ws, nil
}

// weftCols are the summary's weft columns; the rest are Ark, Ark's
// fastest variant and the fastest other candidate.
var weftCols = []string{"weft", "weft (no checks)", "weft (serial)", "weft (serial, no checks)"}

func run(r io.Reader, out io.Writer) error {
	set, ws, err := parse(r)
	if err != nil {
		return err
	}
	if len(ws) == 0 {
		return fmt.Errorf("no BenchmarkSuite results")
	}
	if set.Machine != "" {
		fmt.Fprintf(out, "machine: %s\n\n", set.Machine)
	}
	fmt.Fprintf(out, "| workload | N | %s | Ark | Ark's other form | fastest other | weft ÷ fastest non-weft |\n", strings.Join(weftCols, " | "))
	fmt.Fprintf(out, "|---|---:|%s---|---|---|---:|\n", strings.Repeat("---|", len(weftCols)))
	for _, w := range ws {
		for _, n := range w.ns {
			row := []string{w.name, strconv.Itoa(n)}
			for _, c := range weftCols {
				row = append(row, w.get(c, n))
			}
			row = append(row, w.get("Ark", n))
			variant, other := "", ""
			best, bestV := "", 0.0
			for _, c := range w.cands {
				x, ok := w.cells[c][n]
				if !ok || strings.HasPrefix(c, "weft") {
					continue
				}
				if strings.HasPrefix(c, "Ark (") {
					variant = c + " " + x.String()
				} else if !strings.HasPrefix(c, "Ark") && (other == "" || x.med < w.cells[other][n].med) {
					other = c
				}
				if best == "" || x.med < bestV {
					best, bestV = c, x.med
				}
			}
			if other != "" {
				other += " " + w.cells[other][n].String()
			}
			ratio := ""
			if x, ok := w.cells["weft"][n]; ok && best != "" {
				ratio = fmt.Sprintf("%.2f (%s)", x.med/bestV, best)
			}
			row = append(row, variant, other, ratio)
			fmt.Fprintf(out, "| %s |\n", strings.Join(row, " | "))
		}
	}
	for _, w := range ws {
		fmt.Fprintf(out, "\n%s, ns/entity: median (min–max)\n\n| candidate |", w.name)
		for _, n := range w.ns {
			fmt.Fprintf(out, " N=%d |", n)
		}
		fmt.Fprintf(out, "\n|---|%s\n", strings.Repeat("---:|", len(w.ns)))
		for _, c := range w.cands {
			fmt.Fprintf(out, "| %s |", c)
			for _, n := range w.ns {
				fmt.Fprintf(out, " %s |", w.get(c, n))
			}
			fmt.Fprintln(out)
		}
	}
	return nil
}

func (w *workload) get(cand string, n int) string {
	if x, ok := w.cells[cand][n]; ok {
		return x.String()
	}
	return ""
}
