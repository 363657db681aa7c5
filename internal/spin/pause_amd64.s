#include "textflag.h"

// func Pause(n uint32)
TEXT ·Pause(SB), NOSPLIT, $0-4
	MOVL n+0(FP), AX
	TESTL AX, AX
	JZ done
again:
	PAUSE
	DECL AX
	JNZ again
done:
	RET
