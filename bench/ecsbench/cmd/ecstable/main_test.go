package main

import (
	"strings"
	"testing"
)

const sample = `machine: host, AMD EPYC
BenchmarkSuite/query2comp/Ark/N=1024-2 	 100	 2000 ns/op	 2.000 ns/entity
BenchmarkSuite/query2comp/Ark/N=1024-2 	 100	 3000 ns/op	 3.000 ns/entity
BenchmarkSuite/query2comp/Ark/N=1024-2 	 100	 2500 ns/op	 2.500 ns/entity
BenchmarkSuite/query2comp/Ark_(tables)/N=1024-2 	 100	 1000 ns/op	 1.000 ns/entity
BenchmarkSuite/query2comp/Volt/N=1024-2 	 100	 1500 ns/op	 1.500 ns/entity
BenchmarkSuite/query2comp/weft/N=1024-2 	 100	 6000 ns/op	 6.000 ns/entity
BenchmarkSuite/query2comp/weft_(no_checks)/N=1024-2 	 100	 4000 ns/op	 4.000 ns/entity
`

func TestTable(t *testing.T) {
	var b strings.Builder
	if err := run(strings.NewReader(sample), &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"machine: host, AMD EPYC",
		"| query2comp | 1024 | 6.00 (6.00–6.00) | 4.00 (4.00–4.00) |  |  | 2.50 (2.00–3.00) | Ark (tables) 1.00 (1.00–1.00) | Volt 1.50 (1.50–1.50) | 6.00 (Ark (tables)) |",
		"| weft (no checks) | 4.00 (4.00–4.00) |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}
