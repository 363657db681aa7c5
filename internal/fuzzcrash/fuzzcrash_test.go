package fuzzcrash

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Keep makes the process's crash file in $WEFT_FUZZ_CRASH_DIR, named by
// its pid, and nothing where the variable is unset.
func TestKeep(t *testing.T) {
	t.Setenv("WEFT_FUZZ_CRASH_DIR", "")
	Keep()
	if stray, _ := filepath.Glob("crash-*.txt"); len(stray) > 0 {
		t.Fatalf("Keep without a folder made %v", stray)
	}

	dir := t.TempDir()
	t.Setenv("WEFT_FUZZ_CRASH_DIR", dir)
	Keep()
	files, err := filepath.Glob(filepath.Join(dir, "crash-*.txt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("crash files %v (%v), want one", files, err)
	}
	if want := filepath.Join(dir, "crash-"+strconv.Itoa(os.Getpid())+".txt"); files[0] != want {
		t.Fatalf("crash file %s, want %s", files[0], want)
	}
}
