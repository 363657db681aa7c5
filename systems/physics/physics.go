// Package physics integrates velocities with gravity and damping, bounces bodies off the world bounds and resolves circle collisions through a spatial hash grid built in parallel.
package physics

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// Config sets the physics. Zero fields take the defaults.
type Config struct {
	Gravity   float64 // downwards acceleration, world units/s² (0: none)
	Damping   float64 // share of velocity lost per second (0: none)
	Stiffness float64 // push-apart per unit of overlap, 1/s (default 40)
	CellSize  float64 // grid cell; at least twice the largest radius, or Merge reports the bodies (default 8)
	// The world bounds bodies bounce off.
	MinX, MinY, MaxX, MaxY float64
}

// System is the physics system. Each step it runs, one after another:
//
//	grid     per chunk: snapshot positions, find each body's bucket, count per bucket
//	sums     per block of buckets: the block's count
//	offsets  per block: bucket starts (prefix sums)
//	scatter  per chunk: copy each body's snapshot to its place in its bucket
//	respond  per range of odd bucket rows, then of even rows: push touching pairs apart
//	apply    per chunk: add the push, integrate, bounce
//
// Bodies sit in bucket order, where neighbours are close in memory. A
// bucket row finds each touching pair once, against its own row and the
// next, and adds the pair's push to both bodies: rows of one parity write
// disjoint rows, so respond runs in two passes with plain stores. Every
// push reads only the snapshot (the previous positions), and is summed in
// fixed point, where addition is associative: neither the order of a
// bucket (which job counted first) nor which job added a push changes a
// bit, so the result is the same for every worker count and batch size.
// That holds while no radius exceeds half of Config.CellSize, as Config
// asks: beyond it, touching pairs more than a cell apart are missed, and
// Merge returns an error that counts the bodies.
type System struct {
	cfg  Config
	pos  ecs.Writer[systems.Position]
	vel  ecs.Writer[systems.Velocity]
	body ecs.Reader[systems.Body]
	time ecs.ResReader[engine.Time]

	q                                                            engine.Query
	grid, sums, offsets, scatter, respondOdd, respondEven, apply *engine.Pass

	batch, blocks, rowsPerJob int
	oddJobs                   int // respond jobs over the odd rows: the even rows' contacts follow theirs
	layout                    layout
	// By slot (chunk·batch + row), written by the slot's chunk.
	bySlot []node
	bucket []int32
	who    []uint16 // the participant that counted the slot
	place  []int32  // grid: rank among who's bodies of the bucket; scatter on: index in sorted
	// By bucket. counts has one row per participant, so grid needs no
	// atomics; offsets turns counts into where each participant's share of
	// the bucket starts, and respond zeroes them for the next step.
	counts [][]int32
	start  []int32 // bucket b is sorted[start[b]:start[b+1]]
	sum    []int32 // per block of buckets
	// In bucket order.
	sorted   []node
	acc      []push
	contacts []int32 // per respond range, odd rows' first
	oversize []int32 // per participant: bodies whose radius exceeds half a cell
	dirty    bool    // owner only: a step started whose Merge has not run

	// Contacts is the number of touching pairs (counted from both sides) in
	// the last step.
	Contacts int
}

// node is a body's snapshot for the neighbour scan, small so that a scan
// reads little (24 bytes a body). Positions stay float64: float32 would
// lose the contacts of small bodies far from the origin (its spacing is
// 1/16 at a million).
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
	blockSize = 4096 // buckets per job of sums and offsets
	jobBodies = 2048 // about this many bodies per respond job
)

// layout maps cells to buckets, row-major, with a one-bucket empty border
// so that the buckets around any body's bucket exist. In a bounded world
// of not too many cells each cell has its own bucket (cells beyond the
// bounds clamp onto the edge, which keeps neighbours neighbours);
// otherwise cells wrap onto a grid of about one bucket per body, where far
// cells share buckets and distance tests tell them apart.
type layout struct {
	wrap       bool
	minX, minY float64 // bounded: the world's corner
	cw, ch     int32   // cells across and down (wrap: powers of two, at least 4)
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
	s.q = q
	s.grid = b.Chunks("grid", q, s.gridChunk)
	s.sums = b.Range("sums", s.sumBlocks)
	s.offsets = b.Range("offsets", s.offsetBlocks)
	s.scatter = b.Chunks("scatter", q, s.scatterChunk)
	s.respondOdd = b.Range("respond-odd", func(lo, hi int) { s.respondRows(1, lo, hi) })
	s.respondEven = b.Range("respond-even", func(lo, hi int) { s.respondRows(2, lo, hi) })
	s.apply = b.Chunks("apply", q, s.applyChunk)
	return nil
}

// Schedule sizes the buffers for this step's chunks and starts the passes.
func (s *System) Schedule(f *engine.Frame) error {
	n, err := f.Prepare(s.grid)
	if err != nil {
		return err
	}
	s.resize(n, f.Batch(), f.Participants())
	if s.dirty { // the last step's passes did not all finish: counters may be stale
		for _, c := range s.counts {
			clear(c)
		}
	}
	s.dirty = true // until Merge sees the passes done
	odd, even := s.rows(1), s.rows(2)
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
		err = f.RunRange(s.respondOdd, odd, s.rowsPerJob)
	}
	if err == nil {
		err = f.RunRange(s.respondEven, even, s.rowsPerJob)
	}
	if err == nil {
		err = f.Run(s.apply)
	}
	return err
}

// Merge adds up the per-range contact counts, in range order, and refuses
// bodies too large for the grid: their touching pairs more than a cell
// apart would be missed.
func (s *System) Merge(*engine.Frame) error {
	s.dirty = false
	s.Contacts = 0
	for _, c := range s.contacts {
		s.Contacts += int(c)
	}
	n := 0
	for _, c := range s.oversize {
		n += int(c)
	}
	if n > 0 {
		return fmt.Errorf("a radius above half of Config.CellSize (%g) in %d of the bodies: some of their contacts are missed; make CellSize at least twice the largest radius", s.cfg.CellSize, n)
	}
	return nil
}

// resize grows the buffers to n chunks of batch slots counted by parts
// participants, and lays out the buckets for the bodies of those chunks;
// it allocates only when they grow. The layout depends on the number of
// bodies, not on the batch size. Executed only by the owner, before the
// passes start.
func (s *System) resize(n, batch, parts int) {
	slots, bodies := n*batch, 0
	for i := range n {
		bodies += s.q.ChunkLen(i)
	}
	s.batch = batch
	s.bySlot, s.sorted = slices.Grow(s.bySlot[:0], slots)[:slots], slices.Grow(s.sorted[:0], slots)[:slots]
	s.acc = slices.Grow(s.acc[:0], slots)[:slots]
	s.bucket, s.place = slices.Grow(s.bucket[:0], slots)[:slots], slices.Grow(s.place[:0], slots)[:slots]
	s.who = slices.Grow(s.who[:0], slots)[:slots]
	s.oversize = slices.Grow(s.oversize[:0], parts)[:parts]
	clear(s.oversize)
	s.layout = layoutFor(&s.cfg, bodies)
	m := int(s.layout.cw+2) * int(s.layout.ch+2)
	if len(s.counts) != parts || len(s.counts[0]) != m {
		s.counts = make([][]int32, parts) // new counters start at 0
		for i := range s.counts {
			s.counts[i] = make([]int32, m)
		}
	}
	s.start = slices.Grow(s.start[:0], m+1)[:m+1]
	s.blocks = (m + blockSize - 1) / blockSize
	s.sum = slices.Grow(s.sum[:0], s.blocks)[:s.blocks]
	s.rowsPerJob = max(1, jobBodies*int(s.layout.ch)/max(bodies, 1))
	s.oddJobs = (s.rows(1) + s.rowsPerJob - 1) / s.rowsPerJob
	nr := s.oddJobs + (s.rows(2)+s.rowsPerJob-1)/s.rowsPerJob
	s.contacts = slices.Grow(s.contacts[:0], nr)[:nr]
}

// rows is the number of bucket rows of a parity: first 1 (rows 1, 3, ...)
// or 2 (rows 2, 4, ...).
func (s *System) rows(first int) int { return (int(s.layout.ch) - first + 2) / 2 }

// layoutFor picks the bucket layout for n bodies: one bucket per cell of
// the bounds if that is at most maxCellsPerBody buckets a body, else a
// wrapping grid of about one bucket a body. While no radius exceeds half
// the cell size, the result does not depend on the layout.
func layoutFor(cfg *Config, n int) layout {
	l := layout{inv: 1 / cfg.CellSize}
	if cfg.MaxX > cfg.MinX && cfg.MaxY > cfg.MinY {
		cw, ch := math.Floor((cfg.MaxX-cfg.MinX)*l.inv)+1, math.Floor((cfg.MaxY-cfg.MinY)*l.inv)+1
		if cw*ch <= maxCellsPerBody*float64(max(n, 1024)) {
			l.minX, l.minY, l.cw, l.ch = cfg.MinX, cfg.MinY, int32(cw), int32(ch)
			return l
		}
	}
	side := max(4, 1<<((bits.Len(uint(max(n, 1)))+1)/2))
	l.wrap, l.cw = true, int32(side)
	l.ch = int32(1) << bits.Len32(uint32(max(4, (n+side-1)/side)-1))
	return l
}

// maxCellsPerBody bounds the buckets of the one-bucket-per-cell layout:
// each participant keeps a counter per bucket, and three passes walk them
// all.
const maxCellsPerBody = 3

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
// buckets, rows or participant's counters, so none needs atomics.

func (s *System) gridChunk(c *ecs.Chunk) {
	pos, body := s.pos.Column(c), s.body.Column(c)
	w := c.Worker()
	counts := s.counts[w]
	base := c.Index() * s.batch
	for i := range pos {
		k := base + i
		x, y := pos[i].X, pos[i].Y
		r := body[i].Radius
		s.bySlot[k] = node{x: x, y: y, r: float32(r), slot: int32(k)}
		if 2*r > s.cfg.CellSize {
			s.oversize[w]++
		}
		b := s.layout.bucketOf(x, y)
		s.bucket[k], s.place[k], s.who[k] = b, counts[b], uint16(w)
		counts[b]++
	}
}

func (s *System) sumBlocks(lo, hi int) {
	for j := lo; j < hi; j++ {
		var t int32
		end := min((j+1)*blockSize, len(s.start)-1)
		for _, counts := range s.counts {
			for _, n := range counts[j*blockSize : end] {
				t += n
			}
		}
		s.sum[j] = t
	}
}

func (s *System) offsetBlocks(lo, hi int) {
	m := len(s.start) - 1
	for j := lo; j < hi; j++ {
		var run int32
		for _, t := range s.sum[:j] {
			run += t
		}
		end := min((j+1)*blockSize, m)
		for b := j * blockSize; b < end; b++ {
			s.start[b] = run
			for _, counts := range s.counts {
				counts[b], run = run, run+counts[b]
			}
		}
		if end == m {
			s.start[m] = run
		}
	}
}

func (s *System) scatterChunk(c *ecs.Chunk) {
	base := c.Index() * s.batch
	for k := base; k < base+c.Len(); k++ {
		i := s.counts[s.who[k]][s.bucket[k]] + s.place[k]
		s.sorted[i], s.acc[i], s.place[k] = s.bySlot[k], push{}, i
	}
}

// respondRows handles bucket rows first+2·lo, ..., first+2·(hi-1): it
// finds each touching pair once, against the bodies after it in its own
// bucket, in the bucket to the right and in the three buckets below, adds
// the push to both bodies, and zeroes the rows' counters. Only the rows it
// handles and the rows after them are written, so rows of one parity can
// run at once. In a wrapping grid the right and lower neighbours wrap
// (rows and columns 1..cw, ch; 0 and cw+1, ch+1 stay empty); with at
// least 4×4 buckets no pair is found twice.
func (s *System) respondRows(first, lo, hi int) {
	st, sn, acc, l := s.start, s.sorted, s.acc, &s.layout
	w := l.cw + 2
	touching := int32(0)
	for ri := lo; ri < hi; ri++ {
		r := int32(first + 2*ri)
		next := r + 1
		if l.wrap && next > l.ch {
			next = 1
		}
		// offsets left a base in every bucket; rows 1 and ch take the
		// empty border rows 0 and ch+1 along.
		zlo, zhi := r, r+1
		if r == 1 {
			zlo = 0
		}
		if r == l.ch {
			zhi = r + 2
		}
		for _, counts := range s.counts {
			clear(counts[zlo*w : zhi*w])
		}
		for col := int32(1); col <= l.cw; col++ {
			b := r*w + col
			if st[b] == st[b+1] {
				continue
			}
			// Spans after the body: the right bucket, then the row below.
			var spans [4][2]int32
			ns := 0
			if l.wrap && col == l.cw {
				spans[0], spans[1] = [2]int32{st[b], st[b+1]}, [2]int32{st[r*w+1], st[r*w+2]}
				ns = 2
			} else {
				spans[0] = [2]int32{st[b], st[b+2]}
				ns = 1
			}
			below := next*w + col - 1
			switch {
			case !l.wrap || (col > 1 && col < l.cw):
				spans[ns] = [2]int32{st[below], st[below+3]}
				ns++
			case col == 1: // the left neighbour is the row's last column
				spans[ns], spans[ns+1] = [2]int32{st[next*w+l.cw], st[next*w+l.cw+1]}, [2]int32{st[below+1], st[below+3]}
				ns += 2
			default: // col == cw: the right neighbour is the row's first
				spans[ns], spans[ns+1] = [2]int32{st[below], st[below+2]}, [2]int32{st[next*w+1], st[next*w+2]}
				ns += 2
			}
			for j := st[b]; j < st[b+1]; j++ {
				spans[0][0] = j + 1 // own bucket: only the bodies after j
				touching += pairs(sn, acc, j, spans[:ns])
			}
		}
	}
	off := 0
	if first == 2 {
		off = s.oddJobs
	}
	s.contacts[off+lo/s.rowsPerJob] = touching
}

// pairs adds to acc the pushes between body j of sn and every body of
// spans that touches it, and returns twice their number (contacts count
// from both sides). A pair's push is their overlap along the line between
// their centres (along apart's direction, where two coincide); the two
// bodies get opposite pushes, exactly.
func pairs(sn []node, acc []push, j int32, spans [][2]int32) (touching int32) {
	me := &sn[j]
	var ax, ay int64
	for _, sp := range spans {
		for k := range sn[sp[0]:sp[1]] {
			i := sp[0] + int32(k)
			o := &sn[i]
			ox, oy := me.x-o.x, me.y-o.y
			d2, rr := ox*ox+oy*oy, float64(me.r+o.r)
			if !(d2 < rr*rr) { // NaN too: a body at NaN touches nothing
				continue
			}
			d := math.Sqrt(d2)
			var nx, ny float64
			if d > 1e-9 {
				nx, ny = ox/d, oy/d
			} else {
				nx, ny = apart(me.slot - o.slot)
			}
			px, py := int64(nx*(rr-d)*fixed), int64(ny*(rr-d)*fixed)
			ax, ay = ax+px, ay+py
			acc[i].x -= px
			acc[i].y -= py
			touching += 2
		}
	}
	acc[j].x += ax
	acc[j].y += ay
	return touching
}

// goldenAngle is 2π(1 - 1/φ) radians.
var goldenAngle = math.Pi * (3 - math.Sqrt(5))

// apart is the direction that pushes apart two coincident bodies whose
// slots differ by k: it turns by the golden angle with k, so that a crowd
// born at one point (a burst) spreads as a disc. The pushes on one body
// add up to at most a few overlaps, as sums of e^(i·k·golden) do, where a
// fixed direction would throw the crowd into a line of n overlaps.
// apart(-k) is exactly -apart(k): the pair's pushes stay opposite.
func apart(k int32) (x, y float64) {
	if k < 0 {
		x, y = apart(-k)
		return -x, -y
	}
	return math.Cos(float64(k) * goldenAngle), math.Sin(float64(k) * goldenAngle)
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
		pu := s.acc[s.place[k]]
		x, y, r := pos[i].X, pos[i].Y, body[i].Radius // as grid read them: physics alone writes them
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
