// Package physics integrates velocities with gravity and damping, bounces bodies off the world bounds and resolves circle collisions through a spatial hash grid built in parallel.
package physics

import (
	"math"
	"math/bits"
	"slices"
	"sync/atomic"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// Config sets the physics. Zero fields take the defaults.
type Config struct {
	Gravity   float64 // downwards acceleration, world units/s² (0: none)
	Damping   float64 // share of velocity lost per second (0: none)
	Stiffness float64 // push-apart per unit of overlap, 1/s (default 40)
	CellSize  float64 // grid cell; at least twice the largest radius (default 8)
	// The world bounds bodies bounce off.
	MinX, MinY, MaxX, MaxY float64
}

// System is the physics system. Each step it runs, one after another:
//
//	grid     per chunk: snapshot positions, find each body's cell, count per bucket
//	sums     per block of buckets: the block's count
//	offsets  per block: bucket starts (prefix sums); buckets become cursors
//	scatter  per chunk: copy each body's snapshot into its bucket
//	sort     per block: sort each bucket by slot
//	respond  per range of the bucket order: each body's push from its neighbours
//	apply    per chunk: add the push, integrate, bounce
//
// Responses are computed in bucket order, where neighbours sit close in
// memory; each reads only the snapshot (the previous positions), visits
// neighbours in a fixed order (row, column, slot) and writes only its own
// entry, and apply writes only its chunk's rows: the result is the same
// for every worker count and batch size.
type System struct {
	cfg  Config
	pos  ecs.Writer[systems.Position]
	vel  ecs.Writer[systems.Velocity]
	body ecs.Reader[systems.Body]
	time ecs.ResReader[engine.Time]

	grid, sums, offsets, scatter, sort, respond, apply *engine.Pass

	batch, blocks int
	wc, hc        int32 // the hash grid is wc × hc buckets, powers of two
	// By slot (chunk·batch + row), written by the slot's chunk.
	bySlot []node
	bucket []int32
	// By bucket.
	count    []atomic.Int32 // counts, then cursors while scattering, then 0
	start    []int32        // bucket b is sorted[start[b]:start[b+1]]
	sum      []int32        // per block of buckets
	sorted   []node         // in bucket order, by slot within a bucket
	push     []push         // by slot
	contacts []int32        // per respond range
	dirty    bool           // owner only: a step started whose Merge has not run

	// Contacts is the number of touching pairs (counted from both sides) in
	// the last step.
	Contacts int
}

// node is a body's snapshot: one cache line's share per neighbour test.
type node struct {
	x, y, r float64
	cell    uint64 // pack(cx, cy)
	slot    int32
}

type push struct{ x, y float64 }

const (
	blockSize   = 4096 // buckets per job of sums, offsets and sort
	respondSize = 2048 // bodies per respond job
)

// New makes the physics system.
func New(cfg Config) *System {
	if cfg.Stiffness == 0 {
		cfg.Stiffness = 40
	}
	if cfg.CellSize == 0 {
		cfg.CellSize = 8
	}
	return &System{cfg: cfg}
}

// Name is "physics".
func (s *System) Name() string { return "physics" }

// Build declares what physics reads and writes and makes its passes.
func (s *System) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.vel, s.body = ecs.Write[systems.Position](d), ecs.Write[systems.Velocity](d), ecs.Read[systems.Body](d)
	s.time = ecs.ReadRes[engine.Time](d)
	q := ecs.NewQuery3(d, s.pos, s.vel, s.body)
	s.grid = b.Chunks("grid", q, s.gridChunk)
	s.sums = b.Range("sums", s.sumBlocks)
	s.offsets = b.Range("offsets", s.offsetBlocks)
	s.scatter = b.Chunks("scatter", q, s.scatterChunk)
	s.sort = b.Range("sort", s.sortBlocks)
	s.respond = b.Range("respond", s.respondRange)
	s.apply = b.Chunks("apply", q, s.applyChunk)
	return nil
}

// Schedule sizes the buffers for this step's chunks and starts the passes.
func (s *System) Schedule(f *engine.Frame) error {
	n, err := f.Prepare(s.grid)
	if err != nil {
		return err
	}
	s.resize(n, f.Batch())
	if s.dirty { // the last step's passes did not all finish: counters may be stale
		for i := range s.count {
			s.count[i].Store(0)
		}
	}
	s.dirty = true // until Merge sees the passes done
	// Each pass starts after the previous one (a system's passes chain).
	err = f.Run(s.grid)
	if err == nil {
		err = f.RunRange(s.sums, s.blocks, 1)
	}
	if err == nil {
		err = f.RunRange(s.offsets, s.blocks, 1)
	}
	if err == nil {
		err = f.Run(s.scatter)
	}
	if err == nil {
		err = f.RunRange(s.sort, s.blocks, 1)
	}
	if err == nil {
		err = f.RunRange(s.respond, len(s.sorted), respondSize)
	}
	if err == nil {
		err = f.Run(s.apply)
	}
	return err
}

// Merge adds up the per-chunk contact counts, in chunk order.
func (s *System) Merge(*engine.Frame) error {
	s.dirty = false
	s.Contacts = 0
	for _, c := range s.contacts {
		s.Contacts += int(c)
	}
	return nil
}

// resize grows the buffers to n chunks of batch slots; it allocates only
// when they grow. Executed only by the owner, before the passes start.
func (s *System) resize(n, batch int) {
	slots := n * batch
	s.batch = batch
	s.bySlot, s.sorted = slices.Grow(s.bySlot[:0], slots)[:slots], slices.Grow(s.sorted[:0], slots)[:slots]
	s.push = slices.Grow(s.push[:0], slots)[:slots]
	s.bucket = slices.Grow(s.bucket[:0], slots)[:slots]
	nr := (slots + respondSize - 1) / respondSize
	s.contacts = slices.Grow(s.contacts[:0], nr)[:nr]
	// About one bucket per slot; the result does not depend on the size.
	side := max(4, 1<<((bits.Len(uint(max(slots, 1)))+1)/2))
	s.wc, s.hc = int32(side), int32(max(4, (slots+side-1)/side))
	s.hc = int32(1) << bits.Len32(uint32(s.hc-1))
	m := int(s.wc * s.hc)
	if len(s.count) != m {
		s.count = make([]atomic.Int32, m) // new counters start at 0
	}
	s.start = slices.Grow(s.start[:0], m+1)[:m+1]
	s.blocks = (m + blockSize - 1) / blockSize
	s.sum = slices.Grow(s.sum[:0], s.blocks)[:s.blocks]
}

func (s *System) cellOf(x, y float64) (int32, int32) {
	return int32(math.Floor(x / s.cfg.CellSize)), int32(math.Floor(y / s.cfg.CellSize))
}

func pack(cx, cy int32) uint64 { return uint64(uint32(cx)) | uint64(uint32(cy))<<32 }

func (s *System) bucketOf(cx, cy int32) int32 { return (cy&(s.hc-1))*s.wc + cx&(s.wc-1) }

// The pass functions below run as jobs, any number at once, each on its
// own chunk or range. Each relies only on the passes before it having
// finished (a system's passes chain) and writes only its own slots,
// buckets or rows; the atomics make the shared bucket counters safe.

func (s *System) gridChunk(c *ecs.Chunk) {
	pos, body := s.pos.Column(c), s.body.Column(c)
	base := c.Index() * s.batch
	for i := range pos {
		k := base + i
		cx, cy := s.cellOf(pos[i].X, pos[i].Y)
		s.bySlot[k] = node{x: pos[i].X, y: pos[i].Y, r: body[i].Radius, cell: pack(cx, cy), slot: int32(k)}
		b := s.bucketOf(cx, cy)
		s.bucket[k] = b
		s.count[b].Add(1)
	}
}

func (s *System) sumBlocks(lo, hi int) {
	for j := lo; j < hi; j++ {
		var t int32
		for b := j * blockSize; b < min((j+1)*blockSize, len(s.count)); b++ {
			t += s.count[b].Load()
		}
		s.sum[j] = t
	}
}

func (s *System) offsetBlocks(lo, hi int) {
	for j := lo; j < hi; j++ {
		var run int32
		for _, t := range s.sum[:j] {
			run += t
		}
		end := min((j+1)*blockSize, len(s.count))
		for b := j * blockSize; b < end; b++ {
			s.start[b] = run
			run += s.count[b].Load()
			s.count[b].Store(s.start[b])
		}
		if end == len(s.count) {
			s.start[end] = run
		}
	}
}

func (s *System) scatterChunk(c *ecs.Chunk) {
	base := c.Index() * s.batch
	for k := base; k < base+c.Len(); k++ {
		s.sorted[s.count[s.bucket[k]].Add(1)-1] = s.bySlot[k]
	}
}

func (s *System) sortBlocks(lo, hi int) {
	for b := lo * blockSize; b < min(hi*blockSize, len(s.count)); b++ {
		o := s.sorted[s.start[b]:s.start[b+1]]
		for i := 1; i < len(o); i++ { // insertion sort: buckets hold a few bodies
			for j := i; j > 0 && o[j].slot < o[j-1].slot; j-- {
				o[j], o[j-1] = o[j-1], o[j]
			}
		}
		s.count[b].Store(0) // ready for the next step's grid
	}
}

// respondRange computes the push of the bodies at [lo, hi) of the bucket
// order (slots past the last body are unused). Per neighbour row, the three
// buckets of columns cx-1..cx+1 are adjacent unless the row wraps, so one
// scan covers them, still in column order.
func (s *System) respondRange(lo, hi int) {
	st, sn := s.start, s.sorted
	hi = min(hi, int(st[len(s.count)]))
	mask := s.wc - 1
	touching := int32(0)
	for j := lo; j < hi; j++ {
		me := &sn[j]
		cx, cy := int32(uint32(me.cell)), int32(uint32(me.cell>>32))
		var ax, ay float64
		for dy := int32(-1); dy <= 1; dy++ {
			row := ((cy + dy) & (s.hc - 1)) * s.wc
			var ranges [3][2]int32
			nr := 0
			if x0 := (cx - 1) & mask; x0+2 <= mask {
				ranges[0] = [2]int32{st[row+x0], st[row+x0+3]}
				nr = 1
			} else {
				for dx := int32(-1); dx <= 1; dx++ {
					b := row + (cx+dx)&mask
					ranges[nr] = [2]int32{st[b], st[b+1]}
					nr++
				}
			}
			for _, rg := range ranges[:nr] {
				for i := rg[0]; i < rg[1]; i++ {
					// Only touching bodies count, and those are in the 3×3
					// cells: bodies of other cells that share a bucket are
					// a grid's height or width away, and each bucket is
					// visited once (the grid is at least 4×4).
					o := &sn[i]
					ox, oy := me.x-o.x, me.y-o.y
					d2, rr := ox*ox+oy*oy, me.r+o.r
					if d2 >= rr*rr || o.slot == me.slot {
						continue
					}
					d := math.Sqrt(d2)
					nx, ny := 1.0, 0.0
					switch {
					case d > 1e-9:
						nx, ny = ox/d, oy/d
					case me.slot > o.slot:
						nx = -1
					}
					ax += nx * (rr - d)
					ay += ny * (rr - d)
					touching++
				}
			}
		}
		s.push[me.slot] = push{ax, ay}
	}
	s.contacts[lo/respondSize] = touching
}

// applyChunk adds each body's push to its velocity, integrates and
// bounces off the bounds, from the snapshot of the body's position.
func (s *System) applyChunk(c *ecs.Chunk) {
	pos, vel, body := s.pos.Column(c), s.vel.Column(c), s.body.Column(c)
	cfg := &s.cfg
	dt := s.time.Get().DT
	keep := max(0, 1-cfg.Damping*dt)
	base := c.Index() * s.batch
	for i := range pos {
		k := base + i
		me, pu := &s.bySlot[k], s.push[k]
		x, y, r, ax, ay := me.x, me.y, me.r, pu.x, pu.y
		v := vel[i]
		v.X = (v.X + ax*cfg.Stiffness*dt) * keep
		v.Y = (v.Y + (ay*cfg.Stiffness+cfg.Gravity)*dt) * keep
		p := systems.Position{X: x + ax*0.5 + v.X*dt, Y: y + ay*0.5 + v.Y*dt}
		bounce(&p.X, &v.X, r, cfg.MinX, cfg.MaxX, body[i].Restitution)
		bounce(&p.Y, &v.Y, r, cfg.MinY, cfg.MaxY, body[i].Restitution)
		pos[i], vel[i] = p, v
	}
}

// bounce keeps a coordinate of a body of radius r inside [lo, hi].
func bounce(p, v *float64, r, lo, hi, keep float64) {
	if hi <= lo {
		return
	}
	if *p < lo+r {
		*p = lo + r
		if *v < 0 {
			*v = -*v * keep
		}
	}
	if *p > hi-r {
		*p = hi - r
		if *v > 0 {
			*v = -*v * keep
		}
	}
}
