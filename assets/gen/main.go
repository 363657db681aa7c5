// Command gen draws the demo's sprite atlas and writes it as a PNG (run by go generate ./assets).
//
//	go run ./gen [-o dir]
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/weft-engine/weft/assets/internal/sheets"
)

func main() {
	dir := flag.String("o", ".", "write "+sheets.File+" into `dir`")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "gen: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	if err := sheets.Write(*dir); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
