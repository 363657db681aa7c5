package engine_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var goBlock = regexp.MustCompile("(?s)```go\n(.*?)\n```")

// guidePaths are the guide's files: the tutorial, docs/writing-a-system.md,
// then the reference chapters, docs/guide/*.md, in their order.
func guidePaths(t *testing.T) []string {
	chapters, err := filepath.Glob("../docs/guide/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, chapters)
	return append([]string{"../docs/writing-a-system.md"}, chapters...)
}

// guideText is every file of the guide, one after the other.
func guideText(t *testing.T) string {
	var b strings.Builder
	for _, p := range guidePaths(t) {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		b.Write(raw)
		b.WriteString("\n")
	}
	return b.String()
}

// tutorialProgram reports whether a Go block is part of the tutorial's
// program only (its package clause and imports, or its main), which
// TestTutorialProgram builds and runs instead.
func tutorialProgram(block string) bool {
	return strings.HasPrefix(block, "package main\n") || strings.Contains(block, "\nfunc main() {\n") || strings.HasPrefix(block, "func main() {\n")
}

// Every Go block of the guide is in guide*_test.go, whose Examples
// compile and run it, and the error the guide shows is the one the engine
// gives.
func TestGuide(t *testing.T) {
	paths, err := filepath.Glob("guide*_test.go")
	require.NoError(t, err)
	var src []byte
	for _, f := range paths {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		src = append(src, b...)
	}
	blocks := goBlock.FindAllStringSubmatch(guideText(t), -1)
	require.NotEmpty(t, blocks)
	for _, b := range blocks {
		if tutorialProgram(b[1]) {
			continue
		}
		if !strings.Contains(string(src), b[1]) {
			t.Errorf("a Go block of the guide is not in any guide*_test.go: copy it there (or fix the guide):\n%s", b[1])
		}
	}
}

// The order of events the guide shows (its chapter on events) is the one a reader
// gets, on every worker count.
func TestGuideEventOrder(t *testing.T) {
	doc := guideText(t)
	for _, workers := range []int{0, 1, 2, 4} {
		assert.Contains(t, doc, "On every worker count, `log` reads:\n\n```text\n"+noteOrder(workers)+"\n```", "W%d", workers)
	}
}

var (
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading  = regexp.MustCompile(`(?m)^#+ (.*)$`)
	notSlug    = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
	inlineCode = regexp.MustCompile("`[^`\n]*`")
	codeBlock  = regexp.MustCompile("(?s)```.*?```")
)

// anchors are the GitHub anchors of a Markdown file's headings.
func anchors(t *testing.T, path string) map[string]bool {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	out := map[string]bool{}
	for _, h := range mdHeading.FindAllStringSubmatch(codeBlock.ReplaceAllString(string(raw), ""), -1) {
		out[strings.ReplaceAll(notSlug.ReplaceAllString(strings.ToLower(h[1]), ""), " ", "-")] = true
	}
	return out
}

// Every link into the guide, from the guide itself, the other docs and
// the README, names a file that exists and, after '#', one of its
// headings; the tutorial's contents list every chapter.
func TestGuideLinks(t *testing.T) {
	inGuide := func(p string) bool {
		p = filepath.ToSlash(filepath.Clean(p))
		return p == "../docs/writing-a-system.md" || strings.HasPrefix(p, "../docs/guide")
	}
	docs, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, from := range append(append(guidePaths(t), docs...), "../README.md") {
		if seen[from] {
			continue
		}
		seen[from] = true
		raw, err := os.ReadFile(from)
		require.NoError(t, err)
		prose := inlineCode.ReplaceAllString(codeBlock.ReplaceAllString(string(raw), ""), "")
		for _, l := range mdLink.FindAllStringSubmatch(prose, -1) {
			target, anchor, _ := strings.Cut(l[1], "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			to := from
			if target != "" {
				to = filepath.Join(filepath.Dir(from), target)
			}
			if !inGuide(to) {
				continue
			}
			if _, err := os.Stat(to); err != nil {
				t.Errorf("%s links to %s, which does not exist", from, l[1])
				continue
			}
			if anchor != "" && !anchors(t, to)[anchor] {
				t.Errorf("%s links to %s: %s has no heading with that anchor", from, l[1], to)
			}
		}
	}
	tutorial, err := os.ReadFile("../docs/writing-a-system.md")
	require.NoError(t, err)
	for _, p := range guidePaths(t)[1:] {
		assert.Contains(t, string(tutorial), "](guide/"+filepath.Base(p)+")", "the tutorial's contents list every chapter")
	}
}
