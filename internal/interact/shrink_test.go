package interact

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weft-engine/weft/ecs"
	"github.com/weft-engine/weft/engine"
)

// A kind made to break the determinism rule on purpose (it writes the
// length of its chunk, which the batch decides) fails the check, and the failure is shrunk to one part of
// that kind, with the seed and the parts to reproduce it.
func TestShrinkNamesTheBrokenPart(t *testing.T) {
	saved := kinds[KHeat].make
	defer func() { kinds[KHeat].make = saved }()
	kinds[KHeat].make = func(s *scene, p Part) error {
		var heat ecs.Writer[Heat]
		return s.chunks(p, false, func(b *engine.Builder, d *ecs.Decl) (engine.Query, func(*ecs.Chunk)) {
			heat = ecs.Write[Heat](d)
			return ecs.NewQuery1(d, heat), func(c *ecs.Chunk) {
				for i := range heat.Column(c) {
					heat.Column(c)[i].V += int64(c.Len()) // the mistake: the batch decides
				}
			}
		})
	}
	var seed uint64
	for seed = 1; !hasKind(Generate(seed), KHeat); seed++ {
	}
	configs := []RunConfig{{Workers: 0, Batch: 1}}
	err := CheckSeed(seed, nil, configs)
	var f *Failure
	require.True(t, errors.As(err, &f), "%v", err)
	require.Len(t, f.Game.Parts, 1, "%v", f)
	require.Equal(t, KHeat, f.Game.Parts[0].Kind)
	require.Contains(t, f.Error(), "reproduce: go test ./internal/interact -run 'TestScene$' -seed ")
	require.True(t, strings.HasSuffix(f.Error(), "-keep "+strconv.Itoa(f.Game.Parts[0].Index)), f.Error())
}

func hasKind(g *Game, k Kind) bool {
	for _, p := range g.Parts {
		if p.Kind == k {
			return true
		}
	}
	return false
}
