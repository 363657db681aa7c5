package netplay

// Replay runs the confirmed steps of a session's log (Session.Confirmed)
// into g, a game made as the session's was before its first step, each
// with its logged inputs, and checks each step's world digest against the
// log: an offline replay of what the peers agreed on. A step that differs
// is a WEFT-N008 error whose Report names the step (the session's, from
// 0) and both digests. Executed only by g's owner, between steps.
func Replay[I comparable](g Game, in *Inputs[I], log []Confirmed[I]) error {
	for f := range log {
		c := &log[f]
		in.In, in.Status = c.In, c.Status
		if err := g.Tick(); err != nil {
			return errorf(ErrSimulation, err, "replaying step %d", f)
		}
		h, err := g.Digest()
		if err != nil {
			return errorf(ErrSimulation, err, "the world digest after step %d", f)
		}
		if h != c.Hash {
			return &Error{Code: ErrDiverged, Msg: "the replay of the confirmed inputs differs from the session",
				Detail: &Report{Step: uint64(f), Peer: -1, LocalHash: c.Hash, RemoteHash: h}}
		}
	}
	return nil
}
