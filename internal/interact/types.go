package interact

import (
	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// The scene's components, events, resources and state. All are plain
// integers, so every sum is exact and every run can be compared bit for
// bit.
type (
	// Val is the value most parts read and some write.
	Val struct{ V int64 }
	// Acc collects what lookups, enabled rows and watchers add.
	Acc struct{ V int64 }
	// Heat is written sparsely, for Changed and Added filters.
	Heat struct{ V int64 }
	// Life counts down; at 0 the entity is despawned, with its children.
	Life struct{ Left int32 }
	// Mark is enableable: switched on and off by jobs, commands and the owner.
	Mark struct{ N int32 }
	// Ref names another entity: a lookup's target, a placeholder's resolution.
	Ref struct{ To ecs.Entity }
	// Follows is a relation whose followers stay when the target goes.
	Follows struct{}
)

// Events.
type (
	// Ping is emitted by chunk jobs and owners.
	Ping struct {
		V int64
		E ecs.Entity
	}
	// Pong is emitted by the relays of Pings.
	Pong struct{ V int64 }
)

// Resources.
type (
	// Tally folds the events its readers see, in the order they see them.
	Tally struct{ N, H int64 }
	// Seen folds what the observers are called with.
	Seen struct{ N, H int64 }
	// Knob is set by the owner before each step (a tracked resource).
	Knob struct{ V int64 }
)

// Mode is the scene's state.
type Mode uint8

// The modes a game moves through.
const (
	ModeA Mode = iota
	ModeB
	ModeC
	numModes
)

// Scope ties an entity to a mode.
type Scope = engine.Scoped[Mode]

// fold mixes v into h, order-sensitively.
func fold(h, v int64) int64 { return h*1_000_003 + v }
