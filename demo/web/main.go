// Command web serves weft's games built for the browser on localhost:
// the page (index.html, built in) and the folder that scripts/web.sh
// builds (the demo, fireworks and bounce as GOOS=js GOARCH=wasm, and Go's
// wasm_exec.js). make web builds and runs it:
//
//	go run ./demo/web [-dir artifacts/web] [-addr 127.0.0.1:8080]
//
// It serves every file fresh (no caching), so a rebuild shows at the next
// reload.
package main

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
)

//go:embed index.html
var page []byte

// games are the wasm files the page loads, by ?game=.
var games = []string{"demo", "fireworks", "bounce"}

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// run serves until the process is stopped; it returns 2 on wrong flags
// or a folder without the build, 1 if it cannot listen.
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", filepath.Join("artifacts", "web"), "the `folder` scripts/web.sh built")
	addr := fs.String("addr", "127.0.0.1:8080", "the `address` to serve on (localhost)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if err := built(*dir); err != nil {
		fmt.Fprintf(stderr, "web: %v: build it first (make web, or bash scripts/web.sh build)\n", err)
		return 2
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "web:", err)
		return 1
	}
	fmt.Fprintf(stdout, "web: serving %s on http://%s/ (the demo; ?game=fireworks, ?game=bounce); Ctrl-C stops\n", *dir, l.Addr())
	fmt.Fprintln(stderr, "web:", http.Serve(l, handler(*dir)))
	return 1
}

// built reports which file of the build dir lacks, if any.
func built(dir string) error {
	var errs []error
	for _, f := range append([]string{"wasm_exec.js"}, wasmFiles()...) {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func wasmFiles() []string {
	var fs []string
	for _, g := range games {
		fs = append(fs, g+".wasm")
	}
	return fs
}

// handler serves the page at / and the build's files from dir, none of
// them cached.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	mux := http.NewServeMux()
	servePage := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(page)
	}
	mux.HandleFunc("GET /{$}", servePage)
	mux.HandleFunc("GET /index.html", servePage)
	mux.Handle("GET /", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		files.ServeHTTP(w, r) // .wasm as application/wasm, which instantiateStreaming needs
	}))
	return mux
}
