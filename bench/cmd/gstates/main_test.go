package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	in := `M=1 P=0 G=-1 StateTransition Time=1000000 ProcID=0 Undetermined->Running Reason=""
M=1 P=0 G=1 StateTransition Time=1000000 GoID=7 Runnable->Running Reason=""
M=1 P=0 G=7 StateTransition Time=3000000 GoID=7 Running->Runnable Reason=""
M=1 P=0 G=-1 StateTransition Time=3000000 ProcID=0 Running->Idle Reason=""
M=1 P=0 G=-1 StateTransition Time=7000000 ProcID=0 Idle->Running Reason=""
M=1 P=0 G=1 StateTransition Time=7000000 GoID=7 Runnable->Running Reason=""
M=1 P=0 G=7 StateTransition Time=8000000 GoID=7 Running->Waiting Reason=""
`
	var out strings.Builder
	if err := run(strings.NewReader(in), &out, "7"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"G7: Running 3.0 ms Runnable 4.0 ms; 4 changes\n", "P0: Running 2.0 ms Idle 4.0 ms; 3 changes\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
