package ecs

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"
	"github.com/weft-engine/weft/jobs"
	"github.com/weft-engine/weft/safety"
)

type pos struct{ X, Y float64 }
type vel struct{ DX, DY float64 }
type health struct{ HP int }
type tag struct{}

// scene is a world with n entities over three tables, the same for the
// same n, and two systems: integrate (writes pos, reads vel) and damage
// (writes health, reads pos).
type scene struct {
	w         *World
	posC      Component[pos]
	velC      Component[vel]
	hpC       Component[health]
	tagC      Component[tag]
	integrate *Decl
	damage    *Decl
	ipos      Writer[pos]
	ivel      Reader[vel]
	dpos      Reader[pos]
	dhp       Writer[health]
	qi        *Query2[pos, vel]
	qd        *Query2[health, pos]
	bodyI     jobs.Func
	bodyD     jobs.Func
}

func newScene(t testing.TB, n int, opts Options) *scene {
	s := &scene{w: NewWorld(opts)}
	w := s.w
	s.posC, s.velC, s.hpC, s.tagC = NewComponent[pos](w), NewComponent[vel](w), NewComponent[health](w), NewComponent[tag](w)
	b := w.NewCommands()
	for i := range n {
		e := b.Spawn()
		s.posC.Add(b, e, pos{X: float64(i)})
		s.velC.Add(b, e, vel{DX: float64(i%7) - 3, DY: 1})
		switch i % 3 {
		case 1:
			s.tagC.Add(b, e, tag{})
		case 2:
			s.hpC.Add(b, e, health{HP: 100})
		}
	}
	r, err := w.Apply(b)
	require.NoError(t, err)
	require.Empty(t, r.Problems)

	s.integrate = w.System("integrate")
	s.ipos, s.ivel = Write[pos](s.integrate), Read[vel](s.integrate)
	s.qi = NewQuery2(s.integrate, s.ipos, s.ivel)
	s.bodyI = s.qi.Job(func(c *Chunk) {
		p, v := s.ipos.Column(c), s.ivel.Column(c)
		for i := range p {
			p[i].X += v[i].DX * 0.5
			p[i].Y += v[i].DY * 0.5
		}
	})
	s.damage = w.System("damage")
	s.dhp, s.dpos = Write[health](s.damage), Read[pos](s.damage)
	s.qd = NewQuery2(s.damage, s.dhp, s.dpos)
	s.bodyD = s.qd.Job(func(c *Chunk) {
		h, p := s.dhp.Column(c), s.dpos.Column(c)
		for i := range h {
			if p[i].X > 50 {
				h[i].HP--
			}
		}
	})
	require.NoError(t, s.integrate.Err())
	require.NoError(t, s.damage.Err())
	return s
}

// frame runs both systems chunk-parallel through a tracker.
func (s *scene) frame(t testing.TB, pool *jobs.Pool, tr *safety.Tracker, batch int) {
	require.NoError(t, s.w.BeginFrame())
	n, err := s.qi.Prepare(batch)
	require.NoError(t, err)
	h1, err := tr.ParallelFor(jobs.Job{Label: jobs.Label{Name: "integrate"}, Run: s.bodyI}, &s.integrate.access, n, 1)
	require.NoError(t, err)
	n, err = s.qd.Prepare(batch)
	require.NoError(t, err)
	h2, err := tr.ParallelFor(jobs.Job{Label: jobs.Label{Name: "damage"}, Run: s.bodyD}, &s.damage.access, n, 1)
	require.NoError(t, err)
	all, err := pool.Combine(h1, h2)
	require.NoError(t, err)
	require.NoError(t, pool.Wait(all))
	_, err = s.w.EndFrame()
	require.NoError(t, err)
	require.NoError(t, pool.Reset())
	tr.Reset()
}

// dump is a canonical text of every entity and its components.
func dump(w *World) string {
	type row struct {
		e ark.Entity
		s string
	}
	var rows []row
	q := ark.NewFilter0(w.ark).Query()
	pm, vm, hm, tm := ark.NewMap[pos](w.ark), ark.NewMap[vel](w.ark), ark.NewMap[health](w.ark), ark.NewMap[tag](w.ark)
	for q.Next() {
		e := q.Entity()
		s := fmt.Sprint(e)
		if p := pm.Get(e); p != nil {
			s += fmt.Sprintf(" pos%v", *p)
		}
		if v := vm.Get(e); v != nil {
			s += fmt.Sprintf(" vel%v", *v)
		}
		if h := hm.Get(e); h != nil {
			s += fmt.Sprintf(" hp%v", *h)
		}
		if tm.Has(e) {
			s += " tag"
		}
		rows = append(rows, row{e, s})
	}
	slices.SortFunc(rows, func(a, b row) int { return int(a.e.ID()) - int(b.e.ID()) })
	var out strings.Builder
	for _, r := range rows {
		out.WriteString(r.s + "\n")
	}
	return out.String()
}

func newPool(t testing.TB, workers int) *jobs.Pool {
	p, err := jobs.New(jobs.Options{Workers: workers})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}
