package index

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Query syntax never reaches the full-text engine: quotes, operators and column filters are
// separators.
func TestTermsNeutraliseSyntax(t *testing.T) {
	for in, want := range map[string][]string{
		"Sourdough Bread":               {"sourdough", "bread"},
		`"rye" OR title:NEAR(x* y)`:     {"rye", "or", "title", "near", "x", "y"},
		"crème brûlée  crème":           {"crème", "brûlée"},
		"<script>alert(1)</script>":     {"script", "alert", "1"},
		"fractal-art\x00gallery\xff":    {"fractal", "art", "gallery"},
		strings.Repeat("a ", 40) + "zz": {"a", "zz"},
	} {
		got, err := Terms(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Terms(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Terms(" ;-) \"\" "); !errors.Is(err, ErrEmptyQuery) {
		t.Errorf("no words: %v", err)
	}
	many := strings.Repeat("w", 3) + strings.Repeat(" x1 x2 x3 x4 x5 x6 x7 x8 x9 y1 y2 y3 y4 y5 y6 y7 y8", 2)
	if got, _ := Terms(many); len(got) != MaxQueryTerms {
		t.Errorf("%d terms, want the cap %d", len(got), MaxQueryTerms)
	}
}

func TestClamp(t *testing.T) {
	q := Query{Limit: 10_000, Offset: -5}.Clamp()
	if q.Limit != MaxLimit || q.Offset != 0 {
		t.Fatalf("%+v", q)
	}
	if q := (Query{}).Clamp(); q.Limit != DefaultLimit {
		t.Fatalf("%+v", q)
	}
}
