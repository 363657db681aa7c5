package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The samples are shared with the parser's tests.
const (
	sampleResults = "../../internal/results/testdata/results.txt"
	sampleFrame   = "../../internal/results/testdata/frame.txt"
)

func TestGenerate(t *testing.T) {
	out := filepath.Join(t.TempDir(), "img")
	files, err := generate(sampleResults, sampleFrame, out)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int{
		"plot-w1.png":    {1080, 540},
		"plot-w2.png":    {1080, 945}, // two stacked panels
		"plot-w3.png":    {1080, 540},
		"plot-w4.png":    {1080, 540},
		"plot-frame.png": {1080, 540},
	}
	if len(files) != len(want) {
		t.Errorf("wrote %q, want %d files", files, len(want))
	}
	for _, f := range files {
		size, ok := want[filepath.Base(f)]
		if !ok {
			t.Errorf("unexpected file %s", f)
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if r := img.Bounds(); r.Dx() != size[0] || r.Dy() != size[1] {
			t.Errorf("%s is %dx%d, want %dx%d", f, r.Dx(), r.Dy(), size[0], size[1])
		}
	}

	// Same input, same bytes.
	again, err := generate(sampleResults, sampleFrame, filepath.Join(t.TempDir(), "img"))
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		a, _ := os.ReadFile(f)
		b, _ := os.ReadFile(again[i])
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between two runs on the same input", filepath.Base(f))
		}
	}
}

func TestGenerateErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("PASS\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		results, frame, want string
	}{
		{filepath.Join(dir, "missing.txt"), sampleFrame, "run make bench first"},
		{sampleResults, filepath.Join(dir, "missing.txt"), "run make bench-frame first"},
		{empty, sampleFrame, "no BenchmarkW1 lines in " + empty + ": run make bench first"},
		{sampleResults, empty, "no BenchmarkFrame lines in " + empty + ": run make bench-frame first"},
	} {
		_, err := generate(c.results, c.frame, filepath.Join(dir, "img"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("generate(%s, %s): error %v, want one containing %q", c.results, c.frame, err, c.want)
		}
	}
}

func TestFormatSI(t *testing.T) {
	for v, want := range map[float64]string{
		1.77: "1.77", 96.7: "96.7", 693: "693", 999.9: "1000", 1500: "1.5k",
		9999: "10k", 944_000: "944k", 1_204_115: "1.2M", 2_500_000: "2.5M", 0: "0",
	} {
		if got := formatSI(v); got != want {
			t.Errorf("formatSI(%v) = %q, want %q", v, got, want)
		}
	}
}
