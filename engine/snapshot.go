package engine

// Color is a linear RGBA colour, each channel in [0, 1].
type Color struct{ R, G, B, A float32 }

// Item is one sprite to draw.
type Item struct {
	Entity       uint64 // the entity: Ark ID << 32 | generation
	X, Y         float64
	Extent       float64 // half size at Scale 1, in world units
	Scale        float64
	Rotation     float64 // radians
	Color        Color
	Sheet, Frame int32 // sprite sheet and frame in it
	Layer, Sort  int32 // draw order: layer, then sort key, then entity
}

// Snapshot is what the renderer draws: a draw list and the state it was
// taken at. Do not modify a published Snapshot; read it on the owner, and
// copy what must outlive the next step (see Engine.Snapshot).
type Snapshot struct {
	Step   uint64
	Time   float64
	Camera Camera
	Items  []Item
}

// snapshots double-buffers Snapshots, so that the published one stays
// whole while a step builds the other: Merge (and an Engine.Snapshot call
// inside a step) sees the last published snapshot unchanged. It is not a
// hand-off to another goroutine: Step may run several steps in one call,
// and each builds into the buffer published two steps before, so a
// published snapshot lives until the step after next begins. Every method
// is executed only by the owner.
type snapshots struct {
	buf   [2]Snapshot
	back  int       // the buffer the step builds
	front *Snapshot // the last published buffer; nil before the first step
}

// begin clears the back buffer for a new step.
func (s *snapshots) begin(step uint64, t float64, cam Camera) *Snapshot {
	b := &s.buf[s.back]
	b.Step, b.Time, b.Camera, b.Items = step, t, cam, b.Items[:0]
	return b
}

// publish makes the back buffer current.
func (s *snapshots) publish() {
	s.front = &s.buf[s.back]
	s.back ^= 1
}

// current is the last published snapshot, or an empty one before the
// first step.
func (s *snapshots) current() *Snapshot {
	if s.front != nil {
		return s.front
	}
	return &s.buf[1]
}
