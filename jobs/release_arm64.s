//go:build !race

#include "textflag.h"

// func storeRelease32(addr *uint32, v uint32)
TEXT ·storeRelease32(SB), NOSPLIT, $0-12
	MOVD addr+0(FP), R0
	MOVWU v+8(FP), R1
	STLRW R1, (R0)
	RET
