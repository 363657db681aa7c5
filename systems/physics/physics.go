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
//	grid     per chunk: find each body's bucket row, count per row
//	offsets  one job: row starts (prefix sums over rows)
//	scatter  per chunk: copy each body's position and radius to its row
//	respond  per range of odd bucket rows, then of even rows: push touching pairs apart
//	gather   per range of bucket rows: copy each body's push to its slot
//	apply    per chunk: add the push, integrate, bounce
//
// Bodies are sorted in two steps: grid and scatter sort them by bucket
// row, and the odd respond jobs sort each row's bodies by bucket (a
// counting sort of a few hundred bodies, in the cache of the core that
// then scans them). The global sort thus counts into a table of rows (a
// few KB, where a table of buckets was hundreds of KB per participant,
// walked three times a step), and the sort by bucket, the pushes' zeroing
// and the neighbour scan of a row run in one job, on one core. Bodies sit
// in bucket order, where neighbours are close in memory. A
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

	q                                                              engine.Query
	grid, offsets, scatter, respondOdd, respondEven, gather, apply *engine.Pass
	respond                                                        engine.Marker // a respond job's rows, in the profiler

	batch, rowsPerJob int
	oddJobs           int // respond jobs over the odd rows: the even rows' contacts follow theirs
	layout            layout
	// By slot (chunk·batch + index in the chunk), written by the slot's chunk.
	row []int32  // the body's bucket row
	who []uint16 // the participant that counted the slot
	// By chunk: the query order (table, then row) of its first body, so
	// that a body's order does not depend on the batch size.
	first []int32
	place []int32 // grid: rank among who's bodies of the row
	final []push  // gather: the body's summed push, which apply reads in slot order
	// By participant and bucket row, so that grid needs no atomics:
	// offsets turns counts into starts, where each participant's share of
	// the row begins in staged, and zeroes counts for the next step.
	counts, starts [][]int32
	// By bucket row: row r is staged[rowStart[r]:rowStart[r+1]], and the
	// same range of sorted once respond sorted it.
	rowStart []int32
	start    []int32 // by bucket: bucket b is sorted[start[b]:start[b+1]]
	staged   []stage // in row order
	// In bucket order.
	sorted   []node
	slotOf   []int32 // the body's slot
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
	x, y  float64
	r     float32
	order int32 // the body's rank in query order, whatever the batch
}

// stage is a body's snapshot in row order, with what sorting it by bucket
// needs.
type stage struct {
	node
	slot int32 // chunk·batch + index in the chunk
	col  int32 // its bucket's column
}

// push is a body's summed push in fixed point (see fixed).
type push struct{ x, y int64 }

// fixed is the scale of a push's fixed point: 2⁻³² world units, far below
// what a frame can show, with room for thousands of overlaps in an int64.
const fixed = 1 << 32

// jobBodies is about how many bodies a respond job takes (gather's take four
// times as many). A pass ends when its last job does, and meanwhile the
// other participants wait: with 1024 a respond job of a 50,000-body step
// runs 50-100 µs, depending on the machine's speed. Smaller jobs shorten
// those waits but cost as much again in the passes (more jobs, and more
// rows whose neighbours another core handles), so the step is no faster
// (measured with 256 and 512 against 1024, 9 rounds each).
const jobBodies = 1024

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
	s.offsets = b.Range("offsets", func(int, int) { s.offsetRows() })
	s.scatter = b.Chunks("scatter", q, s.scatterChunk)
	s.respond = b.Marker("respond")
	s.respondOdd = b.RangeWorker("respond-odd", func(w, lo, hi int) { s.respondMarked(w, 1, lo, hi) })
	s.respondEven = b.RangeWorker("respond-even", func(w, lo, hi int) { s.respondMarked(w, 2, lo, hi) })
	s.gather = b.Range("gather", s.gatherRows)
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
	odd, even, rows := s.rows(1), s.rows(2), int(s.layout.ch)
	// Each pass starts after the previous one (a system's passes chain).
	err = f.Run(s.grid)
	if err == nil {
		err = f.RunRange(s.offsets, 1, 1)
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
		err = f.RunRange(s.gather, rows, 4*s.rowsPerJob) // a copy: cheaper per body than respond
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
	s.first = slices.Grow(s.first[:0], n)[:n]
	for i := range n {
		s.first[i] = int32(bodies)
		bodies += s.q.ChunkLen(i)
	}
	s.batch = batch
	s.staged = slices.Grow(s.staged[:0], slots)[:slots]
	s.sorted = slices.Grow(s.sorted[:0], slots)[:slots]
	s.acc = slices.Grow(s.acc[:0], slots)[:slots]
	s.final = slices.Grow(s.final[:0], slots)[:slots]
	s.slotOf = slices.Grow(s.slotOf[:0], slots)[:slots]
	s.row, s.place = slices.Grow(s.row[:0], slots)[:slots], slices.Grow(s.place[:0], slots)[:slots]
	s.who = slices.Grow(s.who[:0], slots)[:slots]
	s.oversize = slices.Grow(s.oversize[:0], parts)[:parts]
	clear(s.oversize)
	s.layout = layoutFor(&s.cfg, bodies)
	rows := int(s.layout.ch + 2)
	if len(s.counts) != parts || len(s.counts[0]) != rows {
		s.counts, s.starts = make([][]int32, parts), make([][]int32, parts) // new counters start at 0
		for i := range s.counts {
			s.counts[i], s.starts[i] = make([]int32, rows), make([]int32, rows)
		}
	}
	s.rowStart = slices.Grow(s.rowStart[:0], rows+1)[:rows+1]
	m := int(s.layout.cw+2) * rows
	s.start = slices.Grow(s.start[:0], m+1)[:m+1]
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
// respond walks every bucket's start.
const maxCellsPerBody = 3

// rowOf and colOf are the row and column in the bucket grid, border
// included, of the cell at (x, y): bucket (row, col) is row·(cw+2) + col.
func (l *layout) rowOf(y float64) int32 { return cellOf(y, l.minY, l.inv, l.ch, l.wrap) + 1 }
func (l *layout) colOf(x float64) int32 { return cellOf(x, l.minX, l.inv, l.cw, l.wrap) + 1 }

// cellOf is the cell of coordinate v along an axis of n cells from lo:
// wrapped (n a power of two) or clamped onto the edge cells.
func cellOf(v, lo, inv float64, n int32, wrap bool) int32 {
	c := int32(math.Floor((v - lo) * inv))
	if wrap {
		return c & (n - 1)
	}
	return min(max(c, 0), n-1)
}

// The pass functions below run as jobs, any number at once, each on its
// own chunk or range. Each relies only on the passes before it having
// finished (a system's passes chain) and writes only its own slots,
// rows or participant's counters, so none needs atomics.

func (s *System) gridChunk(c *ecs.Chunk) {
	pos, body := s.pos.Column(c), s.body.Column(c)
	w := c.Worker()
	counts := s.counts[w]
	base := c.Index() * s.batch
	for i := range pos {
		k := base + i
		if 2*body[i].Radius > s.cfg.CellSize {
			s.oversize[w]++
		}
		r := s.layout.rowOf(pos[i].Y)
		s.row[k], s.place[k], s.who[k] = r, counts[r], uint16(w)
		counts[r]++
	}
}

// offsetRows turns the counts into row starts, each participant's share
// after the previous participant's, and zeroes the counts for the next
// step. Of the bucket starts it sets those of the empty border rows 0 and
// ch+1 and each row's first (the empty border column): respond sorts the
// rest.
func (s *System) offsetRows() {
	var run int32
	rows := len(s.rowStart) - 1
	for r := range rows {
		s.rowStart[r] = run
		for w, counts := range s.counts {
			s.starts[w][r], run = run, run+counts[r]
			counts[r] = 0
		}
	}
	s.rowStart[rows] = run
	w := int(s.layout.cw + 2)
	for r := range rows {
		s.start[r*w] = s.rowStart[r]
	}
	clear(s.start[:w])
	for b := (rows - 1) * w; b < len(s.start); b++ {
		s.start[b] = run
	}
}

// scatterChunk reads the positions grid read (physics alone writes them,
// in apply, after scatter), so grid needs to keep no snapshot of its own.
func (s *System) scatterChunk(c *ecs.Chunk) {
	pos, body := s.pos.Column(c), s.body.Column(c)
	base, first := c.Index()*s.batch, s.first[c.Index()]
	for i := range pos {
		k := base + i
		j := s.starts[s.who[k]][s.row[k]] + s.place[k]
		s.staged[j] = stage{node: node{x: pos[i].X, y: pos[i].Y, r: float32(body[i].Radius), order: first + int32(i)}, slot: int32(k), col: s.layout.colOf(pos[i].X)}
	}
}

// sortRow sorts row r's bodies from staged into sorted by bucket (a
// counting sort into the row's bucket starts), zeroes their pushes, and
// notes each body's slot for gather. The row's first bucket, in
// the empty border column, keeps the start offsets gave it: the job of
// row r-2 reads it as its neighbours' end. Executed by the odd respond job
// of row r or r-1, before it scans them.
func (s *System) sortRow(r int32) {
	w := s.layout.cw + 2
	lo, hi := s.rowStart[r], s.rowStart[r+1]
	at := s.start[r*w+1 : (r+1)*w] // at[c] is the start of column c+1
	clear(at)
	for i := lo; i < hi; i++ { // at[c] counts column c
		at[s.staged[i].col]++
	}
	run := lo
	for c, n := range at { // at[c] becomes column c's start
		at[c], run = run, run+n
	}
	for i := lo; i < hi; i++ { // at[c] moves to column c's end, which is column c+1's start
		st := &s.staged[i]
		j := at[st.col]
		at[st.col]++
		s.sorted[j], s.slotOf[j] = st.node, st.slot
	}
	clear(s.acc[lo:hi])
}

// respondMarked is respondRows in a span of the respond marker, on
// participant w. Executed only by participant w, in a respond job.
func (s *System) respondMarked(w, first, lo, hi int) {
	sp := s.respond.Begin(w)
	s.respondRows(first, lo, hi)
	sp.End()
}

// respondRows handles bucket rows first+2·lo, ..., first+2·(hi-1): it
// finds each touching pair once, against the bodies after it in its own
// bucket, in the bucket to the right and in the three buckets below, and
// adds the push to both bodies. The odd rows' jobs first sort each of
// their rows and the row after it by bucket (sortRow): between them, the
// odd rows' jobs sort every row, before the even rows' jobs run. Only the
// rows it handles and the rows after them are written, so rows of one
// parity can run at once. In a wrapping grid the right and lower neighbours wrap
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
		if first == 1 { // row ch+1 is a border row, which offsets set
			s.sortRow(r)
			if r < l.ch {
				s.sortRow(r + 1)
			}
		}
		for col := int32(1); col <= l.cw; col++ {
			b := r*w + col
			if st[b] == st[b+1] {
				continue
			}
			spans, ns := s.spansAfter(r, next, col)
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

// spansAfter returns the ranges of sorted that bucket (r, col) scans for
// each of its bodies, ns of them: its own bucket and the right one, then
// the three below in row next. In a wrapping grid the right and lower
// neighbours wrap around the row. The caller narrows the first span to the
// bodies after the one it scans for.
func (s *System) spansAfter(r, next, col int32) (spans [4][2]int32, ns int) {
	st, l := s.start, &s.layout
	w := l.cw + 2
	b := r*w + col
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
	return spans, ns
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
				nx, ny = apart(me.order - o.order)
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

// gatherRows copies the summed pushes of bucket rows lo+1, ..., hi into
// final, by slot. A push is complete once both respond passes ran; apply
// then reads final in slot order, as a stream. Reading acc through each
// slot's index in sorted instead is a random gather of lines the other
// participant's respond jobs wrote last: a coherence miss for about half
// the bodies, which made apply 4x slower with two participants than
// alone (in a trace of the headless game at 50,000 bodies). The random
// side here is a store, which the core's store buffer absorbs.
func (s *System) gatherRows(lo, hi int) {
	for j := s.rowStart[lo+1]; j < s.rowStart[hi+1]; j++ {
		s.final[s.slotOf[j]] = s.acc[j]
	}
}

// goldenAngle is 2π(1 - 1/φ) radians.
var goldenAngle = math.Pi * (3 - math.Sqrt(5))

// apart is the direction that pushes apart two coincident bodies whose
// orders differ by k (not their slots, which depend on the batch): it turns by the golden angle with k, so that a crowd
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
		pu := s.final[k]
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
