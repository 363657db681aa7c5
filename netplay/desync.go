package netplay

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"slices"

	"github.com/weft-engine/weft/ecs"
)

// Finding a desync between peers: every DigestEvery-th confirmed step,
// each peer sends the world digest it left (Data.Digests, repeated in a
// few packets). A peer whose digest differs sends the step's per-system
// digests (Data.Detail) until the other has them: both name the first
// system whose digest differs. Then the rows that system wrote in the step
// (kept under ecs.DigestCapture, sorted by entity and component) are
// searched without sending them: the asker asks for a range (Data.Query),
// the other answers with the hashes of 64 equal parts of it, the first
// part that differs is asked next, and a range of a few rows is answered
// with the rows themselves, values as text (Data.Answer). Two or three
// round trips name the entity, the component and both values.

// rowsPerAnswer is the longest range answered with its rows.
const rowsPerAnswer = 6

// check is a confirmed check step's digests, kept until compared.
type check struct {
	hash uint64
	sums []uint64
	rows [][]ecs.Written // by system, as names; nil under NoRows
}

// search is the state of a desync with one peer.
type search struct {
	report  Report
	system  int       // the first differing system's index (-1: not known)
	query   *RowQuery // asked until answered
	done    bool
	linger  int // packets still sent with the detail after done
	answers *RowAnswer
}

var rowSeed = maphash.MakeSeed()

// keepCheck keeps step f's digests (it is final) and compares it with
// the digests the peers sent of it.
func (s *Session[I]) keepCheck(f int32) {
	slot := f & ringMask
	c := &check{hash: s.hashes[slot], sums: slices.Clone(s.sums[slot])}
	if !s.cfg.NoRows {
		c.rows, s.rows[slot] = s.rows[slot], nil
	}
	s.checks[f] = c
	s.checkOrder = append(s.checkOrder, f)
	for len(s.checkOrder) > 16 {
		old := s.checkOrder[0]
		s.checkOrder = s.checkOrder[1:]
		if !s.searching(old) {
			delete(s.checks, old)
		}
	}
	for p, h := range s.pending[f] {
		s.compare(p, f, h)
	}
	delete(s.pending, f)
}

func (s *Session[I]) searching(f int32) bool {
	for _, d := range s.desyncs {
		if int32(d.report.Step) == f {
			return true
		}
	}
	return false
}

// compare compares peer p's digest of check step f with this one's.
func (s *Session[I]) compare(p int, f int32, h uint64) {
	if c := s.checks[f]; c != nil && c.hash != h {
		s.open(p, f, h)
	}
}

// open starts the search of a desync with p at check step f, whose
// digest p has as h (0: not known yet, p found the desync first).
func (s *Session[I]) open(p int, f int32, h uint64) {
	c := s.checks[f]
	if c == nil || s.desyncs[p] != nil {
		return
	}
	d := &search{system: -1, report: Report{Step: uint64(f), Peer: p, LocalHash: c.hash, RemoteHash: h}}
	s.desyncs[p] = d
	r := d.report
	s.events = append(s.events, Event{Kind: EventDesync, Player: p, Step: int(f), Addr: s.peers[p].addr, Report: &r})
}

// handleDigests acts on the digests, details, queries and answers of
// peer p's data packet.
func (s *Session[I]) handleDigests(p int, d *Data) {
	for _, g := range d.Digests {
		if s.checks[g.Frame] != nil {
			s.compare(p, g.Frame, g.Hash)
		} else if g.Frame > s.final && g.Frame <= s.cur+ringN/2 {
			if s.pending[g.Frame] == nil {
				s.pending[g.Frame] = map[int]uint64{}
			}
			s.pending[g.Frame][p] = g.Hash
		}
	}
	if d.Detail != nil {
		s.handleDetail(p, d.Detail)
	}
	if q := d.Query; q != nil {
		s.answer(p, q)
	}
	if a := d.Answer; a != nil {
		s.handleAnswer(p, a)
	}
}

// handleDetail names the first system whose digest differs from p's.
func (s *Session[I]) handleDetail(p int, det *Detail) {
	c := s.checks[det.Frame]
	if c == nil {
		return
	}
	s.open(p, det.Frame, 0) // if p found the desync first
	d := s.desyncs[p]
	if d.system >= 0 || int32(d.report.Step) != det.Frame {
		return
	}
	for i := range min(len(c.sums), len(det.Sums)) {
		if c.sums[i] != det.Sums[i] {
			d.system = i
			break
		}
	}
	if d.system < 0 {
		s.finish(p, d) // the systems agree: only the world digest differs
		return
	}
	d.report.System = s.names[d.system]
	if c.rows == nil || d.system >= len(c.rows) {
		s.finish(p, d)
		return
	}
	d.query = &RowQuery{Frame: det.Frame, System: uint8(d.system), Lo: 0, Hi: uint32(len(c.rows[d.system]) + 1)}
}

func (s *Session[I]) finish(p int, d *search) {
	if d.done {
		return
	}
	d.done, d.query, d.linger = true, nil, 120
	r := d.report
	s.events = append(s.events, Event{Kind: EventDesyncReport, Player: p, Step: int(r.Step), Addr: s.peers[p].addr, Report: &r})
}

// rowsOf is check step f's rows of system i, or nil.
func (s *Session[I]) rowsOf(f int32, i uint8) ([]ecs.Written, bool) {
	c := s.checks[f]
	if c == nil || c.rows == nil || int(i) >= len(c.rows) {
		return nil, false
	}
	return c.rows[i], true
}

// answer answers p's query for its next packet.
func (s *Session[I]) answer(p int, q *RowQuery) {
	rows, ok := s.rowsOf(q.Frame, q.System)
	if !ok {
		return
	}
	s.open(p, q.Frame, 0)
	d := s.desyncs[p]
	a := &RowAnswer{RowQuery: *q}
	if q.Hi-q.Lo <= rowsPerAnswer {
		for i := q.Lo; i < q.Hi && int(i) < len(rows); i++ {
			w := &rows[i]
			a.Rows = append(a.Rows, Row{ID: w.Entity.ID(), Gen: w.Entity.Gen(), Component: w.Component, Sum: w.Sum, Value: valueText(w.Value)})
		}
	} else {
		a.Hashes = partHashes(rows, q.Lo, q.Hi)
	}
	d.answers = a
}

// handleAnswer narrows the search with p's answer, or ends it.
func (s *Session[I]) handleAnswer(p int, a *RowAnswer) {
	d := s.desyncs[p]
	if d == nil || d.query == nil || a.RowQuery != *d.query {
		return
	}
	rows, ok := s.rowsOf(a.Frame, a.System)
	if !ok {
		s.finish(p, d)
		return
	}
	q := d.query
	if a.Hashes != nil {
		mine := partHashes(rows, q.Lo, q.Hi)
		for j := range min(len(mine), len(a.Hashes)) {
			if mine[j] != a.Hashes[j] {
				lo, hi := part(q.Lo, q.Hi, len(mine), j)
				d.query = &RowQuery{Frame: q.Frame, System: q.System, Lo: lo, Hi: hi}
				return
			}
		}
		s.finish(p, d) // every part agrees: the difference is past the range
		return
	}
	for k := 0; ; k++ {
		i := int(q.Lo) + k
		var mine *ecs.Written
		if i < len(rows) && uint32(i) < q.Hi {
			mine = &rows[i]
		}
		var theirs *Row
		if k < len(a.Rows) {
			theirs = &a.Rows[k]
		}
		if mine == nil && theirs == nil {
			break
		}
		if c := compareRow(mine, theirs); c != 0 || mine == nil || theirs == nil || mine.Sum != theirs.Sum {
			r := &d.report
			switch {
			case theirs == nil || mine != nil && c < 0: // a row only this peer wrote
				r.Entity, r.Component, r.Local = mine.Entity, mine.Component, valueText(mine.Value)
			case mine == nil || c > 0: // a row only the peer wrote
				r.Entity, r.Component, r.Remote = entityOf(theirs.ID, theirs.Gen), theirs.Component, theirs.Value
			default:
				r.Entity, r.Component, r.Local, r.Remote = mine.Entity, mine.Component, valueText(mine.Value), theirs.Value
			}
			break
		}
	}
	s.finish(p, d)
}

// fillDesync adds the check digests, and a desync's detail, query and
// answer, to a data packet for p.
func (s *Session[I]) fillDesync(p int, d *Data) {
	n := len(s.checkOrder)
	for i := max(0, n-2); i < n; i++ {
		if f := s.checkOrder[i]; s.final-f < 6 { // sent in the 6 steps after it is final: all 6 lost, at 5% loss, once in 64 million
			d.Digests = append(d.Digests, StepDigest{Frame: f, Hash: s.checks[f].hash})
		}
	}
	sr := s.desyncs[p]
	if sr == nil {
		return
	}
	if !sr.done || sr.linger > 0 {
		if sr.done {
			sr.linger--
		}
		f := int32(sr.report.Step)
		if c := s.checks[f]; c != nil && len(c.sums) <= maxSystems {
			d.Detail = &Detail{Frame: f, Sums: c.sums}
		}
	}
	d.Query = sr.query
	d.Answer, sr.answers = sr.answers, nil
}

// part is the j-th of n equal parts of [lo, hi).
func part(lo, hi uint32, n, j int) (uint32, uint32) {
	w := uint64(hi - lo)
	return lo + uint32(w*uint64(j)/uint64(n)), lo + uint32(w*uint64(j+1)/uint64(n))
}

// partHashes hashes up to 64 equal parts of rows [lo, hi), rows past the
// end hashing as none.
func partHashes(rows []ecs.Written, lo, hi uint32) []uint64 {
	n := int(min(uint32(maxRowHashes), hi-lo))
	out := make([]uint64, n)
	for j := range n {
		a, b := part(lo, hi, n, j)
		var h maphash.Hash
		h.SetSeed(rowSeed)
		for i := a; i < b && int(i) < len(rows); i++ {
			w := &rows[i]
			maphash.WriteComparable(&h, [3]uint64{uint64(w.Entity.ID())<<32 | uint64(w.Entity.Gen()), w.Sum, uint64(len(w.Component))})
			h.WriteString(w.Component)
		}
		out[j] = h.Sum64()
	}
	return out
}

// compareRow orders a written row and a received one by entity, then
// component; a missing one sorts last.
func compareRow(a *ecs.Written, b *Row) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return 1
	case b == nil:
		return -1
	}
	if c := cmp.Compare(a.Entity.ID(), b.ID); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Entity.Gen(), b.Gen); c != 0 {
		return c
	}
	return cmp.Compare(a.Component, b.Component)
}

func valueText(v any) string {
	return fmt.Sprintf("%+v", v)
}

func entityOf(id, gen uint32) ecs.Entity {
	var e ecs.Entity
	b := []byte{byte(id >> 24), byte(id >> 16), byte(id >> 8), byte(id), byte(gen >> 24), byte(gen >> 16), byte(gen >> 8), byte(gen)}
	_ = e.UnmarshalBinary(b)
	return e
}
