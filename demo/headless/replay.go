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
			return errors.Join(err, game.Divergence(rec, o.Config))
		}
	}
	took := time.Since(start)
	simulated := time.Duration(len(rec.Steps)) * time.Duration(rec.Header.FixedStep)
	_, err = fmt.Fprintf(stdout, "%s\nplayed in %v for %v of game time: %.1fx real time\n",
		game.EqualVerdict(path, rec, g.Engine().Workers(), o.Batch), took.Round(time.Millisecond), simulated.Round(time.Millisecond), simulated.Seconds()/took.Seconds())
	return err
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
