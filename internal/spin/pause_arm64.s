#include "textflag.h"

// func Pause(n uint32)
TEXT ·Pause(SB), NOSPLIT, $0-4
	MOVWU n+0(FP), R0
	CBZ R0, done
again:
	YIELD
	SUBS $1, R0, R0
	BNE again
done:
	RET
