package store

import "testing"

// Issue 26 part 2: anchor text is rewritten at the powers of two up and down, and at 0.
func TestAnchorsDueAtPowersOfTwo(t *testing.T) {
	for _, c := range []struct {
		at, count int
		due       bool
	}{
		{0, 0, false}, {0, 1, true}, {1, 0, true}, {1, 1, false}, {1, 2, true},
		{4, 7, false}, {4, 8, true}, {4, 3, false}, {4, 2, true}, {8, 15, false}, {8, 16, true},
	} {
		if got := AnchorsDue(c.at, c.count); got != c.due {
			t.Errorf("AnchorsDue(%d, %d) = %v, want %v", c.at, c.count, got, c.due)
		}
	}
}
