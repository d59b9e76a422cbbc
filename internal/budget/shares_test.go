package budget

import (
	"strings"
	"testing"
)

// issue 29 ("--memory SIZE"): sizes as operators write them; nonsense is an error that says what
// is wanted.
func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"256MiB": 256 << 20, "1GiB": 1 << 30, "512M": 512 << 20, "512m": 512 << 20, "64 MiB": 64 << 20,
		"1073741824": 1 << 30, "100KiB": 100 << 10, "2G": 2 << 30, "128mb": 128 << 20,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1GiB", "1.5GiB", "256 furlongs", "99999999999999GiB", "1e9", "0x10"} {
		if got, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", in, got)
		} else if !strings.Contains(err.Error(), "is not a size") {
			t.Errorf("ParseSize(%q): %v; want it to say it is not a size", in, err)
		}
	}
}

// issue 29: the budget is divided among named consumers. The shares outside each other (the Go
// limit, the page caches, the reserve) add up to no more than the whole, and the shares inside
// the Go limit fit in it; 0 is the default; under MinMemory is refused.
func TestSplit(t *testing.T) {
	for _, total := range []int64{0, MinMemory, 128 << 20, DefaultMemory, 1 << 30, 200<<20 + 12345} {
		s, err := Split(total)
		if err != nil {
			t.Fatalf("Split(%d): %v", total, err)
		}
		if total == 0 && s.Total != DefaultMemory {
			t.Errorf("Split(0).Total = %d, want DefaultMemory", s.Total)
		}
		for _, c := range Consumers {
			if s.Of(c) <= 0 {
				t.Errorf("Split(%d): %s has no share", total, c)
			}
		}
		if out := s.Of(GoHeap) + s.Of(PageCaches) + s.Of(Reserve); out != s.Total {
			t.Errorf("Split(%d): Go limit, page caches and reserve add up to %d, not the whole", total, out)
		}
		if in := s.Of(Bodies) + s.Of(Connections) + s.Of(Frontier); in >= s.Of(GoHeap) {
			t.Errorf("Split(%d): bodies, connections and frontier add up to %d, not within the Go limit %d", total, in, s.Of(GoHeap))
		}
	}
	if s, _ := Split(DefaultMemory); s.Of(GoHeap) != 160<<20 || s.Of(Bodies) != 64<<20 || s.MaxInFlight() != 512 {
		t.Errorf("at 256 MiB: Go limit %d, bodies %d, %d in flight; want 160 MiB, 64 MiB and 512 as documented", s.Of(GoHeap), s.Of(Bodies), s.MaxInFlight())
	}
	if _, err := Split(MinMemory - 1); err == nil || !strings.Contains(err.Error(), "minimum") {
		t.Errorf("Split under MinMemory: %v, want an error naming the minimum", err)
	}
}

// issue 29 (the 10-minute calendar crawl at --memory 128MiB peaked at 141.6 MiB against a bound
// of 140.8): what a crawl process holds outside the Go limit and the page caches, the mapped
// binary and SQLite's other C heap (FixedReserve, measured by crawl's
// TestOutsideTheGoLimitFitsItsShares), does not shrink with the budget, so the reserve holds it
// at every budget, small ones included, beside a part that grows with the budget; and the
// smallest budget accepted still leaves the bodies MinBodies.
func TestReserveHoldsTheFixedCostsAtEveryBudget(t *testing.T) {
	for _, total := range []int64{MinMemory, 128 << 20, 160 << 20, DefaultMemory, 1 << 30} {
		s, err := Split(total)
		if err != nil {
			t.Fatalf("Split(%s): %v", FormatSize(total), err)
		}
		if s.Of(Reserve) < FixedReserve+total/64*reserveOf {
			t.Errorf("Split(%s): reserve %s, under the fixed %s and a %d/64 part", FormatSize(total), FormatSize(s.Of(Reserve)), FormatSize(FixedReserve), reserveOf)
		}
		if s.Of(Bodies) < MinBodies {
			t.Errorf("Split(%s): bodies %s, under MinBodies", FormatSize(total), FormatSize(s.Of(Bodies)))
		}
	}
	if s, _ := Split(128 << 20); s.Of(GoHeap) != 60<<20 || s.Of(Reserve) != 52<<20 || s.Of(PageCaches) != 16<<20 || s.MaxInFlight() != 192 {
		t.Errorf("at 128 MiB: Go limit %s, reserve %s, page caches %s, %d in flight; want 60, 52 and 16 MiB and 192 as documented",
			FormatSize(s.Of(GoHeap)), FormatSize(s.Of(Reserve)), FormatSize(s.Of(PageCaches)), s.MaxInFlight())
	}
	if _, err := Split(MinMemory - 1<<20); err == nil || !strings.Contains(err.Error(), "minimum memory budget of "+FormatSize(MinMemory)) {
		t.Errorf("Split(MinMemory - 1MiB): %v; want an error naming the minimum", err)
	}
}
