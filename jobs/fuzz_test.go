package jobs

import (
	"errors"
	"sync/atomic"
	"testing"

	"github.com/weft-engine/weft/internal/fault"
	"github.com/weft-engine/weft/internal/fuzzcrash"
)

// FuzzGraph builds frames of jobs from random bytes: dependencies (also on
// stale and foreign handles), failures, cancellations, ParallelFor, Resets,
// and jobs that wait from inside on other jobs or on their own descendants.
// It must never hang, crash, or return an error of an unexpected kind.
func FuzzGraph(f *testing.F) {
	fuzzcrash.Keep()
	f.Add([]byte{0, 0, 0, 1, 4, 0, 5, 0, 3, 1, 7, 0, 0, 2, 3, 0})
	f.Add([]byte{6, 3, 1, 0, 2, 1, 0, 1, 8, 0, 3, 2, 7, 1, 0, 0, 3, 0})
	f.Add([]byte{4, 0, 4, 1, 5, 0, 5, 1, 0, 0, 3, 4, 9, 9})
	foreign, _ := New(Options{Workers: 0})
	f.Cleanup(func() { foreign.Close() })
	alien, _ := foreign.Schedule(Job{})
	f.Fuzz(func(t *testing.T, ops []byte) {
		// Made here: each input runs on a goroutine of its own, and only a
		// pool's owner may Reset it.
		for _, w := range []int{0, 2} {
			p, err := New(Options{Workers: w, MaxJobs: 256})
			if err != nil {
				t.Fatal(err)
			}
			fuzzFrame(t, p, alien, ops)
			p.Close()
		}
	})
}

func fuzzFrame(t *testing.T, p *Pool, alien Handle, ops []byte) {
	var plain, stale []Handle // plain: jobs that never wait, so waits cannot form a cycle
	var lastWaiter *atomic.Pointer[Handle]
	var lastWaiterH Handle
	pick := func(hs []Handle, b byte) (Handle, bool) {
		if len(hs) == 0 {
			return Handle{}, false
		}
		return hs[int(b)%len(hs)], true
	}
	expect := func(err error, codes ...fault.Code) {
		if err == nil {
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("untyped error %v", err)
		}
		for _, c := range codes {
			if e.Code == c {
				return
			}
		}
		t.Fatalf("unexpected error %v", err)
	}
	for i := 0; i+1 < len(ops); i += 2 {
		op, arg := ops[i]%10, ops[i+1]
		switch op {
		case 0, 1: // a plain job, failing for op 1, on up to two prerequisites
			var deps []Handle
			if d, ok := pick(plain, arg); ok && arg&1 == 1 {
				deps = append(deps, d)
			}
			if d, ok := pick(plain, arg>>1); ok && arg&2 == 2 {
				deps = append(deps, d)
			}
			run := func(*Ctx) {}
			if op == 1 {
				run = func(*Ctx) { panic("fuzz") }
			}
			h, err := p.Schedule(Job{Run: run}, deps...)
			expect(err, ErrArenaFull)
			if err == nil {
				plain = append(plain, h)
			}
		case 2:
			if h, ok := pick(plain, arg); ok {
				_, err := p.Cancel(h)
				expect(err)
			}
		case 3:
			if h, ok := pick(plain, arg); ok {
				expect(p.Wait(h), ErrFailed, ErrCancelled, ErrBlocked)
			}
		case 4: // a job that waits on a plain job, or on whatever op 5 gives it
			target := &atomic.Pointer[Handle]{}
			if h, ok := pick(plain, arg); ok {
				target.Store(&h)
			}
			h, err := p.Schedule(Job{Run: func(c *Ctx) {
				if t := target.Load(); t != nil {
					expect(c.Wait(*t), ErrFailed, ErrCancelled, ErrBlocked, ErrWaitCycle, ErrStaleHandle)
				}
			}})
			expect(err, ErrArenaFull)
			if err == nil {
				lastWaiter, lastWaiterH = target, h
			}
		case 5: // a descendant of the last waiter becomes its target
			if lastWaiter == nil {
				continue
			}
			h, err := p.Schedule(Job{}, lastWaiterH)
			expect(err, ErrArenaFull, ErrStaleHandle)
			if err == nil {
				lastWaiter.Store(&h)
			}
		case 6:
			var deps []Handle
			if d, ok := pick(plain, arg); ok {
				deps = append(deps, d)
			}
			h, err := p.ParallelFor(Job{Run: func(*Ctx) {}}, int(arg), 1+int(arg)%5, deps...)
			expect(err, ErrArenaFull)
			if err == nil {
				plain = append(plain, h)
			}
		case 7:
			expect(p.Reset())
			stale, plain, lastWaiter = append(stale, plain...), nil, nil
		case 8:
			if h, ok := pick(stale, arg); ok {
				_, err := p.Schedule(Job{}, h)
				expect(err, ErrStaleHandle)
				if err == nil {
					t.Fatal("a stale handle was accepted")
				}
			}
		case 9:
			_, err := p.Schedule(Job{}, alien)
			if err == nil {
				t.Fatal("a foreign handle was accepted")
			}
			expect(err, ErrForeignHandle)
		}
	}
	expect(p.Reset())
}
