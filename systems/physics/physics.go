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
//	grid     per chunk: snapshot positions, find each body's bucket, count per bucket
//	sums     per block of buckets: the block's count
//	offsets  per block: bucket starts (prefix sums)
//	scatter  per chunk: copy each body's snapshot to its place in its bucket
//	respond  per range of buckets: each body's push from its neighbours
//	apply    per chunk: add the push, integrate, bounce
//
// Responses are computed bucket by bucket, where neighbours sit close in
// memory; each reads only the snapshot (the previous positions) and writes
// only its own entry, and apply writes only its chunk's rows. A body's
// place in its bucket is the count grid's atomic increment returned, which
// depends on which job came first; but a push is summed in fixed point,
// where addition is associative, so the order within a bucket does not
// matter: the result is the same for every worker count and batch size.
type System struct {
	cfg  Config
	pos  ecs.Writer[systems.Position]
	vel  ecs.Writer[systems.Velocity]
	body ecs.Reader[systems.Body]
	time ecs.ResReader[engine.Time]

	grid, sums, offsets, scatter, respond, apply *engine.Pass

	batch, blocks int
	layout        layout
	// By slot (chunk·batch + row), written by the slot's chunk.
	bySlot []node
	bucket []int32
	rank   []int32 // place in the bucket
	push   []push
	// By bucket.
	// Bodies per bucket; 0 between steps. grid adds atomically; the later
	// passes run alone on their buckets, ordered by the pass chain, and use
	// plain loads and stores, which cost far less than locked ones.
	count    []int32
	start    []int32 // bucket b is sorted[start[b]:start[b+1]]
	sum      []int32 // per block of buckets
	sorted   []node  // in bucket order
	contacts []int32 // per respond range
	dirty    bool    // owner only: a step started whose Merge has not run

	// Contacts is the number of touching pairs (counted from both sides) in
	// the last step.
	Contacts int
}

// node is a body's snapshot, small so that a neighbour scan reads little.
type node struct {
	x, y float64
	r    float32
	slot int32
}

// push is a body's summed push in fixed point (see fixed).
type push struct{ x, y int64 }

// fixed is the scale of a push's fixed point: 2⁻³² world units, far below
// what a frame can show, with room for thousands of overlaps in an int64.
const fixed = 1 << 32

const (
	blockSize   = 4096 // buckets per job of sums and offsets
	respondSize = 2048 // buckets per respond job
)

// layout maps cells to buckets, row-major, with a one-bucket empty border
// so that the 3×3 buckets around any body's bucket exist. In a bounded
// world of not too many cells each cell has its own bucket (cells beyond
// the bounds clamp onto the edge, which keeps neighbours neighbours);
// otherwise cells wrap onto a grid of about one bucket per body, where far
// cells share buckets and distance tests tell them apart.
type layout struct {
	wrap       bool
	minX, minY float64 // bounded: the world's corner
	cw, ch     int32   // cells across and down (wrap: powers of two)
	inv        float64 // 1 / cell size
}

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
		clear(s.count)
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
		err = f.RunRange(s.respond, len(s.count), respondSize)
	}
	if err == nil {
		err = f.Run(s.apply)
	}
	return err
}

// Merge adds up the per-range contact counts, in range order.
func (s *System) Merge(*engine.Frame) error {
	s.dirty = false
	s.Contacts = 0
	for _, c := range s.contacts {
		s.Contacts += int(c)
	}
	return nil
}

// resize grows the buffers to n chunks of batch slots and lays out the
// buckets; it allocates only when they grow. Executed only by the owner,
// before the passes start.
func (s *System) resize(n, batch int) {
	slots := n * batch
	s.batch = batch
	s.bySlot, s.sorted = slices.Grow(s.bySlot[:0], slots)[:slots], slices.Grow(s.sorted[:0], slots)[:slots]
	s.push = slices.Grow(s.push[:0], slots)[:slots]
	s.bucket = slices.Grow(s.bucket[:0], slots)[:slots]
	s.rank = slices.Grow(s.rank[:0], slots)[:slots]
	s.layout = layoutFor(&s.cfg, slots)
	m := int(s.layout.cw+2) * int(s.layout.ch+2)
	if len(s.count) != m {
		s.count = make([]int32, m) // new counters start at 0
	}
	s.start = slices.Grow(s.start[:0], m+1)[:m+1]
	s.blocks = (m + blockSize - 1) / blockSize
	s.sum = slices.Grow(s.sum[:0], s.blocks)[:s.blocks]
	nr := (m + respondSize - 1) / respondSize
	s.contacts = slices.Grow(s.contacts[:0], nr)[:nr]
}

// layoutFor picks the bucket layout for slots bodies: one bucket per cell
// of the bounds if that is at most four buckets a body, else a wrapping
// grid of about one bucket a body. The result does not depend on it.
func layoutFor(cfg *Config, slots int) layout {
	l := layout{inv: 1 / cfg.CellSize}
	if cfg.MaxX > cfg.MinX && cfg.MaxY > cfg.MinY {
		cw, ch := math.Floor((cfg.MaxX-cfg.MinX)*l.inv)+1, math.Floor((cfg.MaxY-cfg.MinY)*l.inv)+1
		if cw*ch <= 4*float64(max(slots, 1024)) {
			l.minX, l.minY, l.cw, l.ch = cfg.MinX, cfg.MinY, int32(cw), int32(ch)
			return l
		}
	}
	side := max(4, 1<<((bits.Len(uint(max(slots, 1)))+1)/2))
	l.wrap, l.cw = true, int32(side)
	l.ch = int32(1) << bits.Len32(uint32(max(4, (slots+side-1)/side)-1))
	return l
}

// bucketOf is the bucket of the cell at (x, y): its row and column in the
// bucket grid, border included.
func (l *layout) bucketOf(x, y float64) int32 {
	cx, cy := int32(math.Floor((x-l.minX)*l.inv)), int32(math.Floor((y-l.minY)*l.inv))
	if l.wrap {
		cx, cy = cx&(l.cw-1), cy&(l.ch-1)
	} else {
		cx, cy = min(max(cx, 0), l.cw-1), min(max(cy, 0), l.ch-1)
	}
	return (cy+1)*(l.cw+2) + cx + 1
}

// The pass functions below run as jobs, any number at once, each on its
// own chunk or range. Each relies only on the passes before it having
// finished (a system's passes chain) and writes only its own slots,
// buckets or rows; the atomics make the shared bucket counters safe.

func (s *System) gridChunk(c *ecs.Chunk) {
	pos, body := s.pos.Column(c), s.body.Column(c)
	base := c.Index() * s.batch
	for i := range pos {
		k := base + i
		x, y := pos[i].X, pos[i].Y
		s.bySlot[k] = node{x: x, y: y, r: float32(body[i].Radius), slot: int32(k)}
		b := s.layout.bucketOf(x, y)
		s.bucket[k], s.rank[k] = b, atomic.AddInt32(&s.count[b], 1)-1
	}
}

func (s *System) sumBlocks(lo, hi int) {
	for j := lo; j < hi; j++ {
		var t int32
		for b := j * blockSize; b < min((j+1)*blockSize, len(s.count)); b++ {
			t += s.count[b]
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
			run += s.count[b]
		}
		if end == len(s.count) {
			s.start[end] = run
		}
	}
}

func (s *System) scatterChunk(c *ecs.Chunk) {
	base := c.Index() * s.batch
	for k := base; k < base+c.Len(); k++ {
		s.sorted[s.start[s.bucket[k]]+s.rank[k]] = s.bySlot[k]
	}
}

// respondRange computes the push of the bodies in buckets [lo, hi) and
// resets their counters for the next step. A bucket's neighbours are the
// 3×3 buckets around it; in each of their rows the three are adjacent in
// bucket order unless the grid wraps there, so a row is one scan or two.
func (s *System) respondRange(lo, hi int) {
	st, sn, l := s.start, s.sorted, &s.layout
	w := l.cw + 2
	touching := int32(0)
	for b := int32(lo); b < int32(hi); b++ {
		s.count[b] = 0
		if st[b] == st[b+1] {
			continue
		}
		var spans [6][2]int32
		ns := 0
		row, col := b/w, b%w
		for dy := int32(-1); dy <= 1; dy++ {
			r := row + dy
			if l.wrap { // rows and columns 1..cw wrap; 0 and cw+1 stay empty
				r = (r-1)&(l.ch-1) + 1
			}
			first := r*w + col - 1
			switch {
			case !l.wrap || (col > 1 && col < l.cw):
				spans[ns] = [2]int32{st[first], st[first+3]}
				ns++
			case col == 1: // the left neighbour is the row's last column
				spans[ns], spans[ns+1] = [2]int32{st[r*w+l.cw], st[r*w+l.cw+1]}, [2]int32{st[first+1], st[first+3]}
				ns += 2
			default: // col == cw: the right neighbour is the row's first
				spans[ns], spans[ns+1] = [2]int32{st[first], st[first+2]}, [2]int32{st[r*w+1], st[r*w+2]}
				ns += 2
			}
		}
		// Touching bodies are in the 3×3 cells; bodies of far cells that
		// share a bucket fail the distance test, and each bucket is
		// scanned once (the wrapping grid is at least 4×4).
		for j := st[b]; j < st[b+1]; j++ {
			me := &sn[j]
			ax, ay, n := pushOf(me, sn, spans[:ns])
			s.push[me.slot] = push{ax, ay}
			touching += n
		}
	}
	s.contacts[lo/respondSize] = touching
}

// pushOf sums, in fixed point, the pushes on me from the bodies of sn in
// spans that touch it: their overlap along the line between the centres
// (along x, away from the lower slot, where two coincide).
func pushOf(me *node, sn []node, spans [][2]int32) (ax, ay int64, touching int32) {
	for _, sp := range spans {
		for k := range sn[sp[0]:sp[1]] {
			o := &sn[sp[0]+int32(k)]
			ox, oy := me.x-o.x, me.y-o.y
			d2, rr := ox*ox+oy*oy, float64(me.r+o.r)
			if d2 >= rr*rr || o == me {
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
			ax += int64(nx * (rr - d) * fixed)
			ay += int64(ny * (rr - d) * fixed)
			touching++
		}
	}
	return ax, ay, touching
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
		x, y, r := me.x, me.y, body[i].Radius
		ax, ay := float64(pu.x)/fixed, float64(pu.y)/fixed
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
