package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fake is a stand-in test binary: it prints two leaves of BenchmarkA, or
// only the leaf its -test.bench pattern names exactly, with GOMAXPROCS
// as the suffix.
const fake = `#!/bin/sh
for a in "$@"; do case $a in -test.bench=*) pat=${a#-test.bench=};; esac; done
echo "goos: linux"
echo "cpu: Fake"
case $pat in
*'^x$'*) echo "BenchmarkA/x-${GOMAXPROCS:-2} 1 10 ns/op" ;;
*'^y$'*) echo "BenchmarkA/y-${GOMAXPROCS:-2} 1 20 ns/op" ;;
*) echo "BenchmarkA/x-${GOMAXPROCS:-2} 1 10 ns/op"; echo "BenchmarkA/y-${GOMAXPROCS:-2} 1 20 ns/op" ;;
esac
echo PASS
`

func TestRun(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fake.test")
	if err := os.WriteFile(bin, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, log strings.Builder
	if err := run([]string{"-bin", bin, "-rounds", "3", "-procs", "1 2", "-bench", "^BenchmarkA=5x"}, &out, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	got := out.String()
	if !strings.HasPrefix(got, "machine: ") || !strings.Contains(got, "\ncpu: Fake\n") {
		t.Errorf("header missing:\n%s", got)
	}
	for _, leaf := range []string{"BenchmarkA/x-1 ", "BenchmarkA/x-2 ", "BenchmarkA/y-1 ", "BenchmarkA/y-2 "} {
		if n := strings.Count(got, leaf); n != 3 {
			t.Errorf("%q: %d result lines, want one per round (3):\n%s", leaf, n, got)
		}
	}
	if strings.Contains(got, "PASS") {
		t.Errorf("non-result lines copied:\n%s", got)
	}
}

func TestExact(t *testing.T) {
	re := regexp.MustCompile(`^` + regexp.QuoteMeta(exact("W2ParallelFor/weft/chunk=1024")) + `$`)
	if !re.MatchString(`^BenchmarkW2ParallelFor$/^weft$/^chunk=1024$`) {
		t.Errorf("exact = %q", exact("W2ParallelFor/weft/chunk=1024"))
	}
}

// TestTwoBinaries: the leaves of every -bin join the same rounds.
func TestTwoBinaries(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.test"), filepath.Join(dir, "b.test")
	if err := os.WriteFile(a, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	other := strings.ReplaceAll(strings.ReplaceAll(fake, "/x", "/p"), "/y", "/q")
	other = strings.ReplaceAll(strings.ReplaceAll(other, "'^x$'", "'^p$'"), "'^y$'", "'^q$'")
	if err := os.WriteFile(b, []byte(other), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, log strings.Builder
	if err := run([]string{"-bin", a, "-bin", b, "-rounds", "2", "-bench", "^BenchmarkA=5x"}, &out, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	for _, leaf := range []string{"BenchmarkA/x-2 ", "BenchmarkA/y-2 ", "BenchmarkA/p-2 ", "BenchmarkA/q-2 "} {
		if n := strings.Count(out.String(), leaf); n != 2 {
			t.Errorf("%q: %d result lines, want one per round (2):\n%s", leaf, n, out.String())
		}
	}
}
