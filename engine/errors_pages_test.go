//go:build !weft_nochecks

package engine_test

import (
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The packages whose code constants (ErrX) docs/errors.md documents.
var codePackages = []string{"../jobs", "../safety", "../ecs", "../engine", "../replay", "../netplay"}

var (
	codeHeading = regexp.MustCompile(`(?m)^### (WEFT-[A-Z]\d{3}) .+$`)
	codeText    = regexp.MustCompile(`^WEFT-[A-Z]\d{3}$`)
)

// Every error code has its page in docs/errors.md, as Bevy keeps its
// error codes: a section "### WEFT-X0NN title" whose ```go blocks are
// lines of Example_x0nn, in order (errors_*_test.go), whose output, the
// error that code gives, is quoted in the section. A code constant without
// a section, a section without a constant, or an example that prints
// another code fails. The constants are found by parsing the packages'
// source, so a code added later is caught.
func TestErrorPages(t *testing.T) {
	codes := codeConstants(t)
	require.NotEmpty(t, codes)
	page, err := os.ReadFile("../docs/errors.md")
	require.NoError(t, err)
	sections := errorSections(string(page))
	examples := errorExamples(t)
	for code, name := range codes {
		if _, ok := sections[code]; !ok {
			t.Errorf("%s (%s) has no section \"### %s title\" in docs/errors.md: add one with an example", code, name, code)
		}
	}
	for code, text := range sections {
		if _, ok := codes[code]; !ok {
			t.Errorf("docs/errors.md has a section for %s, which no ErrX constant of %v has: remove the section or fix its code", code, codePackages)
			continue
		}
		checkSection(t, code, text, examples)
	}
}

// checkSection checks one section against its example.
func checkSection(t *testing.T, code, text string, examples map[string]errorExample) {
	name := "Example_" + strings.ToLower(strings.TrimPrefix(code, "WEFT-"))
	ex, ok := examples[name]
	if !assert.True(t, ok, "%s has no %s in engine/errors_*_test.go: write one that prints the error", code, name) {
		return
	}
	assert.Contains(t, text, "**Fix:**", "%s: say what to change", code)
	blocks := goBlock.FindAllStringSubmatch(text, -1)
	assert.NotEmpty(t, blocks, "%s: the section needs a ```go example", code)
	for _, b := range blocks {
		assert.True(t, isSubsequence(strings.Split(b[1], "\n"), ex.body), "%s: a ```go block is not lines of %s, in order: copy it from there (or fix the page)", code, name)
	}
	out := strings.TrimSpace(ex.output)
	assert.NotEmpty(t, out, "%s: %s must print the error, with its // Output", code, name)
	for _, line := range strings.Split(out, "\n") {
		assert.Contains(t, text, strings.TrimSpace(line), "%s: the section must quote what %s prints", code, name)
		if !strings.HasPrefix(line, "\t") {
			assert.Contains(t, line, ": "+code, "%s: %s prints an error of another code", code, name)
		}
	}
}

// codeConstants maps each code (WEFT-X0NN) to the constant that holds it,
// from the non-test source of codePackages.
func codeConstants(t *testing.T) map[string]string {
	codes := map[string]string{}
	fset := token.NewFileSet()
	for _, dir := range codePackages {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			require.NoError(t, err)
			for _, decl := range f.Decls {
				if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
					addCodes(t, codes, f.Name.Name, g)
				}
			}
		}
	}
	return codes
}

// addCodes adds the codes (ErrX = fault.Code("...")) of one const declaration.
func addCodes(t *testing.T, codes map[string]string, pkg string, g *ast.GenDecl) {
	for _, spec := range g.Specs {
		vs := spec.(*ast.ValueSpec)
		for i, n := range vs.Names {
			if !strings.HasPrefix(n.Name, "Err") || i >= len(vs.Values) {
				continue
			}
			x := vs.Values[i]
			if c, ok := x.(*ast.CallExpr); ok && len(c.Args) == 1 { // ErrX = fault.Code("WEFT-...")
				x = c.Args[0]
			}
			lit, ok := x.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				continue
			}
			v, err := strconv.Unquote(lit.Value)
			require.NoError(t, err)
			if !codeText.MatchString(v) {
				continue
			}
			assert.NotContains(t, codes, v, "%s.%s: the code %s is used twice", pkg, n.Name, v)
			codes[v] = pkg + "." + n.Name
		}
	}
}

// errorSections maps each code to its section of the page, up to the next
// heading.
func errorSections(page string) map[string]string {
	out := map[string]string{}
	locs := codeHeading.FindAllStringSubmatchIndex(page, -1)
	for i, l := range locs {
		end := len(page)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		if next := strings.Index(page[l[1]:end], "\n## "); next >= 0 {
			end = l[1] + next
		}
		out[page[l[2]:l[3]]] = page[l[0]:end]
	}
	return out
}

type errorExample struct {
	body   []string // the function's lines, one tab less
	output string
}

// errorExamples are the Examples of errors_*_test.go, by name.
func errorExamples(t *testing.T) map[string]errorExample {
	paths, err := filepath.Glob("errors_*_test.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var files []*ast.File
	src := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, p, b, parser.ParseComments)
		require.NoError(t, err)
		files, src[p] = append(files, f), b
	}
	out := map[string]errorExample{}
	for _, ex := range doc.Examples(files...) {
		body := ex.Code.(*ast.BlockStmt)
		from, to := fset.Position(body.Lbrace), fset.Position(body.Rbrace)
		var lines []string
		for _, l := range strings.Split(string(src[from.Filename][from.Offset+1:to.Offset]), "\n") {
			lines = append(lines, strings.TrimPrefix(l, "\t"))
		}
		out["Example"+ex.Name] = errorExample{body: lines, output: ex.Output}
	}
	return out
}

// isSubsequence reports whether every line of sub is in lines, in order.
func isSubsequence(sub, lines []string) bool {
	i := 0
	for _, l := range sub {
		j := slices.Index(lines[i:], l)
		if j < 0 {
			return false
		}
		i += j + 1
	}
	return true
}
