package overlay

import (
	"encoding/json"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The whole program in the package's doc comment (go doc ./overlay shows
// it) builds: it is written, through go build's -overlay, as a package
// of this module that exists only for the build.
func TestDocProgram(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	var prog []string
	in := false
	for _, line := range strings.Split(f.Doc.Text(), "\n") {
		if line == "\tpackage main" {
			in = true
		}
		if in && line != "" && !strings.HasPrefix(line, "\t") {
			break
		}
		if in {
			prog = append(prog, strings.TrimPrefix(line, "\t"))
		}
	}
	require.NotEmpty(t, prog, "the doc comment shows a program from \"package main\"")
	dir := t.TempDir()
	src := filepath.Join(dir, "main.go")
	require.NoError(t, os.WriteFile(src, []byte(strings.Join(prog, "\n")+"\n"), 0o644))
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	ov, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, "overlay", "internal", "docprogram", "main.go"): src}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.json"), ov, 0o644))
	cmd := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", filepath.Join(dir, "prog"), "./overlay/internal/docprogram")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the doc comment's program does not build:\n%s\n%s", out, strings.Join(prog, "\n"))
}
