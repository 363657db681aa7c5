package game_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/weft-engine/weft/ecs"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/profile"
	"github.com/weft-engine/weft/systems"
)

// raceOn is the package's own (race_test.go), for the external tests.
const raceOn = game.RaceOn

func newGame(t *testing.T, cfg game.Config) *game.Game {
	g, err := game.New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	return g
}

// Bursts, the fountain, expiry and respawns give the same world, bit for
// bit, for the serial executor and 1, 2 and 4 workers, for batches of 64
// and 1024, checks on and off.
func TestDeterminism(t *testing.T) {
	const steps = 60
	run := func(t *testing.T, cfg game.Config) (uint64, int) {
		cfg.Entities, cfg.Seed = 3000, 7
		g := newGame(t, cfg)
		expired := 0
		for i := range steps {
			if i%20 == 5 {
				g.SpawnBurst(g.Width*float64(i)/steps, g.Height/3, 50)
			}
			require.NoError(t, g.Tick())
			expired += g.Profile().Last().Commands
		}
		h, err := g.Hash()
		require.NoError(t, err)
		return h, expired
	}
	want, commands := run(t, game.Config{Workers: 0, Batch: 64})
	assert.Positive(t, commands, "some bodies expired and were replaced through command buffers")
	for _, cfg := range []game.Config{{Workers: 0, Batch: 1024}, {Workers: 1, Batch: 64}, {Workers: 2, Batch: 64, Checks: true}, {Workers: 2, Batch: 1024}, {Workers: 4, Batch: 256}} {
		t.Run(fmt.Sprintf("W%d/batch%d/checks=%v", cfg.Workers, cfg.Batch, cfg.Checks), func(t *testing.T) {
			got, _ := run(t, cfg)
			assert.Equal(t, want, got)
		})
	}
}

// A burst adds its bodies before the next step; expiry keeps the base
// count steady, and the burst's bodies expire without replacement.
func TestSpawnBurst(t *testing.T) {
	g := newGame(t, game.Config{Entities: 500, Workers: 0})
	g.SetFountain(false)
	require.NoError(t, g.Tick())
	bodies := func() int { return g.Len() - g.Sparks() } // landings add sparks, for a moment
	n := bodies()
	assert.Equal(t, 500, n)
	g.SpawnBurst(g.Width/2, g.Height/2, 40)
	assert.Equal(t, n, bodies(), "recorded, not yet applied")
	require.NoError(t, g.Tick())
	assert.Equal(t, n+40, bodies())
	for range 60 * 7 { // bursts live at most 6 s
		require.NoError(t, g.Tick())
	}
	assert.Equal(t, n, bodies())
	_, landings := g.Landings()
	assert.Positive(t, landings, "bodies landed and made sparks")
}

// A burst appears as a burst at the cursor after its first step: its
// bodies spread over a small disc, not on one point and not in a line
// across the world.
func TestBurstAtCursor(t *testing.T) {
	g := newGame(t, game.Config{Entities: 1, Workers: 0})
	require.NoError(t, g.Tick())
	cx, cy := g.Width/2, g.Height/2
	g.SpawnBurst(cx, cy, game.BurstSize)
	require.NoError(t, g.Tick())
	near, far := 0, 0.0
	seen := map[systems.Position]bool{}
	w := g.Engine().World()
	bodies, err := w.Entities(ecs.NewComponent[systems.Position](w))
	require.NoError(t, err)
	for e := range bodies {
		p, err := ecs.Get[systems.Position](w, e)
		require.NoError(t, err)
		if d := math.Hypot(p.X-cx, p.Y-cy); d < 60 {
			near++
			far = max(far, d)
			seen[p] = true
		}
	}
	assert.GreaterOrEqual(t, near, game.BurstSize, "the burst is around the cursor")
	assert.Greater(t, len(seen), game.BurstSize*9/10, "at distinct points")
	assert.Greater(t, far, 3.0, "spread out")
}

func TestNewDefaultsAndErrors(t *testing.T) {
	g := newGame(t, game.Config{Entities: 100})
	assert.Equal(t, game.DefaultBatch, g.Config().Batch)
	assert.True(t, g.Engine().AdaptiveBatch(), "the default batch is adaptive")
	assert.Greater(t, g.Width, float64(game.ScreenW), "the world is larger than the screen")
	d := game.DefaultConfig()
	assert.Equal(t, game.Config{Entities: 20000, Workers: engine.DefaultWorkers, Batch: 0}, d)
	for _, cfg := range []game.Config{{Entities: -1}, {Batch: -1}, {Workers: -2}} {
		_, err := game.New(cfg)
		assert.Error(t, err, "%+v", cfg)
	}
}

// The camera follows the sprites: some are visible, and panning far away
// leaves fewer in view.
func TestCull(t *testing.T) {
	g := newGame(t, game.Config{Entities: 2000, Workers: 0})
	require.NoError(t, g.Tick())
	assert.Positive(t, g.Visible())
	assert.Len(t, g.Engine().Snapshot().Items, g.Visible())
	assert.Less(t, g.Visible(), g.Len(), "the world is larger than the screen")
}

func TestApplyInputPan(t *testing.T) {
	cam := engine.Camera{X: 100, Y: 100, W: 1280, H: 720, Zoom: 2}
	game.ApplyInput(game.Input{Right: true, Down: true}, &cam)
	assert.InDelta(t, 100+game.PanSpeed/2.0, cam.X, 1e-9)
	assert.InDelta(t, 100+game.PanSpeed/2.0, cam.Y, 1e-9)
	game.ApplyInput(game.Input{Left: true, Up: true}, &cam)
	assert.InDelta(t, 100, cam.X, 1e-9)
	// Dragging right by 20 pixels moves the view left by 10 world units at zoom 2.
	game.ApplyInput(game.Input{DragX: 20, DragY: -10}, &cam)
	assert.InDelta(t, 90, cam.X, 1e-9)
	assert.InDelta(t, 105, cam.Y, 1e-9)
	assert.InDelta(t, 2, cam.Zoom, 1e-9)
}

func TestApplyInputZoom(t *testing.T) {
	cam := engine.Camera{X: 500, Y: 300, W: 1280, H: 720, Zoom: 1}
	mx, my := 100.0, 600.0
	wx, wy := cam.ToWorld(mx, my)
	game.ApplyInput(game.Input{Wheel: 1, MouseX: mx, MouseY: my}, &cam)
	assert.InDelta(t, game.ZoomStep, cam.Zoom, 1e-9)
	x, y := cam.ToWorld(mx, my)
	assert.InDelta(t, wx, x, 1e-9, "the point under the cursor stays")
	assert.InDelta(t, wy, y, 1e-9)
	game.ApplyInput(game.Input{Wheel: -1000}, &cam)
	assert.Equal(t, float64(game.MinZoom), cam.Zoom)
	game.ApplyInput(game.Input{Wheel: 1000}, &cam)
	assert.Equal(t, float64(game.MaxZoom), cam.Zoom)
}

func TestHandleInput(t *testing.T) {
	g := newGame(t, game.Config{Entities: 100, Workers: 0})
	g.HandleInput(game.Input{Click: true, MouseX: 640, MouseY: 360})
	require.NoError(t, g.Tick())
	assert.Equal(t, 100+game.BurstSize, g.Len())
	g.HandleInput(game.Input{DragX: 1e9, DragY: 1e9})
	cam := g.Engine().Camera()
	assert.Equal(t, 0.0, cam.X, "the camera stays over the world")
	assert.Equal(t, 0.0, cam.Y)
}

// A step in steady state, expiry and respawns included, allocates nothing.
func TestSteadyStateAllocs(t *testing.T) {
	if raceOn {
		t.Skip("the race detector allocates")
	}
	g := newGame(t, game.Config{Entities: 3000, Workers: 1})
	for range 200 {
		require.NoError(t, g.Tick())
	}
	assert.Zero(t, testing.AllocsPerRun(50, func() { _ = g.Tick() }))
}

// The hash follows the world: it changes as the bodies move and with the
// seed; the bodies collide.
func TestHashFollowsWorld(t *testing.T) {
	g := newGame(t, game.Config{Entities: 1000, Workers: 0, Seed: 1})
	hash := func(g *game.Game) uint64 {
		h, err := g.Hash()
		require.NoError(t, err)
		return h
	}
	h0 := hash(g)
	assert.Equal(t, h0, hash(g))
	require.NoError(t, g.Tick())
	assert.NotEqual(t, h0, hash(g))
	assert.Positive(t, g.Contacts())
	other := newGame(t, game.Config{Entities: 1000, Workers: 0, Seed: 2})
	assert.NotEqual(t, h0, hash(other))
}

// Step runs the fixed steps that dt holds (1/60 s each).
func TestStep(t *testing.T) {
	g := newGame(t, game.Config{Entities: 100, Workers: 0})
	g.SpawnBurst(10, 10, 5)
	n, err := g.Step(50 * time.Millisecond)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, uint64(3), g.Engine().Time().Step)
	assert.Equal(t, 105, g.Len())
}

// The fountain runs only in every FountainEvery-th step while it is on: it
// adds FountainJet bodies then, and the timings show it skipped otherwise.
func TestFountain(t *testing.T) {
	g := newGame(t, game.Config{Entities: 500, Workers: 2})
	// Only the fountain changes the body count: sparks (spawned on landings,
	// fading out) would too.
	require.NoError(t, g.Engine().Enable("sparks", false))
	assert.True(t, g.FountainOn())
	fountain := func() profile.SystemTimings { return *g.Profile().Last().System("fountain") }
	for step := 1; step <= 2*game.FountainEvery; step++ {
		n := g.Len()
		require.NoError(t, g.Tick())
		on := step%game.FountainEvery == 0
		assert.Equal(t, on, fountain().Ran, "step %d", step)
		assert.Equal(t, !on, fountain().Skipped, "step %d", step)
		if on {
			assert.Equal(t, n+game.FountainJet, g.Len(), "step %d", step)
		}
	}
	g.SetFountain(false)
	for range game.FountainEvery {
		require.NoError(t, g.Tick())
		assert.True(t, fountain().Skipped)
	}
}
