package netplay

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/internal/fault"
)

var testKey = DefaultKey(42)

// samplePackets are one packet of each kind and section, for the tests and
// the fuzz corpus.
func samplePackets() map[string][]byte {
	data := &Packet{Kind: KindData, Session: 42, From: 1, Seq: 7, Data: Data{Frame: 12, Advance: -1, Ping: 1000, Echo: 900, Hold: 50,
		Ack: 10, Stride: 3, InStart: 11, Inputs: []byte{1, 2, 3, 1, 2, 3, 1, 2, 4, 0, 0, 0}, Players: []PlayerStatus{{Frame: 11}, {Gone: true, Frame: 9}},
		Digests: []StepDigest{{Frame: 0, Hash: 99}}, Detail: &Detail{Frame: 0, Sums: []uint64{1, 2}},
		Query: &RowQuery{Frame: 0, System: 1, Lo: 0, Hi: 100},
		Answer: &RowAnswer{RowQuery: RowQuery{Frame: 0, System: 1, Lo: 4, Hi: 6},
			Rows: []Row{{ID: 3, Gen: 0, Component: "Body", Sum: 5, Value: "{X:1}"}}}}}
	return map[string][]byte{
		"hello": AppendPacket(nil, &Packet{Kind: KindHello, Session: 42, From: 1, Seq: 1, Hello: Hello{Game: 5, Players: 2, InputSize: 3, StepNs: 16666666}}, testKey),
		"data":  AppendPacket(nil, data, testKey),
		"steady": AppendPacket(nil, &Packet{Kind: KindData, Session: 42, From: 1, Seq: 8, Data: Data{Frame: 200, Advance: 1, Ack: 201,
			Stride: 3, InStart: 199, Inputs: []byte{0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 1}}}, testKey),
		"bye":   AppendPacket(nil, &Packet{Kind: KindBye, Session: 42, From: 1, Seq: 9}, testKey),
		"spect": AppendPacket(nil, &Packet{Kind: KindData, Session: 42, From: spectatorFrom, Seq: 3, Data: Data{Ack: -1, Stride: 4, AllStart: 0, All: []byte{1, 0, 0, 1, 1, 0, 0, 1}}}, testKey),
	}
}

func newTestReader() *Reader { return NewReader(42, testKey, []string{"", "b"}) }

func TestReaderRoundTrip(t *testing.T) {
	for name, b := range samplePackets() {
		p, err := newTestReader().Read(b, "b", 12)
		require.NoError(t, err, name)
		assert.Equal(t, b, AppendPacket(nil, p, testKey), name)
	}
}

func TestReaderRefuses(t *testing.T) {
	data := samplePackets()["data"]
	flip := func(i int) []byte { b := append([]byte(nil), data...); b[i] ^= 1; return b }
	other := AppendPacket(nil, &Packet{Kind: KindBye, Session: 43, From: 1, Seq: 1}, testKey)
	farSeq := AppendPacket(nil, &Packet{Kind: KindBye, Session: 42, From: 1, Seq: 1 << 20}, testKey)
	far := AppendPacket(nil, &Packet{Kind: KindData, Session: 42, From: 1, Seq: 8, Data: Data{Frame: 5000}}, testKey)
	for _, c := range []struct {
		name string
		b    []byte
		from string
		code fault.Code
	}{
		{"empty", nil, "b", ErrMalformed},
		{"truncated", data[:len(data)-9], "b", ErrForged}, // the tag no longer checks
		{"header only", data[:headerLen], "b", ErrMalformed},
		{"magic", flip(0), "b", ErrMalformed},
		{"version", flip(2), "b", ErrMalformed},
		{"a changed byte", flip(30), "b", ErrForged},
		{"the tag", flip(len(data) - 1), "b", ErrForged},
		{"another session", other, "b", ErrForged},
		{"another address", data, "c", ErrForged},
		{"too long", make([]byte, MaxPacket+1), "b", ErrMalformed},
		{"far sequence", farSeq, "b", ErrFarFuture},
		{"far step", far, "b", ErrFarFuture},
	} {
		r := newTestReader()
		_, err := r.Read(c.b, c.from, 10)
		var e *Error
		require.True(t, errors.As(err, &e), "%s: %v", c.name, err)
		assert.Equal(t, c.code, e.Code, "%s: %v", c.name, err)
		assert.Equal(t, 1, r.Refused(c.code), c.name)
	}
	r := newTestReader()
	_, err := r.Read(data, "b", 12)
	require.NoError(t, err)
	_, err = r.Read(data, "b", 12)
	assert.ErrorIs(t, err, ErrReplayed, "the same packet again")
	for s := uint32(8); s < 80; s++ {
		_, err = r.Read(AppendPacket(nil, &Packet{Kind: KindBye, Session: 42, From: 1, Seq: s}, testKey), "b", 12)
		require.NoError(t, err)
	}
	_, err = r.Read(AppendPacket(nil, &Packet{Kind: KindBye, Session: 42, From: 1, Seq: 6}, testKey), "b", 12)
	assert.ErrorIs(t, err, ErrReplayed, "older than the window")
	assert.Equal(t, 2, r.Refused(ErrReplayed))
}

// Whatever a session puts in a data packet comes out of the reader the
// same: random steps and stamps, inputs of every stride that repeat, change
// a byte or change whole, all the sections or none.
func TestPacketFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 7))
	for it := range 2000 {
		frame := rng.Int32N(1 << 30)
		if it%3 == 0 {
			frame = rng.Int32N(300)
		}
		d := Data{Frame: frame, Advance: int16(rng.IntN(2001) - 1000), Ack: frame - 40 + rng.Int32N(80)}
		d.Ack = max(d.Ack, -1)
		if it%2 == 0 {
			d.Ping, d.Echo, d.Hold = 1+rng.Uint32N(stampMask), 1+rng.Uint32N(stampMask), uint16(rng.Uint32())
		}
		stride := 1 + rng.IntN(40)
		d.Stride = uint16(stride)
		inputs := func() []byte {
			n := 1 + rng.IntN(maxInputRun)
			if n*stride > 350 { // two sections of the worst case (every other byte 0) fit MaxPacket
				n = max(1, 350/stride)
			}
			b := make([]byte, 0, n*stride)
			cur := make([]byte, stride)
			for range n {
				switch rng.IntN(4) {
				case 0: // a new input
					for i := range cur {
						cur[i] = byte(rng.IntN(3) * rng.IntN(256))
					}
				case 1: // a byte changes
					cur[rng.IntN(stride)] = byte(rng.Uint32())
				}
				b = append(b, cur...)
			}
			return b
		}
		if it%4 != 3 {
			d.InStart, d.Inputs = max(0, frame-rng.Int32N(70)), inputs()
		}
		if it%5 == 0 {
			d.AllStart, d.All = rng.Int32N(1<<20), inputs()
		}
		if it%7 == 0 {
			d.Players = []PlayerStatus{{Frame: frame + 2}, {Gone: true, Frame: frame - 9}, {Frame: -1}}
			d.Digests = []StepDigest{{Frame: frame - 30, Hash: rng.Uint64()}, {Frame: frame, Hash: rng.Uint64()}}
		}
		p := &Packet{Kind: KindData, Session: 42, From: 1, Seq: uint32(it + 1), Data: d}
		b := AppendPacket(nil, p, testKey)
		require.LessOrEqual(t, len(b), MaxPacket, "iteration %d", it)
		r := newTestReader()
		r.FarAhead = math.MaxInt32 - frame
		got, err := r.Read(b, "b", frame)
		require.NoError(t, err, "iteration %d: %+v", it, d)
		if len(d.Inputs) == 0 && len(d.All) == 0 {
			d.Stride = 0
		}
		require.Equal(t, d, got.Data, "iteration %d", it)
	}
}

// A stride longer than the buffer of zeros appendRun keeps (a spectator's
// steps of four large inputs) codes and reads the same.
func TestPacketLongStride(t *testing.T) {
	for _, stride := range []int{255, 256, 257, 1028, 4096} {
		in := make([]byte, stride)
		in[0], in[stride/2], in[stride-1] = 1, 2, 3
		d := Data{Frame: 9, Ack: 8, Stride: uint16(stride), InStart: 9, Inputs: in}
		b := AppendPacket(nil, &Packet{Kind: KindData, Session: 42, From: 1, Seq: 1, Data: d}, testKey)
		p, err := newTestReader().Read(b, "b", 9)
		require.NoError(t, err, "stride %d", stride)
		assert.Equal(t, d, p.Data, "stride %d", stride)
	}
}

// A malformed field inside a payload whose tag checks (a peer's bug) is
// refused too: every length and flag is checked.
func TestReaderFields(t *testing.T) {
	data := samplePackets()["data"]
	body := append([]byte(nil), data[:len(data)-tagLen]...)
	for i := headerLen; i < len(body); i++ {
		for _, v := range []byte{0xFF, 0x80, 2} {
			b := append([]byte(nil), body...)
			b[i] = v
			b = append(b, tag(testKey, b)...)
			p, err := newTestReader().Read(b, "b", 12)
			if err != nil {
				var e *Error
				require.True(t, errors.As(err, &e))
				assert.Contains(t, []fault.Code{ErrMalformed, ErrFarFuture}, e.Code, "byte %d = %d: %v", i, v, err)
			} else {
				require.NotNil(t, p)
			}
		}
	}
}

// FuzzReader: whatever arrives, the reader returns a packet or a typed
// error, never panics, and a packet it accepts encodes back to the bytes.
func FuzzReader(f *testing.F) {
	for _, b := range samplePackets() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		read(t, b)
		if len(b) > tagLen { // the body tagged anew: the fields are what is fuzzed
			body := b[:len(b)-tagLen]
			read(t, append(append([]byte(nil), body...), tag(testKey, body)...))
		}
	})
}

// read reads b as a packet from player 1 and checks the outcome.
func read(t *testing.T, b []byte) {
	r := newTestReader()
	p, err := r.Read(b, "b", 100)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("an untyped error: %v", err)
		}
		if r.RefusedTotal() != 1 {
			t.Fatalf("a refusal not counted: %v", err)
		}
		return
	}
	if again := AppendPacket(nil, p, testKey); string(again) != string(b) {
		t.Fatalf("accepted %x, which encodes back as %x", b, again)
	}
}

// WEFT_NETPLAY_CORPUS=1 go test -run TestWriteCorpus writes the committed
// seed corpus of FuzzReader (each sample whole, truncated, and with a
// byte changed).
func TestWriteCorpus(t *testing.T) {
	if os.Getenv("WEFT_NETPLAY_CORPUS") == "" {
		t.Skip("writes testdata/fuzz/FuzzReader; set WEFT_NETPLAY_CORPUS=1")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzReader")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, b := range samplePackets() {
		cut := append([]byte(nil), b[:len(b)/2]...)
		changed := append([]byte(nil), b...)
		changed[len(b)/2] ^= 0x40
		for suffix, v := range map[string][]byte{"": b, "-truncated": cut, "-changed": changed} {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", v)
			require.NoError(t, os.WriteFile(filepath.Join(dir, name+suffix), []byte(body), 0o644))
		}
	}
}
