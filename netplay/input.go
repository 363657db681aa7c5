package netplay

import (
	"encoding/binary"
	"fmt"

	"github.com/weft-engine/weft/engine"
)

// Game is what a session steps: the game's engine, one fixed step of it
// (the game's own work between steps, then engine.Engine.Tick) and the
// digest of its world after a step. A replay.Sim is one.
type Game interface {
	Engine() *engine.Engine
	Tick() error
	Digest() (uint64, error)
}

// Status is what a player is in a step.
type Status uint8

// The statuses.
const (
	Absent  Status = iota // no such player in the session
	Playing               // its input is in In
	Gone                  // left or timed out: its In is the zero input from its last step on
)

func (s Status) String() string {
	switch s {
	case Absent:
		return "absent"
	case Playing:
		return "playing"
	case Gone:
		return "gone"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// Inputs is the resource that carries every player's input into a step:
// the game adds it to its world (ecs.AddResource) before Build and its
// systems read it (ecs.ReadRes); the session sets it before every step,
// with the confirmed inputs or, for a remote player not heard from yet,
// a prediction. I is the game's input, plain data of a fixed size
// (encoding/binary's: sized integers, floats, bools, arrays and structs of
// them), comparable so that a prediction can be checked.
type Inputs[I comparable] struct {
	In     [MaxPlayers]I
	Status [MaxPlayers]Status
}

// codec encodes inputs as encoding/binary does, little endian.
type codec[I comparable] struct{ size int }

func newCodec[I comparable]() (codec[I], error) {
	var zero I
	n := binary.Size(zero)
	if n <= 0 {
		return codec[I]{}, errorf(ErrBadConfig, nil, "the input type %T is not plain data of a fixed size (encoding/binary.Size is %d): use sized integers, floats, bools, arrays and structs of them", zero, n)
	}
	if n > 256 {
		return codec[I]{}, errorf(ErrBadConfig, nil, "the input type %T takes %d bytes; at most 256: send what the player did, not the state", zero, n)
	}
	return codec[I]{n}, nil
}

func (c codec[I]) append(dst []byte, in I) []byte {
	out, err := binary.Append(dst, binary.LittleEndian, in)
	if err != nil {
		panic(err) // newCodec checked the type
	}
	return out
}

func (c codec[I]) decode(b []byte) I {
	var in I
	if _, err := binary.Decode(b, binary.LittleEndian, &in); err != nil {
		panic(err) // b is c.size bytes
	}
	return in
}
