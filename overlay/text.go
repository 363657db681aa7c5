package overlay

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Ebiten's debug font: every character, Latin-1 included, is charW by
// lineH pixels.
const charW, lineH = 6, 16

// chars is s's width in characters: runes, not bytes ("µs" is two).
func chars(s string) int { return utf8.RuneCountInString(s) }

// textW is the pixel width of s's longest line.
func textW(s string) int {
	w := 0
	for line := range strings.SplitSeq(s, "\n") {
		w = max(w, chars(line))
	}
	return w * charW
}

// ellipsis is s cut to at most n characters, ending in "..." where cut.
func ellipsis(s string, n int) string {
	if chars(s) <= n {
		return s
	}
	if n <= 3 {
		return strings.Repeat(".", max(n, 0))
	}
	r := []rune(s)
	return string(r[:n-3]) + "..."
}

// wrap breaks s into lines of at most n characters: at spaces where it
// can, inside a word longer than a line (a path) where it must. Past
// maxLines the last line ends in "...". Newlines in s start new lines.
func wrap(s string, n, maxLines int) []string {
	n = max(n, 4)
	var lines []string
	for para := range strings.SplitSeq(s, "\n") {
		lines = wrapLine(lines, []rune(para), n)
	}
	if maxLines > 0 && len(lines) > maxLines {
		last := lines[maxLines-1]
		lines = lines[:maxLines]
		lines[maxLines-1] = ellipsis(last+"    ", n) // always cut: more follows
	}
	return lines
}

// wrapLine appends r's lines of at most n runes to lines.
func wrapLine(lines []string, r []rune, n int) []string {
	for len(r) > n {
		cut := n
		for i := n; i > n/2; i-- { // the last space in the line's second half
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		lines = append(lines, strings.TrimRight(string(r[:cut]), " "))
		r = r[cut:]
		for len(r) > 0 && r[0] == ' ' {
			r = r[1:]
		}
	}
	return append(lines, string(r))
}

// dur is a time in nanoseconds as text: ms above a millisecond, µs above
// a microsecond, else ns, so that a short span never reads "0.000 ms".
func dur(ns float64) string {
	switch a := max(ns, -ns); {
	case a >= 1e6:
		return fmt.Sprintf("%.3f ms", ns/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

// fitLines is s with each line cut to n characters.
func fitLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = ellipsis(lines[i], n)
	}
	return strings.Join(lines, "\n")
}

// count is n and the noun, plural unless n is 1: "1 worker", "3 jobs".
func count[N ~int | ~int32 | ~int64 | ~uint64](n N, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprint(n) + " " + noun + "s"
}
