package safety

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/internal/fault"
)

func registry(t testing.TB, names ...string) *Registry {
	r := &Registry{}
	for _, n := range names {
		_, err := r.Register(n)
		require.NoError(t, err)
	}
	return r
}

const (
	kPos Key = iota
	kVel
	kHP
)

func TestCheckErrors(t *testing.T) {
	reg := registry(t, "Position", "Velocity", "Health")
	cases := []struct {
		name    string
		systems []System
		code    fault.Code
		want    string
	}{
		{"cycle", []System{
			{Name: "a", Before: []string{"b"}},
			{Name: "b", Before: []string{"c"}},
			{Name: "c", Before: []string{"a"}},
			{Name: "d", After: []string{"a"}},
		}, ErrCycle, `safety: WEFT-S002: the Before/After constraints form a cycle: "a" → "b" → "c" → "a"; remove one of these constraints`},
		{"read and write in one system", []System{
			{Name: "physics", Decls: []Decl{{kPos, Read}, {kPos, Write}}},
		}, ErrConflictingDecl, `safety: WEFT-S003: system "physics" declares Position twice (it reads it and writes it); declare it once, as a write if the system writes it (a lookup counts too: a system that looks it up and writes it declares only ecs.WriteLookup)`},
		{"two writes in one system", []System{
			{Name: "physics", Decls: []Decl{{kVel, Write}, {kVel, Write}}},
		}, ErrConflictingDecl, `safety: WEFT-S003: system "physics" declares Velocity twice (it writes it and writes it); declare it once, as a write if the system writes it (a lookup counts too: a system that looks it up and writes it declares only ecs.WriteLookup)`},
		{"unknown key", []System{
			{Name: "anim", Decls: []Decl{{Key(9), Read}}},
		}, ErrUnknownKey, `safety: WEFT-S004: system "anim" declares key#9, which the Registry does not know; register the component or resource type before declaring access to it`},
		{"unknown system", []System{
			{Name: "anim", After: []string{"physic"}},
		}, ErrUnknownSystem, `safety: WEFT-S005: system "anim" runs After "physic", which is not a system of this schedule; fix the name or add the system`},
		{"before against the stages", []System{
			{Name: "draw", Stage: 1},
			{Name: "physics", Stage: 2, Before: []string{"draw"}},
		}, ErrCycle, `safety: WEFT-S002: system "physics" (stage 2) must run before "draw" (stage 1), against the stage order; drop the constraint or move one of them to another stage`},
		{"after against the stages", []System{
			{Name: "input", Stage: 0, After: []string{"draw"}},
			{Name: "draw", Stage: 3},
		}, ErrCycle, `safety: WEFT-S002: system "draw" (stage 3) must run before "input" (stage 0), against the stage order; drop the constraint or move one of them to another stage`},
		{"duplicate name", []System{{Name: "anim"}, {Name: "anim"}}, ErrUnknownSystem,
			`safety: WEFT-S005: systems 0 and 1 are both named "anim"; give every system a unique name`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := Check(reg, c.systems)
			require.Error(t, err)
			assert.Nil(t, p)
			assert.Equal(t, c.want, err.Error())
			var se *Error
			require.True(t, errors.As(err, &se))
			assert.Equal(t, c.code, se.Code)
			if c.name == "cycle" {
				assert.Equal(t, []string{"a", "b", "c", "a"}, se.Detail.Cycle)
			}
		})
	}
	t.Run("read twice is fine", func(t *testing.T) {
		_, err := Check(reg, []System{{Name: "a", Decls: []Decl{{kPos, Read}, {kPos, Read}}}})
		assert.NoError(t, err)
	})
}

func TestCheckOrderAndAmbiguities(t *testing.T) {
	reg := registry(t, "Position", "Velocity", "Health")
	systems := []System{
		{Name: "cull", Decls: []Decl{{kPos, Read}}, After: []string{"physics"}},
		{Name: "physics", Decls: []Decl{{kPos, Write}, {kVel, Read}}},
		{Name: "ai", Decls: []Decl{{kVel, Write}}},
		{Name: "hud", Decls: []Decl{{kHP, Read}}},
	}
	p, err := Check(reg, systems)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 0, 2, 3}, p.Order, "physics before cull by constraint, then registration order")
	assert.Equal(t, []int{1}, p.Preds[0])
	assert.Equal(t, []int{1}, p.Preds[2], "ai writes Velocity, which physics reads")
	assert.Empty(t, p.Preds[3])
	require.Len(t, p.Ambiguities, 1)
	amb := p.Ambiguities[0]
	assert.Equal(t, "physics", amb.First)
	assert.Equal(t, "ai", amb.Second)
	assert.Equal(t, "Velocity", amb.Key)

	// The ID does not depend on registration order.
	p2, err := Check(reg, []System{systems[2], systems[1]})
	require.NoError(t, err)
	require.Len(t, p2.Ambiguities, 1)
	assert.Equal(t, amb.ID, p2.Ambiguities[0].ID)

	err = p.NewAmbiguities(nil)
	assert.ErrorIs(t, err, ErrNewAmbiguity)
	assert.Equal(t, "safety: WEFT-S006: "+amb.ID+`: systems "physics" and "ai" conflict on Velocity and only registration order runs "physics" first; state the order with Before/After, or accept it by adding `+amb.ID+" to the allowlist", err.Error())

	var file bytes.Buffer
	require.NoError(t, WriteAllowlist(&file, p.Ambiguities))
	allow, err := ParseAllowlist(&file)
	require.NoError(t, err)
	assert.NoError(t, p.NewAmbiguities(allow))

	_, err = ParseAllowlist(bytes.NewBufferString("A1 A2\n"))
	assert.ErrorIs(t, err, ErrBadArgument)
}

// Property: for random systems with random access and random acyclic
// constraints, every conflicting pair is ordered (reachable through Preds),
// no pair without conflict or constraint gets a direct edge, and the
// ambiguities are exactly the conflicting pairs without a constraint path.
func TestPropertyPlan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	reg := registry(t, "k0", "k1", "k2", "k3", "k4")
	for iter := range 300 {
		n := 1 + r.IntN(12)
		systems := make([]System, n)
		names := make([]string, n)
		for i := range n {
			names[i] = "s" + string(rune('a'+i))
		}
		// Constraints only from a hidden order, so they never form a cycle.
		perm := r.Perm(n)
		explicit := map[[2]int]bool{}
		for i := range n {
			systems[i].Name = names[i]
			for k := range 5 {
				if m := Mode(r.IntN(3)); m != None {
					systems[i].Decls = append(systems[i].Decls, Decl{Key(k), m})
				}
			}
		}
		for range r.IntN(n + 1) {
			a, b := perm[r.IntN(n)], perm[r.IntN(n)]
			if pos(perm, a) >= pos(perm, b) {
				continue
			}
			systems[a].Before = append(systems[a].Before, names[b])
			explicit[[2]int{a, b}] = true
		}
		p, err := Check(reg, systems)
		require.NoError(t, err, "iter %d", iter)
		reach := func(from, to int) bool { // to runs before from, through Preds
			return reaches(from, to, func(v int) []int { return p.Preds[v] })
		}
		constrained := func(a, b int) bool { // a before b by constraints alone
			return reaches(a, b, func(v int) []int {
				var out []int
				for e := range explicit {
					if e[0] == v {
						out = append(out, e[1])
					}
				}
				return out
			})
		}
		ambiguous := 0
		for a := range n {
			for b := a + 1; b < n; b++ {
				_, conflict := p.Access[a].Conflict(&p.Access[b])
				if conflict {
					require.True(t, reach(a, b) || reach(b, a), "iter %d: %d and %d conflict but are unordered", iter, a, b)
					if !constrained(a, b) && !constrained(b, a) {
						ambiguous++
					}
				} else if !explicit[[2]int{a, b}] && !explicit[[2]int{b, a}] {
					require.NotContains(t, p.Preds[b], a, "iter %d", iter)
					require.NotContains(t, p.Preds[a], b, "iter %d", iter)
				}
			}
		}
		require.Len(t, p.Ambiguities, ambiguous, "iter %d", iter)
	}
}

func pos(s []int, v int) int {
	for i, x := range s {
		if x == v {
			return i
		}
	}
	return -1
}

// Stages order systems before constraints and registration do; a conflict
// across stages is ordered by them (an edge, no ambiguity), and systems of
// different stages that do not conflict get no edge.
func TestCheckStages(t *testing.T) {
	reg := registry(t, "Position", "Velocity", "Health")
	p, err := Check(reg, []System{
		{Name: "draw", Stage: 2, Decls: []Decl{{kPos, Read}}},
		{Name: "move", Stage: 1, Decls: []Decl{{kPos, Write}, {kVel, Read}}},
		{Name: "heal", Stage: 1, Decls: []Decl{{kHP, Write}}, Before: []string{"move"}},
		{Name: "input", Stage: 0, Decls: []Decl{{kVel, Write}}},
		{Name: "hurt", Stage: 1, Decls: []Decl{{kHP, Write}}},
	})
	require.NoError(t, err)
	names := func(ix []int) []string {
		var out []string
		for _, i := range ix {
			out = append(out, []string{"draw", "move", "heal", "input", "hurt"}[i])
		}
		return out
	}
	assert.Equal(t, []string{"input", "heal", "move", "hurt", "draw"}, names(p.Order))
	assert.Equal(t, []string{"input", "heal"}, names(p.Preds[1]), "move: a conflict across stages, and its constraint")
	assert.Equal(t, []string{"move"}, names(p.Preds[0]), "draw after move only: it conflicts with nothing else")
	assert.Empty(t, p.Preds[3])
	assert.Equal(t, []string{"heal"}, names(p.Preds[4]))
	require.Len(t, p.Ambiguities, 1, "heal and hurt, of one stage, are ordered only by registration")
	assert.Equal(t, "heal", p.Ambiguities[0].First)
	assert.Equal(t, "hurt", p.Ambiguities[0].Second)
}
