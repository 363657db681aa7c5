package ecs

// Reduction is a value of type T computed by a query's chunk jobs, one
// partial value per chunk, and combined on the owner in chunk order: a
// score summed over every chunk, a count, a bounding box. Each job writes
// only its own chunk's partial, so no two jobs share memory, and the owner
// reads the partials in chunk order after the jobs, so the result is the
// same for every worker count. It is also the same for every batch size
// when combining is exact and associative (integers, fixed point, min,
// max); a float sum depends on where the chunks are cut.
//
// The partials live in one slice, grown when a frame has more chunks than
// any before and zeroed by the query's Prepare: no allocation in steady
// state.
type Reduction[T any] struct {
	q     *queryBase
	parts []T
}

// AnyQuery is a query of any arity (Query1..Query8), for NewReduction
// and an engine's passes.
type AnyQuery interface {
	ChunkLen(i int) int
	base() *queryBase
}

func (q *queryBase) base() *queryBase { return q }

// NewReduction makes a reduction over q's chunks: each frame, q's Prepare
// gives it one zero partial per chunk. Executed only by the owner, at
// build time.
func NewReduction[T any](q AnyQuery) *Reduction[T] {
	r := &Reduction[T]{q: q.base()}
	r.q.resets = append(r.q.resets, r.reset)
	return r
}

// reset makes n zero partials. Executed only by the owner, in Prepare.
func (r *Reduction[T]) reset(n int) {
	if cap(r.parts) < n {
		r.parts = make([]T, n)
		return
	}
	r.parts = r.parts[:n]
	clear(r.parts)
}

// Part is chunk c's own partial value, zero when the job starts. A chunk
// of another query is refused with ErrBadArgument (the error goes to
// EndFrame and Part panics with it). Accumulate in a local variable and
// store it once: partials of neighbouring chunks share cache lines.
// Executed only by the job that owns c.
func (r *Reduction[T]) Part(c *Chunk) *T {
	if c.q != r.q {
		r.q.w.refuse(errorf(ErrBadArgument, c.q.d.name, "",
			"system %q asked a reduction for the partial of a chunk of another query (system %q); make the reduction with ecs.NewReduction from the query whose chunks write it", c.q.d.name, r.q.d.name))
	}
	return &r.parts[c.index]
}

// Parts are this frame's partial values in chunk order, one per chunk of
// the query's last Prepare; combine them in this order. Executed only by
// the owner, after the jobs (in engine Merge), until the query's next
// Prepare.
func (r *Reduction[T]) Parts() []T { return r.parts }
