// Package cull keeps the sprites that the camera sees, per chunk, and merges them into the render snapshot's draw list ordered by layer, sort key and entity.
package cull

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
	"github.com/weft-engine/weft/systems"
)

// System is the cull system. Its passes, one after another:
//
//	visible  per chunk: the items the camera sees, and their sort keys, sorted
//	flatten  per chunk: its keys into one array, at the chunk's offset
//	merge    one pass per level: pairs of sorted runs merged into runs twice as long
//	gather   per range of the draw order: the items, copied in the merged key order
//
// and Merge, on the owner, appends them to the snapshot's draw list in one
// copy. The order is total (the entity breaks ties),
// so the draw list is the same for every worker count and batch size.
type System struct {
	pos                   ecs.Reader[systems.Position]
	sprite                ecs.Reader[systems.Sprite]
	look                  ecs.Reader[systems.Look]
	camera                ecs.ResReader[engine.Camera]
	pass, flatten, gather *engine.Pass
	merges                [maxLevels]*engine.Pass
	pieces                [maxLevels]int // jobs per pair of runs, by level

	raw    [][]engine.Item // per chunk: visible items, in row order
	keys   [][]key         // per chunk: their sort keys, sorted
	off    []int           // per chunk: where its keys go in the flat arrays; off[n] is the total
	flat   [2][]key        // the merge levels' runs, ping-pong
	items  []engine.Item   // in draw order
	levels int

	// Visible is the number of items drawn in the last step.
	Visible int
}

// New makes the cull system.
func New() *System { return &System{} }

// Name is "cull".
func (s *System) Name() string { return "cull" }

// Build declares the reads and the pass.
func (s *System) Build(b *engine.Builder) error {
	d := b.Decl()
	s.pos, s.sprite, s.look = ecs.Read[systems.Position](d), ecs.Read[systems.Sprite](d), ecs.Read[systems.Look](d)
	s.camera = ecs.ReadRes[engine.Camera](d)
	s.pass = b.Chunks("visible", ecs.NewQuery3(d, s.pos, s.sprite, s.look), s.chunk)
	s.flatten = b.Range("flatten", s.flattenChunks)
	for l := range s.merges {
		w := 1 << l
		s.merges[l] = b.Range(fmt.Sprintf("merge%d", l), func(lo, hi int) { s.mergeRuns(l, w, lo, hi) })
	}
	s.gather = b.Range("gather", s.gatherItems)
	return nil
}

// Schedule makes one visible list per chunk, then starts the pass.
func (s *System) Schedule(f *engine.Frame) error {
	n, err := f.Prepare(s.pass)
	if err != nil {
		return err
	}
	for len(s.raw) < n {
		s.raw, s.keys = append(s.raw, nil), append(s.keys, nil)
	}
	s.raw, s.keys = s.raw[:n], s.keys[:n]
	s.off = slices.Grow(s.off[:0], n+1)[:n+1]
	if err := f.Run(s.pass); err != nil {
		return err
	}
	if err := f.RunRange(s.flatten, n, 64); err != nil {
		return err
	}
	// Level L merges runs of 2^L chunks pairwise; a level's pass reads
	// only what the previous one wrote.
	s.levels = 0
	for w := 1; w < n; w *= 2 {
		pairs := (n + 2*w - 1) / (2 * w)
		s.pieces[s.levels] = max(1, minJobs/pairs)
		if err := f.RunRange(s.merges[s.levels], pairs*s.pieces[s.levels], 1); err != nil {
			return err
		}
		s.levels++
	}
	// How many are visible is known only once the jobs ran: each gather
	// job takes its share of the draw list then.
	return f.RunRange(s.gather, minJobs, 1)
}

// order is the keys in draw order, once the merges have run.
func (s *System) order() []key {
	switch n := len(s.keys); {
	case n == 1:
		return s.keys[0]
	case n > 1:
		return s.flat[(s.levels-1)&1][:s.off[n]]
	}
	return nil
}

// gatherItems (a job, after the merges) copies the items of shares
// [lo, hi) of minJobs of the draw list to their places.
func (s *System) gatherItems(lo, hi int) {
	order := s.order()
	for i := len(order) * lo / minJobs; i < len(order)*hi/minJobs; i++ {
		k := &order[i]
		s.items[i] = s.raw[k.chunk][k.i]
	}
}

// maxLevels bounds the merge levels: 2^maxLevels chunks.
const maxLevels = 31

// minJobs is the fewest jobs a merge level or gather is cut into, so that
// every worker of a small pool has some.
const minJobs = 16

// chunk runs as a job, one per chunk, in parallel: it writes only its
// chunk's lists, which Schedule sized before the pass started.
func (s *System) chunk(c *ecs.Chunk) {
	pos, spr, look := s.pos.Column(c), s.sprite.Column(c), s.look.Column(c)
	ents := c.Entities()
	minX, minY, maxX, maxY := s.camera.Get().Rect()
	k := c.Index()
	// Room for every row: what the camera sees changes every step, and
	// growing to each new peak would allocate again and again.
	raw, keys := slices.Grow(s.raw[k][:0], len(pos)), slices.Grow(s.keys[k][:0], len(pos))
	for i := range pos {
		p, sp, lk := pos[i], &spr[i], &look[i]
		r := sp.Extent * lk.Scale
		if p.X+r < minX || p.X-r > maxX || p.Y+r < minY || p.Y-r > maxY {
			continue
		}
		it := engine.Item{
			Entity: uint64(ents[i].ID())<<32 | uint64(ents[i].Gen()),
			X:      p.X, Y: p.Y, Extent: sp.Extent, Scale: lk.Scale, Rotation: lk.Rotation, Color: lk.Color,
			Sheet: sp.Sheet, Frame: sp.Frame, Layer: sp.Layer, Sort: sp.Sort,
		}
		keys = append(keys, key{order: uint64(uint32(it.Layer)^1<<31)<<32 | uint64(uint32(it.Sort)^1<<31), entity: it.Entity, chunk: int32(k), i: int32(len(raw))})
		raw = append(raw, it)
	}
	slices.SortFunc(keys, func(a, b key) int { return a.compare(&b) }) // the small keys, not the items
	s.raw[k], s.keys[k] = raw, keys
}

// key is an item's place in the draw order: (layer, sort key) as one
// unsigned number, then the entity.
type key struct {
	order, entity uint64
	chunk, i      int32 // the item: raw[chunk][i]
}

func (a *key) compare(b *key) int {
	if a.order != b.order {
		return cmp.Compare(a.order, b.order)
	}
	return cmp.Compare(a.entity, b.entity)
}

// flattenChunks (a job, after the visible pass) copies chunks [lo, hi)'s keys to their offsets. The
// offsets are a prefix sum over every chunk, cheap next to the copying.
func (s *System) flattenChunks(lo, hi int) {
	at := 0
	for k := range lo {
		at += len(s.keys[k])
	}
	for k := lo; k < hi; k++ {
		s.off[k] = at
		at += len(s.keys[k])
	}
	if hi == len(s.keys) {
		s.off[hi] = at
		for i := range s.flat {
			s.flat[i] = slices.Grow(s.flat[i][:0], at)[:at]
		}
		s.items = slices.Grow(s.items[:0], at)[:at]
	}
}

// mergeRuns (a job) merges pieces [lo, hi) of level l: piece q is part
// q%pieces of pair q/pieces, which merges the runs of chunks [2p·w,
// (2p+1)·w) and [(2p+1)·w, (2p+2)·w) of the level's input into its output.
// Level 0 reads the chunks' own key lists. A pair's output is cut into
// equal parts, each found by a binary search for how many of its keys come
// from the first run, so that the top levels, with one or two pairs, still
// run on every worker. The keys are distinct, so the output does not depend
// on the cuts.
func (s *System) mergeRuns(l, w, lo, hi int) {
	n, pieces := len(s.keys), s.pieces[l]
	out := s.flat[l&1]
	for q := lo; q < hi; q++ {
		p, part := q/pieces, q%pieces
		a0, a1, b1 := min(2*p*w, n), min((2*p+1)*w, n), min((2*p+2)*w, n)
		var x, y []key
		if l == 0 {
			x = s.keys[a0]
			if a1 < n {
				y = s.keys[a1]
			}
		} else {
			in := s.flat[(l-1)&1]
			x, y = in[s.off[a0]:s.off[a1]], in[s.off[a1]:s.off[b1]]
		}
		dst := out[s.off[a0]:s.off[b1]]
		from, to := len(dst)*part/pieces, len(dst)*(part+1)/pieces
		i := corank(x, y, from)
		merge(dst[from:to], x[i:], y[from-i:])
	}
}

// corank is how many of the first k keys of the merge of x and y come
// from x.
func corank(x, y []key, k int) int {
	lo, hi := max(0, k-len(y)), min(k, len(x))
	for lo < hi { // the first i in [lo, hi] with x[i] after y[k-i-1]
		i := (lo + hi) / 2
		if x[i].compare(&y[k-i-1]) < 0 {
			lo = i + 1
		} else {
			hi = i
		}
	}
	return lo
}

// merge fills dst with the first len(dst) keys of the merge of x and y.
func merge(dst, x, y []key) {
	i, j := 0, 0
	for d := range dst {
		if j == len(y) || i < len(x) && x[i].compare(&y[j]) < 0 {
			dst[d] = x[i]
			i++
		} else {
			dst[d] = y[j]
			j++
		}
	}
}

// Merge lays the items out in the merged order in the draw list. Executed
// only by the owner, after every pass of the step has finished.
func (s *System) Merge(f *engine.Frame) error {
	snap := f.Snapshot()
	order := s.order()
	snap.Items = append(snap.Items, s.items[:len(order)]...)
	s.Visible = len(order)
	return nil
}
