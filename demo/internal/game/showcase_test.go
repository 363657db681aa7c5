package game_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/demo/internal/game"
	"github.com/weft-engine/weft/engine"
)

// showcaseWindow is the number of last steps in which every system and
// observer must have been busy.
const showcaseWindow = 300

// busy is what the last showcaseWindow steps of a run showed.
type busy struct {
	entities map[string]int // per system with a query: its fewest entities in a step
	ran      map[string]int // per system: the steps it ran in
	stunned  int            // the most seekers stunned after a step
	landings int            // Landed events read by sparks
	sparks   int            // the most sparks alive after a step
	fewest   int            // the fewest seekers alive after a step
}

// The demo's systems, observers and their effects keep going for as long
// as the game runs: in one run of 6,000 steps (100 s of play), at 1,800
// steps and at 6,000, every system with a query covered entities in each
// of the last 300 steps, the systems without one showed their work (the
// fountain and the recruiter ran, sparks read landings and made sparks),
// seekers were stunned (an enableable component switched off), seekers
// were lost and left puffs (an observer of despawns) and hard landings
// raised dust (an observer of events). A system or observer added to the
// demo must be added here, with the sign that it works. Under the race
// detector it stops at 1,800 steps.
func TestShowcaseStaysBusy(t *testing.T) {
	g := newGame(t, game.Config{Entities: 2000, Seed: 1, Workers: 0})
	var observers []string
	for _, o := range g.Engine().Explain().Observers {
		observers = append(observers, o.Name)
	}
	assert.ElementsMatch(t, []string{"wake", "impact"}, observers, "a new observer needs its check below")
	done := 0
	for _, steps := range []int{1800, 6000} {
		t.Run(fmt.Sprint(steps), func(t *testing.T) {
			if raceOn && steps > 1800 {
				t.Skip("4,200 more steps take minutes under the race detector: make test's nonrace step runs them")
			}
			for ; done < steps-showcaseWindow; done++ {
				require.NoError(t, g.Tick())
			}
			checkShowcase(t, g)
			done += showcaseWindow
		})
	}
}

// checkShowcase runs the next showcaseWindow steps of g and checks what
// they did.
func checkShowcase(t *testing.T, g *game.Game) {
	b := busy{entities: map[string]int{}, ran: map[string]int{}, fewest: -1}
	var systems []string
	stop := g.Engine().Observe(func(r *engine.StepRecord) {
		systems = systems[:0]
		for i, s := range r.Layout.Systems {
			systems = append(systems, s.Name)
			rec := r.Systems[i]
			if rec.State == engine.SystemRan {
				b.ran[s.Name]++
			}
			if n, seen := b.entities[s.Name]; !seen || rec.Entities < n {
				b.entities[s.Name] = rec.Entities
			}
		}
	})
	defer stop()
	lost, hard := g.SeekersLost(), g.HardLandings()
	for range showcaseWindow {
		require.NoError(t, g.Tick())
		stunned, err := g.Stunned()
		require.NoError(t, err)
		last, _ := g.Landings()
		seekers := g.Seekers()
		b.stunned, b.sparks, b.landings = max(b.stunned, stunned), max(b.sparks, g.Sparks()), b.landings+last
		if b.fewest < 0 || seekers < b.fewest {
			b.fewest = seekers
		}
	}

	// The systems that run every step with a query over entities.
	everyStep := []string{"lifetime", "seek", "stun", "physics", "landing", "anim", "helm", "transform", "turrets", "stun-look", "cull"}
	// The systems that show their work otherwise.
	other := []string{"sparks", "fountain", "recruit"}
	assert.ElementsMatch(t, append(slices.Clone(everyStep), other...), systems, "a new system needs its check here")
	for _, s := range everyStep {
		assert.Equal(t, showcaseWindow, b.ran[s], "%s ran in every step", s)
		assert.Positive(t, b.entities[s], "%s covered entities in every step", s)
	}
	assert.Equal(t, showcaseWindow, b.ran["sparks"])
	assert.Positive(t, b.landings, "landing emitted Landed events that sparks read")
	assert.Positive(t, b.sparks, "sparks made sparks")
	assert.Equal(t, showcaseWindow/game.FountainEvery, b.ran["fountain"], "the fountain ran every 30 steps")
	assert.Equal(t, showcaseWindow/game.RecruitEvery, b.ran["recruit"], "the recruiter ran every 30 steps")
	assert.GreaterOrEqual(t, b.fewest, game.SeekersFor(2000)/2, "the recruiter kept the seekers (and their turrets) up")
	assert.Positive(t, b.stunned, "seekers were stunned: their Alert switched off")
	assert.Greater(t, g.SeekersLost(), lost, "seekers were lost and left puffs (the wake observer)")
	assert.Greater(t, g.HardLandings(), hard, "hard landings raised dust (the impact observer)")
}
