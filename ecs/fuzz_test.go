package ecs

import (
	"testing"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/internal/fault"
)

// model is the reference semantics of playback: one entity per identity.
type modelEntity struct {
	alive bool
	pos   *pos
	hp    *health
	ref   ark.Entity // the real entity, or a placeholder until its buffer plays
	round int
	spawn int // its spawn number in its round, -1 for real ones
}

// FuzzCommands plays random command streams, including commands on dead
// entities and missing components, over a few buffers, and compares the
// world with a simple model.
func FuzzCommands(f *testing.F) {
	f.Add([]byte{0, 3, 1, 0, 2, 0, 5, 1, 1, 0, 1, 0, 2, 1, 7})
	f.Add([]byte{0, 1, 0, 2, 6, 0, 6, 0, 1, 1, 4, 0, 9, 255, 0, 0, 7, 7, 3, 2, 1})
	f.Add([]byte{0, 3, 0, 3, 0, 3, 1, 1, 1, 1, 2, 2, 9, 9, 9, 0, 0, 3, 4, 2, 5, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		w := NewWorld(Options{})
		pc, hc := NewComponent[pos](w), NewComponent[health](w)
		sp := NewSpawner2[pos, health](w)
		var ms []*modelEntity
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		for round := 0; len(data) > 0 && round < 8; round++ {
			b := w.NewCommands()
			problems, unresolved, spawns := 0, 0, 0
			target := func() *modelEntity {
				if len(ms) == 0 {
					return nil
				}
				return ms[int(next())%len(ms)]
			}
			for n := 0; len(data) > 0 && n < 64; n++ {
				op := next() % 10
				if op == 9 { // end of this buffer
					break
				}
				if op == 0 {
					m := &modelEntity{alive: true, ref: b.Spawn(), round: round, spawn: spawns}
					spawns++
					ms = append(ms, m)
					switch k := next(); k % 3 {
					case 1:
						v := pos{X: float64(k)}
						pc.Add(b, m.ref, v)
						m.pos = &v
					case 2: // through a Spawner, which replaces the plain spawn
						v, h := pos{X: float64(k)}, health{HP: int(k)}
						b.cmds = b.cmds[:len(b.cmds)-1]
						b.spawns--
						m.ref = sp.Spawn(b, v, h)
						m.pos, m.hp = &v, &h
					}
					continue
				}
				m := target()
				if m == nil {
					continue
				}
				val := int(next())
				switch op {
				case 1:
					b.Despawn(m.ref)
				case 2:
					pc.Add(b, m.ref, pos{X: float64(val)})
				case 3:
					hc.Add(b, m.ref, health{HP: val})
				case 4:
					pc.Set(b, m.ref, pos{Y: float64(val)})
				case 5:
					hc.Set(b, m.ref, health{HP: -val})
				case 6:
					pc.Remove(b, m.ref)
				case 7:
					hc.Remove(b, m.ref)
				case 8: // a placeholder of another buffer does not resolve: skipped, and Apply's error (WEFT-E010)
					b.Despawn(placeholder(b.tag^1, 0))
					problems++
					unresolved++
					continue
				}
				// The model applies the command as playback will.
				ok := m.alive && (m.spawn < 0 || m.round == round)
				if !ok {
					problems++
					continue
				}
				switch op {
				case 1:
					m.alive = false
				case 2:
					v := pos{X: float64(val)}
					m.pos = &v
				case 3:
					v := health{HP: val}
					m.hp = &v
				case 4:
					if m.pos == nil {
						problems++
					} else {
						v := pos{Y: float64(val)}
						m.pos = &v
					}
				case 5:
					if m.hp == nil {
						problems++
					} else {
						v := health{HP: -val}
						m.hp = &v
					}
				case 6:
					if m.pos == nil {
						problems++
					}
					m.pos = nil
				case 7:
					if m.hp == nil {
						problems++
					}
					m.hp = nil
				}
			}
			total := b.Len()
			r, err := w.Apply(b)
			if unresolved > 0 {
				require.ErrorIs(t, err, ErrUnresolved)
			} else {
				require.NoError(t, err)
			}
			require.Len(t, r.Problems, problems)
			codes := map[fault.Code]int{}
			for _, p := range r.Problems {
				codes[p.Code]++
			}
			require.Equal(t, problems-unresolved, codes[ErrBadCommand])
			require.Equal(t, unresolved, codes[ErrUnresolved])
			require.Equal(t, total-problems, r.Applied)
			for _, m := range ms {
				if m.spawn >= 0 && m.round == round {
					m.ref, m.spawn = w.pb.spawned[m.spawn], -1
				}
			}
			pm, hm := ark.NewMap[pos](w.ark), ark.NewMap[health](w.ark)
			alive := 0
			for i, m := range ms {
				require.Equal(t, m.alive, w.ark.Alive(m.ref), "entity %d", i)
				if !m.alive {
					continue
				}
				alive++
				require.Equal(t, m.pos, pm.Get(m.ref), "entity %d", i)
				require.Equal(t, m.hp, hm.Get(m.ref), "entity %d", i)
			}
			q := w.all.Query()
			require.Equal(t, alive, q.Count())
			q.Close()
		}
	})
}
