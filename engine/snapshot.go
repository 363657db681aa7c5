package engine

import "sync/atomic"

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

// Snapshot is what the renderer draws: an immutable draw list and the
// state it was taken at. Do not modify a published Snapshot.
type Snapshot struct {
	Step   uint64
	Time   float64
	Camera Camera
	Items  []Item
}

// snapshots double-buffers Snapshots: the owner builds one while the
// renderer reads the other, and publish swaps them.
type snapshots struct {
	buf   [2]Snapshot
	back  int
	front atomic.Pointer[Snapshot]
}

// begin clears the back buffer for a new step. Executed only by the owner.
func (s *snapshots) begin(step uint64, t float64, cam Camera) *Snapshot {
	b := &s.buf[s.back]
	b.Step, b.Time, b.Camera, b.Items = step, t, cam, b.Items[:0]
	return b
}

// publish makes the back buffer current. Executed only by the owner; the
// atomic store orders the buffer's writes before a reader's load.
func (s *snapshots) publish() {
	s.front.Store(&s.buf[s.back])
	s.back ^= 1
}

// current is the last published snapshot, or an empty one before the
// first step.
func (s *snapshots) current() *Snapshot {
	if p := s.front.Load(); p != nil {
		return p
	}
	return &s.buf[1]
}
