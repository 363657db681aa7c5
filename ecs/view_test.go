package ecs

import (
	"cmp"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGet(t *testing.T) {
	s := newScene(t, 3, Options{})
	w := s.w
	seq, err := w.Entities(s.hpC)
	require.NoError(t, err)
	var e Entity
	for e = range seq {
	}
	hp, err := Get[health](w, e)
	require.NoError(t, err)
	assert.Equal(t, health{HP: 100}, hp)
	_, err = Get[tag](w, e)
	assert.ErrorIs(t, err, ErrNotFound)
	assert.EqualError(t, err, "ecs: WEFT-E011: ecs.Get[ecs.tag] of entity {4 0}, which has no ecs.tag")
	type unregistered struct{}
	_, err = Get[unregistered](w, e)
	assert.ErrorIs(t, err, ErrNotFound)

	require.NoError(t, w.BeginFrame())
	_, err = Get[health](w, e)
	assert.ErrorIs(t, err, ErrLocked)
	_, err = w.Entities()
	assert.ErrorIs(t, err, ErrLocked)
	_, err = w.Hash()
	assert.ErrorIs(t, err, ErrLocked)
	_, err = w.EndFrame()
	require.NoError(t, err)

	b := w.NewCommands()
	b.Despawn(e)
	_, err = w.Apply(b)
	require.NoError(t, err)
	_, err = Get[health](w, e)
	assert.EqualError(t, err, "ecs: WEFT-E011: ecs.Get[ecs.health] of entity {4 0}, which is not alive (despawned, or never spawned)")
}

// Leaving a range loop early unlocks the world.
func TestEntitiesBreak(t *testing.T) {
	s := newScene(t, 9, Options{})
	seq, err := s.w.Entities(s.posC, s.velC)
	require.NoError(t, err)
	n := 0
	for range seq {
		n++
	}
	assert.Equal(t, 9, n)
	for range seq {
		break
	}
	b := s.w.NewCommands()
	b.Spawn()
	_, err = s.w.Apply(b) // Ark would panic on a world left locked
	require.NoError(t, err)
	all, err := s.w.Entities()
	require.NoError(t, err)
	n = 0
	for range all {
		n++
	}
	assert.Equal(t, 10, n)
}

// The hash is the one the demo computed with its own code before
// World.Hash: FNV-1a over (entity, pos, vel) sorted by entity, then the
// count. The determinism pins of the demo stay valid.
func TestHashIsTheDemoHash(t *testing.T) {
	s := newScene(t, 50, Options{})
	w := s.w
	b := w.NewCommands()
	seq, err := w.Entities(s.hpC)
	require.NoError(t, err)
	for e := range seq {
		b.Despawn(e) // recycled IDs: generations other than 0
	}
	_, err = w.Apply(b)
	require.NoError(t, err)
	b = w.NewCommands()
	for i := range 5 {
		e := b.Spawn()
		s.posC.Add(b, e, pos{X: -float64(i), Y: math.Pi})
		s.velC.Add(b, e, vel{DX: 1})
	}
	_, err = w.Apply(b)
	require.NoError(t, err)

	got, err := w.Hash(s.posC, s.velC)
	require.NoError(t, err)
	assert.Equal(t, demoHash(t, w), got)
	other, err := w.Hash(s.posC)
	require.NoError(t, err)
	assert.NotEqual(t, got, other)
}

// demoHash is the demo's former Game.Hash, on pos and vel.
func demoHash(t *testing.T, w *World) uint64 {
	type row struct {
		e    uint64
		p, v [2]float64
	}
	var rows []row
	seq, err := w.Entities(NewComponent[pos](w), NewComponent[vel](w))
	require.NoError(t, err)
	for e := range seq {
		p, _ := Get[pos](w, e)
		v, _ := Get[vel](w, e)
		rows = append(rows, row{uint64(e.ID())<<32 | uint64(e.Gen()), [2]float64{p.X, p.Y}, [2]float64{v.DX, v.DY}})
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(a.e, b.e) })
	h := fnv.New64a()
	var buf [8]byte
	put := func(v uint64) {
		for i := range buf {
			buf[i] = byte(v >> (8 * i))
		}
		h.Write(buf[:])
	}
	for _, r := range rows {
		put(r.e)
		for _, f := range [...]float64{r.p[0], r.p[1], r.v[0], r.v[1]} {
			put(math.Float64bits(f))
		}
	}
	put(uint64(len(rows)))
	return h.Sum64()
}

// Every kind of plain field counts; fields outside the value are refused.
func TestHashFields(t *testing.T) {
	type plain struct {
		B  bool
		I8 int8
		U  uint16
		F  float32
		C  complex128
		S  string
		A  [2]int
		E  Entity
	}
	type opaque struct {
		N  int
		Xs []int
	}
	w := NewWorld(Options{})
	pc, oc := NewComponent[plain](w), NewComponent[opaque](w)
	b := w.NewCommands()
	ph := b.Spawn()
	pc.Add(b, ph, plain{S: "a"})
	oc.Add(b, ph, opaque{})
	_, err := w.Apply(b)
	require.NoError(t, err)
	all, err := w.Entities()
	require.NoError(t, err)
	var e Entity
	for e = range all {
	}
	h0, err := w.Hash(pc)
	require.NoError(t, err)
	for i, v := range []plain{{B: true}, {I8: -1}, {U: 1}, {F: 1}, {C: 1i}, {S: "b"}, {S: "ab"}, {A: [2]int{0, 1}}, {E: e}} {
		if v.S == "" {
			v.S = "a"
		}
		pc.Set(b, e, v)
		r, err := w.Apply(b)
		require.NoError(t, err)
		require.Empty(t, r.Problems)
		h, err := w.Hash(pc)
		require.NoError(t, err)
		assert.NotEqual(t, h0, h, "field %d", i)
	}
	_, err = w.Hash(pc, oc)
	assert.ErrorIs(t, err, ErrBadArgument)
	assert.EqualError(t, err, "ecs: WEFT-E007: World.Hash cannot hash opaque: its field opaque.Xs (slice) refers to memory outside the component; hash the components that hold plain data")
}
