module github.com/weft-engine/weft/bench

go 1.26.0

require (
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/weft-engine/weft v0.0.0
	golang.org/x/sync v0.25.0
)

replace github.com/weft-engine/weft => ../
