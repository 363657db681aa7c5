package overlay

import (
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
)

// keyName is the first of keys' names, as the overlay's texts say it.
func keyName(keys []ebiten.Key) string {
	if len(keys) == 0 {
		return "?"
	}
	return keys[0].String()
}

// keyNames are all of keys' names, for the help.
func keyNames(keys []ebiten.Key) string {
	s := make([]string, len(keys))
	for i, k := range keys {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}

func utoa(n uint64) string { return strconv.FormatUint(n, 10) }
