package ecs

import (
	"hash/maphash"
	"unsafe"

	ark "github.com/mlange-42/ark/ecs"
	"github.com/weft-engine/weft/internal/fault"
	"github.com/weft-engine/weft/safety"
)

// Chunk is rows [start, end) of one table matched by a query, for one
// job. It is valid from Prepare until EndFrame, while the world is locked
// and Ark cannot move or reorder the table's columns; only the job that
// runs it may use it.
type Chunk struct {
	q            *queryBase
	index, table int
	start, end   int
	at           int // the rows of the query's chunks before it
	worker       int
	inOrder      bool // one job runs every chunk of the pass (jobAll, in order)
}

// Index is the chunk's position among its query's chunks this frame.
func (c *Chunk) Index() int { return c.index }

// Worker is the pool participant running the chunk's job: 0 for the
// owner, 1..W for the workers. It is for scratch space of one's own (a
// per-worker counter needs no atomics); results must not depend on it.
func (c *Chunk) Worker() int { return c.worker }

// Len is the chunk's number of rows.
func (c *Chunk) Len() int { return c.end - c.start }

// System is the name of the system whose query made the chunk.
func (c *Chunk) System() string { return c.q.d.name }

// Entities are the chunk's entities, row for row with its columns. Do not
// change them.
func (c *Chunk) Entities() []ark.Entity {
	return c.q.tables[c.table].ents[c.start:c.end:c.end]
}

// Commands is the chunk's own command buffer, played back after the frame
// in chunk order.
func (c *Chunk) Commands() *Commands { return c.q.bufs[c.index] }

// column finds the query's column of u's component and returns the
// address of the chunk's first row in it, nil for an optional column that
// the chunk's table lacks. In checked mode it refuses, through the seam
// (use.in), a token of another system or a chunk of an ended frame, and
// a write through a read declaration and a component that is not a
// column; the error goes to EndFrame and the job panics with it.
func (c *Chunk) column(u *use) unsafe.Pointer {
	q := c.q
	checked := checksCompiled && q.w.checks
	if checked {
		u.in(c)
	}
	for i, col := range q.cols {
		if col.id != u.id {
			continue
		}
		if checked && u.mode == safety.Write && col.mode == safety.Read {
			c.misuse(u, ErrReadOnly)
		}
		base := q.tables[c.table].cols[i]
		if base == nil { // an optional column the table lacks
			return nil
		}
		return unsafe.Add(base, uintptr(c.start)*col.size)
	}
	c.misuse(u, ErrNotInQuery)
	return nil
}

func (c *Chunk) misuse(u *use, code fault.Code) {
	q := c.q
	sys, comp := q.d.name, u.typ
	var err *Error
	switch code {
	case ErrReadOnly:
		err = errorf(code, sys, comp, "a job of system %q asked for a write view of %s, which its query declares read-only; declare it with ecs.Write[%s] instead of ecs.Read[%s]", sys, comp, comp, comp)
	default:
		err = errorf(code, sys, comp, "a job of system %q asked for a view of %s, which is not a column of its query; pass the token of %s to the query's constructor", sys, comp, comp)
	}
	q.w.fail(err)
	panic(err)
}

// sum is a checksum of the chunk's rows of column i.
func (c *Chunk) sum(i int) uint64 {
	q := c.q
	size := q.cols[i].size
	n := uintptr(c.end-c.start) * size
	if n == 0 || q.tables[c.table].cols[i] == nil {
		return 0
	}
	base := unsafe.Add(q.tables[c.table].cols[i], uintptr(c.start)*size)
	return maphash.Bytes(q.w.seed, unsafe.Slice((*byte)(base), n))
}
