package interact

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/weft-engine/weft/engine"
)

// Game is one generated game: plain data, the same for the same seed.
type Game struct {
	Seed     uint64
	Entities int    // entities spawned before the first step
	Steps    int    // steps of the straight run
	Chain    bool   // engine.Config.ChainChunks
	Parts    []Part // systems, exclusive systems and observers
	Sets     []Set
	Plan     Plan // where each run leaves the straight path
}

// Part is one system, exclusive system or observer of the game.
type Part struct {
	Index int // in the generated game; names stay when parts are left out
	Kind  Kind
	Stage engine.Stage
	P, Q  int  // the kind's parameters, at least 1
	Cond  Cond // a run condition, for systems and exclusives
	Arg   int  // the condition's parameter, at least 1
	Set   int  // the index of its set in Game.Sets, or -1
}

// Name is the part's system or observer name.
func (p Part) Name() string { return fmt.Sprintf("%s%d", p.Kind, p.Index) }

func (p Part) String() string {
	s := fmt.Sprintf("%s [%s P=%d Q=%d", p.Name(), p.Stage, p.P, p.Q)
	if p.Cond != CondNone {
		s += fmt.Sprintf(" %s(%d)", p.Cond, p.Arg)
	}
	if p.Set >= 0 {
		s += fmt.Sprintf(" in set%d", p.Set)
	}
	return s + "]"
}

// Cond is a run condition.
type Cond uint8

// The run conditions a part may take.
const (
	CondNone  Cond = iota
	CondEvery      // engine.EveryN(Arg)
	CondRunIf      // engine.RunIf: the step is not a multiple of Arg
	CondKnob       // engine.WhileRes[Knob]: Knob.V is not Arg%4
	CondState      // engine.InState(Mode(Arg%3))
	numConds
)

func (c Cond) String() string {
	return [...]string{"none", "EveryN", "RunIf", "WhileRes", "InState"}[c]
}

// Set is a system set: a stage and a condition of its own.
type Set struct {
	Stage engine.Stage
	Cond  Cond
	Arg   int
}

// Plan says where a run leaves the straight path; steps count from 1, and
// each detour comes back to where it left.
type Plan struct {
	SnapAt, RestoreAt int // snapshot after step SnapAt, restore after RestoreAt
	RewindAt, Rewind  int // after step RewindAt, rewind Rewind steps
	SaveAt, LoadAt    int // save after SaveAt, load into the same engine after LoadAt
	FreshAt, Fresh    int // save after FreshAt, load into a new engine, run Fresh steps there
}

// Generate makes the game of seed.
func Generate(seed uint64) *Game {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := &Game{Seed: seed, Entities: 40 + r.IntN(260), Steps: 16 + r.IntN(16), Chain: r.IntN(3) == 0}
	for range r.IntN(3) {
		g.Sets = append(g.Sets, Set{Stage: engine.Stage(r.IntN(engine.NumStages)), Cond: Cond(1 + r.IntN(int(numConds)-1)), Arg: 2 + r.IntN(4)})
	}
	n := 10 + r.IntN(int(numKinds)-9)
	for i := range n {
		k := Kind(r.IntN(int(numKinds)))
		if i < int(numKinds) && r.IntN(3) > 0 { // most games have most kinds
			k = Kind(i)
		}
		p := Part{Index: i, Kind: k, Stage: engine.Stage(r.IntN(engine.NumStages)), P: 1 + r.IntN(6), Q: 1 + r.IntN(6), Set: -1}
		if r.IntN(3) == 0 {
			p.Cond, p.Arg = Cond(1+r.IntN(int(numConds)-1)), 2+r.IntN(4)
		}
		if len(g.Sets) > 0 && kinds[k].role == roleSystem && r.IntN(3) == 0 {
			s := r.IntN(len(g.Sets))
			p.Set, p.Stage = s, g.Sets[s].Stage
		}
		g.Parts = append(g.Parts, p)
	}
	s := g.Steps
	g.Plan.SnapAt = 1 + r.IntN(s-4)
	g.Plan.RestoreAt = g.Plan.SnapAt + 1 + r.IntN(3)
	g.Plan.RewindAt = 4 + r.IntN(s-4)
	g.Plan.Rewind = 1 + r.IntN(3)
	g.Plan.SaveAt = 1 + r.IntN(s-4)
	g.Plan.LoadAt = g.Plan.SaveAt + 1 + r.IntN(3)
	g.Plan.FreshAt = 1 + r.IntN(s-4)
	g.Plan.Fresh = 1 + r.IntN(4)
	return g
}

// Keep is g with only the parts whose Index is in keep.
func (g *Game) Keep(keep []int) *Game {
	out := *g
	out.Parts = nil
	for _, p := range g.Parts {
		for _, k := range keep {
			if p.Index == k {
				out.Parts = append(out.Parts, p)
			}
		}
	}
	return &out
}

// Indexes are the Index of each of g's parts.
func (g *Game) Indexes() []int {
	var out []int
	for _, p := range g.Parts {
		out = append(out, p.Index)
	}
	return out
}

func (g *Game) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: %d entities, %d steps, chained %v, plan %+v\n", g.Seed, g.Entities, g.Steps, g.Chain, g.Plan)
	for i, s := range g.Sets {
		fmt.Fprintf(&b, "  set%d [%s %s(%d)]\n", i, s.Stage, s.Cond, s.Arg)
	}
	for _, p := range g.Parts {
		fmt.Fprintf(&b, "  %s\n", p)
	}
	return b.String()
}
