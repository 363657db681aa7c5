module github.com/weft-engine/weft/bench

go 1.26.0

require (
	github.com/akmonengine/volt v1.7.0
	github.com/marioolofo/go-gameengine-ecs v0.9.0
	github.com/mlange-42/arche v0.15.3
	github.com/mlange-42/ark v0.8.3
	github.com/panjf2000/ants/v2 v2.12.1
	github.com/stretchr/testify v1.12.1
	github.com/unitoftime/ecs v0.0.3
	github.com/weft-engine/weft v0.0.0
	github.com/yohamta/donburi v1.15.7
	golang.org/x/sync v0.25.0
	gonum.org/v1/plot v0.17.0
)

require (
	github.com/unitoftime/cod v0.0.0-20240909130117-f553b1d09d22 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/fxamacker/cbor/v2 v2.10.0 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)

replace github.com/weft-engine/weft => ../
