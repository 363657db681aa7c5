package replay

import (
	"cmp"

	"github.com/weft-engine/weft/ecs"
)

// Find plays rec into a and b side by side, every written row kept
// (ecs.DigestCapture, slow), and returns where they first differ: the
// step, the first system, in the order the systems ran, whose writes differ, and the
// first entity and component it wrote differently, with a's value as
// Want and b's as Got. It returns nil if they agree on every step. Make
// a and b as the recording's game, with the worker counts and batch sizes
// to compare (the serial executor is the oracle); the recording's own
// hashes are not consulted, so a recording that Verify found diverging
// can be played into the oracle and the configuration that diverged.
func Find(rec *Recording, a, b Sim) (*Divergence, error) {
	pa, err := NewPlayer(rec, a)
	if err != nil {
		return nil, err
	}
	pb, err := NewPlayer(rec, b)
	if err != nil {
		return nil, err
	}
	for _, s := range []Sim{a, b} {
		if err := s.Engine().SetDigests(ecs.DigestCapture); err != nil {
			return nil, errorf(ErrMisuse, err, "Find during a step")
		}
	}
	for !pa.Done() {
		ha, _, err := pa.play()
		if err != nil {
			return nil, err
		}
		hb, _, err := pb.play()
		if err != nil {
			return nil, err
		}
		if d := differ(a, b, ha, hb); d != nil {
			d.Step = uint64(pa.next)
			return d, nil
		}
	}
	return nil, nil
}

// differ compares the step a and b just ran: digests in the order the systems ran, then
// the first differing system's rows; nil if they agree.
func differ(a, b Sim, ha, hb uint64) *Divergence {
	d := &Divergence{WantHash: ha, GotHash: hb}
	da, db := a.Engine().Digests(), b.Engine().Digests()
	for i := range min(len(da), len(db)) {
		if da[i].Sum != db[i].Sum {
			d.System = da[i].System
			firstRow(d, a.Engine().Written(d.System), b.Engine().Written(d.System))
			return d
		}
	}
	if ha != hb {
		return d
	}
	return nil
}

// firstRow sets d's entity, component and values from the first row, in
// (entity, component) order, that differs between wa and wb (each sorted
// so).
func firstRow(d *Divergence, wa, wb []ecs.Written) {
	i, j := 0, 0
	for i < len(wa) || j < len(wb) {
		c := 0
		switch {
		case i == len(wa):
			c = 1
		case j == len(wb):
			c = -1
		default:
			c = compareRows(&wa[i], &wb[j])
		}
		switch {
		case c < 0:
			d.Entity, d.Component, d.Want = wa[i].Entity, wa[i].Component, wa[i].Value
			return
		case c > 0:
			d.Entity, d.Component, d.Got = wb[j].Entity, wb[j].Component, wb[j].Value
			return
		case wa[i].Sum != wb[j].Sum:
			d.Entity, d.Component, d.Want, d.Got = wa[i].Entity, wa[i].Component, wa[i].Value, wb[j].Value
			return
		}
		i, j = i+1, j+1
	}
}

func compareRows(a, b *ecs.Written) int {
	if c := cmp.Compare(a.Entity.ID(), b.Entity.ID()); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Entity.Gen(), b.Entity.Gen()); c != 0 {
		return c
	}
	return cmp.Compare(a.Component, b.Component)
}
