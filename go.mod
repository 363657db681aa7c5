module github.com/weft-engine/weft

go 1.26
