package trap

import "testing"

// issue 9: export and the dashboard show which defence rejected a URL; HeuristicOf reads it back
// from the reason the verdict wrote, for every heuristic, and nothing from other reasons.
func TestHeuristicOfReadsTheReasonBack(t *testing.T) {
	for _, v := range []Verdict{
		Check("/a/a/a/a/a", ""),
		Check("/x", string(make([]byte, MaxQueryLength+1))),
		NewPageBudget(0).Verdict("http://a.test"),
	} {
		if !v.Rejected() && v.Heuristic != PageBudgetSpent {
			continue
		}
		if h, ok := HeuristicOf(v.Reason); !ok || h != v.Heuristic {
			t.Errorf("HeuristicOf(%q) = %q, %v; want %q", v.Reason, h, ok, v.Heuristic)
		}
	}
	for _, r := range []string{"", "host x is outside --scope host", "trap", "trap unknown-thing: x", "trapdoor: x"} {
		if h, ok := HeuristicOf(r); ok {
			t.Errorf("HeuristicOf(%q) = %q, want none", r, h)
		}
	}
}
