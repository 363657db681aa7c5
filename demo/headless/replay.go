package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/replay"
)

// verify plays the recording at path into a game made from it with o's
// worker count and batch size, checking every step's world hash and
// digests, and says how much faster than real time the steps ran. On the
// first step that differs it plays the recording again into the serial
// executor and o's configuration side by side, to name the entity and
// component that first differ, and fails.
func verify(o options, path string, stdout io.Writer) error {
	rec, err := readRecording(path)
	if err != nil {
		return err
	}
	g, p, err := game.FromRecording(rec, o.Config)
	if err != nil {
		return err
	}
	defer g.Close()
	start := time.Now()
	for !p.Done() {
		if err := p.Step(); err != nil {
			return errors.Join(err, find(rec, o.Config))
		}
	}
	took := time.Since(start)
	simulated := time.Duration(len(rec.Steps)) * time.Duration(rec.Header.FixedStep)
	_, err = fmt.Fprintf(stdout, "replay %s: %d steps equal (world hash and %d system digests each) on %d workers, batch %s\nplayed in %v for %v of game time: %.1fx real time\n",
		path, len(rec.Steps), len(rec.Header.Systems), o.Workers, batchName(o.Batch), took.Round(time.Millisecond), simulated.Round(time.Millisecond), simulated.Seconds()/took.Seconds())
	return err
}

// find plays rec into the serial oracle and cfg side by side and returns
// where they first differ, as an error; nil if they agree, which means
// the difference was in the recording's own run.
func find(rec *replay.Recording, cfg game.Config) error {
	oracle := cfg
	oracle.Workers = 0
	a, _, err := game.FromRecording(rec, oracle)
	if err != nil {
		return err
	}
	defer a.Close()
	b, _, err := game.FromRecording(rec, cfg)
	if err != nil {
		return err
	}
	defer b.Close()
	d, err := replay.Find(rec, a, b)
	switch {
	case err != nil:
		return err
	case d == nil:
		return fmt.Errorf("played again, the serial executor and %d workers agree on every step: the difference lies in the recorded run (another build, or a system that differs from run to run)", cfg.Workers)
	}
	return fmt.Errorf("played again into the serial executor (want) and %d workers (got): %s", cfg.Workers, d)
}

func readRecording(path string) (*replay.Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return replay.Read(f)
}

// record makes g record into a new file at path; the returned function
// ends the recording and closes the file.
func record(g *game.Game, path string) (func() error, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := g.Record(f); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return func() error { return errors.Join(g.StopRecording(), f.Close()) }, nil
}

func batchName(b int) string {
	if b == 0 {
		return "adaptive"
	}
	return fmt.Sprint(b)
}
