package game

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The programs check every path they will write when they start, so that
// a run is not lost to a file that cannot be written at its end.

// WritableFile says why a file cannot be written at path, or is nil: its
// folder must exist and take a new file, and path must not be a folder.
// The check writes and removes a file beside it; path itself is left as
// it is.
func WritableFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder; give a file name", path)
	}
	return WritableDir(filepath.Dir(path))
}

// WritableDir says why files cannot be written into dir, or is nil. The
// check writes and removes a file there.
func WritableDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("folder %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder", dir)
	}
	f, err := os.CreateTemp(dir, ".weft-check-*")
	if err != nil {
		return fmt.Errorf("cannot write into %s: %w", dir, err)
	}
	return errors.Join(f.Close(), os.Remove(f.Name()))
}

// FilesErr says, after its flag, why the first of the files a command
// will write cannot be written, or is "". flagPaths are pairs of a flag's
// name and its path; an empty path is a file not asked for.
func FilesErr(flagPaths ...string) string {
	for i := 0; i+1 < len(flagPaths); i += 2 {
		if p := flagPaths[i+1]; p != "" {
			if err := WritableFile(p); err != nil {
				return flagPaths[i] + ": " + err.Error()
			}
		}
	}
	return ""
}
