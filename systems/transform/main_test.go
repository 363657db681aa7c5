package transform_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Every test closes what it starts: no pool's workers outlive the tests.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
