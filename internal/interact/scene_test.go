package interact

import (
	"flag"
	"strconv"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/weft-engine/weft/internal/fuzzcrash"
)

var (
	seedFlag     = flag.Uint64("seed", 0, "check only the game of this seed (TestScene)")
	keepFlag     = flag.String("keep", "", "with -seed: keep only these parts, by index (1,4,7), or none")
	entitiesFlag = flag.Int("entities", 0, "with -seed: the entities the game starts with (0: as generated)")
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// sceneSeeds are the seeds `make test` checks: between them every pair
// of kinds meets in one game (TestSceneSeedsMeetEveryPair), and two of
// them chain chunks.
var sceneSeeds = []uint64{119, 131, 374, 51, 176, 1}

// TestScene checks generated games that use every feature at once against
// the serial executor: every worker count and batch, every detour, the
// recording replayed. -seed N (and -keep) checks one game.
func TestScene(t *testing.T) {
	seeds := sceneSeeds
	if *seedFlag != 0 {
		seeds = []uint64{*seedFlag}
	}
	var keep []int
	if *keepFlag == "none" {
		keep = []int{}
	} else if *keepFlag != "" {
		for _, f := range strings.Split(*keepFlag, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatalf("-keep %q: %v", *keepFlag, err)
			}
			keep = append(keep, i)
		}
	}
	for _, seed := range seeds {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			g := Generate(seed)
			if *entitiesFlag > 0 {
				g.Entities = *entitiesFlag
			}
			if keep != nil || *keepFlag == "none" {
				g = g.Keep(keep)
			}
			if err := CheckGame(g); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// FuzzScene checks the game of any seed; CI fuzzes it for a bounded time
// (make fuzz-ci), starting from two seeds besides TestScene's.
func FuzzScene(f *testing.F) {
	fuzzcrash.Keep()
	f.Add(uint64(100))
	f.Add(uint64(2026))
	f.Fuzz(func(t *testing.T, seed uint64) {
		if err := CheckSeed(seed, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// Every pair of kinds (features) runs at once in one of sceneSeeds' games,
// and some of those games chain chunks.
func TestSceneSeedsMeetEveryPair(t *testing.T) {
	met, chained := map[[2]Kind]bool{}, 0
	for _, seed := range sceneSeeds {
		g := Generate(seed)
		if g.Chain {
			chained++
		}
		for _, a := range g.Parts {
			for _, b := range g.Parts {
				met[[2]Kind{a.Kind, b.Kind}] = true
			}
		}
	}
	for a := range numKinds {
		for b := range numKinds {
			if a != b && !met[[2]Kind{a, b}] {
				t.Errorf("%s and %s meet in none of the games of sceneSeeds", a, b)
			}
		}
	}
	if chained < 2 {
		t.Errorf("%d of sceneSeeds' games chain chunks", chained)
	}
}
