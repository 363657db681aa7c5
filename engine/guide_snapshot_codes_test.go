//go:build !weft_nochecks

package engine_test

import (
	"bytes"
	"testing"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The claims of docs/guide/13-snapshots.md about the codes it names.
func init() {
	saved := func() []byte {
		a := newArena(engine.Config{Serial: true}, false)
		defer a.eng.Close()
		var file bytes.Buffer
		if err := a.eng.Save(&file); err != nil {
			panic(err)
		}
		return file.Bytes()
	}
	load := func(file []byte) error {
		a := newArena(engine.Config{Serial: true}, false)
		defer a.eng.Close()
		return a.eng.Load(bytes.NewReader(file))
	}
	guideClaims = append(guideClaims,
		guideClaim{"is refused with WEFT-E012 naming the field", func(t *testing.T) error {
			type Trail struct{ Points []float64 }
			w := ecs.NewWorld(ecs.Options{})
			ecs.NewComponent[Trail](w)
			var snap ecs.Snapshot
			return w.Snapshot(&snap)
		}},
		guideClaim{"A truncated, corrupted or foreign file is refused with WEFT-E013", func(t *testing.T) error {
			file := saved()
			return load(file[:len(file)-1])
		}},
		guideClaim{"and one of another format with WEFT-E014", func(t *testing.T) error {
			file := saved()
			file[8]++ // the version, after the magic word
			return load(file)
		}},
	)
}
