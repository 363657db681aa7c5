package engine_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// Tether is a relation kind whose followers are detached when their
// target is despawned.
type Tether struct{}

// Crew is a member's number.
type Crew struct{ I int }

// detachScene: 600 crew, every tenth a leader that the nine after it
// follow (Tether); each step a chunk pass despawns a third of the
// leaders, and an observer of OnRemove of Link[Tether] logs each
// follower that is detached. It returns the log.
func detachScene(t *testing.T, workers, batch int) []string {
	w := ecs.NewWorld(ecs.Options{})
	require.NoError(t, ecs.NewRelation[Tether](w, ecs.Detach))
	crew := ecs.NewComponent[Crew](w)
	b := w.NewCommands()
	ents := make([]ecs.Entity, 600)
	for i := range ents {
		ents[i] = b.Spawn()
		crew.Add(b, ents[i], Crew{i})
		if i%10 != 0 {
			require.NoError(t, ecs.Relate[Tether](b, ents[i], ents[i-i%10]))
		}
	}
	_, err := w.Apply(b)
	require.NoError(t, err)
	eng := newEngine(t, w, engine.Config{Workers: workers, Serial: workers == 0, Batch: batch})
	var pass *engine.Pass
	var r ecs.Reader[Crew]
	var step int
	require.NoError(t, eng.Add(engine.Update, &toy{name: "cull", build: func(b *engine.Builder) error {
		d := b.Decl()
		r = ecs.Read[Crew](d)
		b.Commands()
		pass = b.Chunks("cull", ecs.NewQuery1(d, r), func(c *ecs.Chunk) {
			for i, e := range c.Entities() {
				if n := r.Column(c)[i].I; n%10 == 0 && (n/10)%3 == step%3 {
					c.Commands().Despawn(e)
				}
			}
		})
		return nil
	}, sched: func(f *engine.Frame) error { step = int(f.Time().Step); return f.Run(pass) }}))
	var log []string
	var look ecs.LookupReader[Crew]
	require.NoError(t, eng.AddObserver(&watcher{name: "detached", build: func(b *engine.ObserverBuilder) error {
		look = ecs.ReadLookup[Crew](b.Decl())
		ecs.Observe[ecs.Link[Tether]](b.Decl(), ecs.OnRemove)
		return nil
	}, observe: func(ev ecs.Observed) error {
		c, err := look.Get(ev.Entity)
		log = append(log, fmt.Sprint(c.I, err))
		return nil
	}}))
	require.NoError(t, eng.Build())
	for range 3 {
		require.NoError(t, eng.Tick())
	}
	return log
}

// Despawning a Detach target calls its followers' OnRemove observers of
// the link once each, in playback order: the same on every worker count
// and batch size as on the serial executor.
func TestObserverDetach(t *testing.T) {
	want := detachScene(t, 0, 256)
	require.Len(t, want, 540, "every follower detached once")
	seen := map[string]bool{}
	for _, l := range want {
		assert.False(t, seen[l], "%s twice", l)
		seen[l] = true
	}
	for _, workers := range []int{0, 1, 2, 4} {
		for _, batch := range []int{1, 64, 0} {
			assert.Equal(t, want, detachScene(t, workers, batch), "workers %d, batch %d", workers, batch)
		}
	}
}
