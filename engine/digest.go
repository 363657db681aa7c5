package engine

import (
	"github.com/weft-engine/weft/ecs"
)

// SystemDigest is a digest of what one system wrote in a step, whatever
// the worker count and batch size: the rows of the components its
// queries declare written, the rows it reached through write lookups,
// the resources it declares written as its Merge left them, and the
// commands it issued, in playback order; for an exclusive system, the
// whole world (every entity, component and resource) after its Run. Two
// runs of the same inputs have equal digests system by system; the first
// system whose digest differs is the first whose writes differ.
type SystemDigest struct {
	System string
	Sum    uint64
}

// digests are the per-system digests of the last step, in built order,
// and the rows behind them under ecs.DigestCapture.
type digests struct {
	mode ecs.DigestMode
	last []SystemDigest
	rows [][]ecs.Written // by system, as last
}

// SetDigests sets what the next steps keep of the systems' writes:
// ecs.DigestOn a digest per system (Digests), ecs.DigestCapture also
// every written row (Written), which is slow and for finding a
// divergence. Executed only by the owner, between steps.
func (e *Engine) SetDigests(m ecs.DigestMode) error {
	if m > ecs.DigestCapture {
		return errorf(ErrBadConfig, "", nil, "SetDigests(%d): use ecs.DigestOff, ecs.DigestOn or ecs.DigestCapture", m)
	}
	if err := e.inside.SetDigests(uint8(m)); err != nil {
		return errorf(ErrOrder, "", err, "SetDigests during a step; call it between steps")
	}
	e.dig.mode = m
	return nil
}

// Digests are the last step's per-system digests, in the order the
// systems ran: segment by segment, its exclusive systems, then its other
// systems in built order. A system that did not run has 0. Empty with
// digests off. Valid until the next step. Executed only by the owner,
// between steps.
func (e *Engine) Digests() []SystemDigest { return e.dig.last }

// Written is what system wrote in the last step, row by row, sorted by
// entity and then component, when the step ran under ecs.DigestCapture;
// nil otherwise or for a system of no such name. Valid until the next
// step. Executed only by the owner, between steps.
func (e *Engine) Written(system string) []ecs.Written {
	for i, d := range e.dig.last {
		if d.System == system && i < len(e.dig.rows) {
			return e.dig.rows[i]
		}
	}
	return nil
}

// takeDigests gathers the step's digests from the systems' declarations.
// Executed only by the owner, at the end of a step.
func (e *Engine) takeDigests() {
	d := &e.dig
	d.last, d.rows = d.last[:0], d.rows[:0]
	if d.mode == ecs.DigestOff {
		return
	}
	for seg := range e.sched.nseg {
		for _, x := range e.sched.excl {
			if x.seg == seg {
				d.add(x.name, x.xsum, x.xrows)
			}
		}
		for _, en := range e.sched.par {
			if en.seg == seg {
				sum, rows := e.inside.TakeDigest(en.decl)
				d.add(en.name, sum, rows)
			}
		}
	}
}

// add appends one system's digest, and its rows under capture.
func (d *digests) add(name string, sum uint64, rows []ecs.Written) {
	d.last = append(d.last, SystemDigest{System: name, Sum: sum})
	if d.mode == ecs.DigestCapture {
		d.rows = append(d.rows, rows)
	}
}

// digestExclusive keeps exclusive system x's digest, of the whole world
// after its Run. Executed only by the owner, right after the Run.
func (e *Engine) digestExclusive(x *entry) {
	if e.dig.mode == ecs.DigestOff {
		return
	}
	x.xsum, x.xrows = e.inside.DigestAll()
}

// StepHook is told of every fixed step, by Step and Tick alike: a
// recorder keeps what entered the step and what it left (package
// replay). Its methods are executed only by the owner, inside the step
// (the engine is busy: they call no Step, Tick or Close).
type StepHook interface {
	// BeforeStep runs before anything of the step: the resources hold
	// what the game set for it.
	BeforeStep(e *Engine)
	// AfterStep runs once the step is published, with its error.
	AfterStep(e *Engine, err error)
}

// SetStepHook makes h the engine's step hook (nil: none). Executed only
// by the owner, between steps.
func (e *Engine) SetStepHook(h StepHook) { e.hook = h }
