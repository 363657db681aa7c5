package interact

import (
	"fmt"
	"math/rand/v2"

	"github.com/weft-engine/weft/ecs"
)

// Action is one thing the owner does between steps, recorded by a replay
// as plain data. It picks entities by their place in the order of ids, so
// that it does the same in every run that reached the same world.
type Action struct {
	Op   Op
	K, J int64
}

// Op is what an Action does.
type Op uint8

// The owner's actions.
const (
	OpSpawn   Op = iota // a buffer spawning a parent and a child, through placeholders
	OpDespawn           // despawn the K-th entity with a Val
	OpEnable            // switch Mark of the K-th marked entity on (J even) or off
	OpTarget            // SetTarget: the K-th follows the J-th
	OpRelate            // a buffer relating the K-th to the J-th as its parent
	numOps
)

func (a Action) String() string {
	return fmt.Sprintf("%s(%d, %d)", [...]string{"spawn", "despawn", "enable", "target", "relate"}[a.Op], a.K, a.J)
}

// knobAt is the value the owner gives Knob before step t.
func knobAt(seed uint64, t int) int64 {
	return int64(rand.New(rand.NewPCG(seed, uint64(t)<<8|2)).IntN(4))
}

// actionsAt are the owner's actions before step t.
func actionsAt(seed uint64, t int) []Action {
	r := rand.New(rand.NewPCG(seed, uint64(t)<<8|3))
	var out []Action
	for range r.IntN(4) {
		out = append(out, Action{Op: Op(r.IntN(int(numOps))), K: int64(r.IntN(1 << 20)), J: int64(r.IntN(1 << 20))})
	}
	return out
}

// apply carries out a, between steps. Executed only by the owner.
func (s *scene) apply(a Action) error {
	c, w := s.c, s.w
	vals := sorted(w, c.val)
	pick := func(ents []ecs.Entity, k int64) ecs.Entity { return ents[k%int64(len(ents))] }
	switch a.Op {
	case OpSpawn:
		b := w.NewCommands()
		parent, kid := b.Spawn(), b.Spawn()
		c.val.Add(b, parent, Val{V: a.K % 1000})
		c.mark.Add(b, parent, Mark{N: int32(a.J % 100)})
		c.life.Add(b, parent, Life{Left: int32(1 + a.J%9)})
		c.val.Add(b, kid, Val{V: a.J % 1000})
		c.ref.Add(b, kid, Ref{To: parent})
		if err := ecs.Relate[ecs.ChildOf](b, kid, parent); err != nil {
			return err
		}
		_, err := w.Apply(b)
		return err
	case OpDespawn:
		if len(vals) == 0 {
			return nil
		}
		b := w.NewCommands()
		b.Despawn(pick(vals, a.K))
		_, err := w.Apply(b)
		return err
	case OpEnable:
		marked := sorted(w, c.mark)
		if len(marked) == 0 {
			return nil
		}
		return ecs.SetEnabled[Mark](w, pick(marked, a.K), a.J%2 == 0)
	case OpTarget:
		if len(vals) == 0 {
			return nil
		}
		err := ecs.SetTarget[Follows](w, pick(vals, a.K), pick(vals, a.J))
		if err != nil && isCode(err, ecs.ErrBadArgument) {
			return nil // a cycle or a self-target is refused, and nothing changes
		}
		return err
	case OpRelate:
		if len(vals) == 0 {
			return nil
		}
		b := w.NewCommands()
		if err := ecs.Relate[ecs.ChildOf](b, pick(vals, a.K), pick(vals, a.J)); err != nil {
			return err
		}
		_, err := w.Apply(b) // a cycle is a skipped command, in the report
		return err
	}
	return fmt.Errorf("no action %d", a.Op)
}
