package trap

import "strings"

// HeuristicOf reads back which heuristic wrote a Verdict's Reason ("trap NAME: ..."), so that
// exports and dashboards can count URLs by defence without a second copy of the names.
func HeuristicOf(reason string) (Heuristic, bool) {
	rest, ok := strings.CutPrefix(reason, "trap ")
	if !ok {
		return None, false
	}
	name, _, ok := strings.Cut(rest, ":")
	if !ok {
		return None, false
	}
	switch h := Heuristic(name); h {
	case RepeatedSegment, TooManySegments, LongQuery, PageBudgetSpent, Calendar:
		return h, true
	}
	return None, false
}
