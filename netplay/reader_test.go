package netplay

import (
	"errors"
	"fmt"
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
		Ack: 10, InStart: 11, Inputs: []byte{1, 2, 3, 4, 5, 6}, Players: []PlayerStatus{{Frame: 11}, {Gone: true, Frame: 9}},
		Digests: []StepDigest{{Frame: 0, Hash: 99}}, Detail: &Detail{Frame: 0, Sums: []uint64{1, 2}},
		Query: &RowQuery{Frame: 0, System: 1, Lo: 0, Hi: 100},
		Answer: &RowAnswer{RowQuery: RowQuery{Frame: 0, System: 1, Lo: 4, Hi: 6},
			Rows: []Row{{ID: 3, Gen: 0, Component: "Body", Sum: 5, Value: "{X:1}"}}}}}
	return map[string][]byte{
		"hello": AppendPacket(nil, &Packet{Kind: KindHello, Session: 42, From: 1, Seq: 1, Hello: Hello{Game: 5, Players: 2, InputSize: 3, StepNs: 16666666}}, testKey),
		"data":  AppendPacket(nil, data, testKey),
		"bye":   AppendPacket(nil, &Packet{Kind: KindBye, Session: 42, From: 1, Seq: 9}, testKey),
		"spect": AppendPacket(nil, &Packet{Kind: KindData, Session: 42, From: spectatorFrom, Seq: 3, Data: Data{Ack: -1, AllStart: 0, All: []byte{1, 2, 3}}}, testKey),
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
