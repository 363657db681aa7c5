package main

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bounds of the browser test: generous, so that a slow, loaded
// machine passes, and finite, so that a broken build fails.
const (
	holdMax   = 150 * time.Second // a page whose game never starts is let go after this
	chromeMax = 200 * time.Second // one Chromium run, start to screenshot
)

// The demo runs in a browser: built with GOOS=js GOARCH=wasm, served by
// this command's handler on localhost, opened in headless Chromium
// (Debian's chromium, which make test-web installs) twice, once 3 s and
// once 9 s after the game started. Each screenshot shows the overlay
// (its dark top band with text, the step graph's blue bars), and the
// world right of the overlay's column differs between them: it moves.
// Timing decides only when a screenshot is taken, never what passes.
// make test-web runs it (WEFT_WEB_TEST=1); elsewhere it is skipped.
func TestDemoInBrowser(t *testing.T) {
	if os.Getenv("WEFT_WEB_TEST") != "1" {
		t.Skip("make test-web runs it: WEFT_WEB_TEST=1, with Debian's chromium installed")
	}
	chrome, err := exec.LookPath("chromium")
	require.NoError(t, err, "Debian's chromium (make test-web installs it)")
	dir := t.TempDir()
	build(t, dir)
	h := &holds{ch: map[string]chan struct{}{}}
	mux := http.NewServeMux()
	mux.Handle("/", handler(dir))
	mux.HandleFunc("GET /hold", h.hold)
	mux.HandleFunc("GET /release", h.release)
	srv := httptest.NewServer(mux) // on 127.0.0.1
	defer srv.Close()

	var shots []image.Image
	for i, after := range []int{3000, 9000} {
		url := fmt.Sprintf("%s/?game=demo&hold=%d&after=%d", srv.URL, i, after)
		shots = append(shots, screenshot(t, chrome, url, fmt.Sprintf("browser-%d.png", i)))
	}
	for i, img := range shots {
		require.Equal(t, image.Rect(0, 0, 1280, 720), img.Bounds(), "shot %d", i)
		dark, bright := 0, 0
		for y := 0; y < 18; y++ { // the overlay's first line, on its dark band
			for x := 0; x < 640; x++ {
				r, g, b := rgb(img, x, y)
				dark += b2i(max(r, g, b) < 0x40)
				bright += b2i(min(r, g, b) > 0xc0)
			}
		}
		assert.Greater(t, dark, 640*18/2, "shot %d: the overlay's top band", i)
		assert.Greater(t, bright, 200, "shot %d: the overlay's text", i)
		bars := 0
		for y := 60; y < 180; y++ { // the step graph: blue bars, orange over the budget
			for x := 0; x < 430; x++ {
				r, g, b := rgb(img, x, y)
				bars += b2i(near(r, g, b, 0x50, 0xa0, 0xff) || near(r, g, b, 0xff, 0x70, 0x50))
			}
		}
		assert.Greater(t, bars, 30, "shot %d: the step graph's bars", i)
	}
	moved, world := 0, image.Rect(440, 60, 1280, 590)
	for y := world.Min.Y; y < world.Max.Y; y++ {
		for x := world.Min.X; x < world.Max.X; x++ {
			r0, g0, b0 := rgb(shots[0], x, y)
			r1, g1, b1 := rgb(shots[1], x, y)
			moved += b2i(r0 != r1 || g0 != g1 || b0 != b1)
		}
	}
	assert.Greater(t, moved, world.Dx()*world.Dy()/50, "the world moved between the shots")
}

// build compiles the demo for the browser into dir, with Go's
// wasm_exec.js beside it, as scripts/web.sh does.
func build(t *testing.T, dir string) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "demo.wasm"), "./demo")
	cmd.Dir, cmd.Env = root, append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	require.NoError(t, err)
	js, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "wasm_exec.js"), js, 0o644))
}

// screenshot opens url in headless Chromium, 1280×720, and returns what
// it shows once the page has loaded; the PNG is kept in the artifacts.
func screenshot(t *testing.T, chrome, url, name string) image.Image {
	out := filepath.Join(artifacts(t), name)
	ctx, cancel := context.WithTimeout(context.Background(), chromeMax)
	defer cancel()
	// --no-sandbox: CI runs as root. SwiftShader: WebGL without a GPU.
	cmd := exec.CommandContext(ctx, chrome, "--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
		"--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--hide-scrollbars", "--mute-audio",
		"--no-first-run", "--user-data-dir="+t.TempDir(), "--window-size=1280,720", "--screenshot="+out, url)
	log, err := cmd.CombinedOutput()
	require.NoError(t, err, "chromium %s:\n%s", url, tail(string(log)))
	f, err := os.Open(out)
	require.NoError(t, err, "chromium wrote no screenshot:\n%s", tail(string(log)))
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	return img
}

// artifacts is where the screenshots go: $ARTIFACTS/web, or the
// repository's artifacts/web (ignored by git).
func artifacts(t *testing.T) string {
	dir := os.Getenv("ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "artifacts")
	}
	dir = filepath.Join(dir, "web")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

// holds keeps a page's load event back: /hold?id= answers once the page
// asked /release?id= (its game ran long enough), or after holdMax.
type holds struct {
	mu sync.Mutex
	ch map[string]chan struct{}
}

func (h *holds) get(id string) chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ch[id] == nil {
		h.ch[id] = make(chan struct{})
	}
	return h.ch[id]
}

func (h *holds) hold(w http.ResponseWriter, r *http.Request) {
	select {
	case <-h.get(r.URL.Query().Get("id")):
	case <-time.After(holdMax):
	case <-r.Context().Done():
		return
	}
	w.Header().Set("Content-Type", "image/gif") // a 1×1 GIF
	_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"))
}

func (h *holds) release(w http.ResponseWriter, r *http.Request) {
	ch := h.get(r.URL.Query().Get("id"))
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

func rgb(img image.Image, x, y int) (r, g, b uint32) {
	r, g, b, _ = img.At(x, y).RGBA()
	return r >> 8, g >> 8, b >> 8
}

// near reports whether (r, g, b) is within 0x20 of (r0, g0, b0) in each.
func near(r, g, b, r0, g0, b0 uint32) bool {
	d := func(a, b uint32) bool { return max(a, b)-min(a, b) <= 0x20 }
	return d(r, r0) && d(g, g0) && d(b, b0)
}

func b2i(ok bool) int {
	if ok {
		return 1
	}
	return 0
}

// tail is the last lines of a command's output.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-30):], "\n")
}
