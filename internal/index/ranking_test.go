package index

import (
	"slices"
	"testing"
)

// Issue 11, index/ranking.go: among equal text scores, the page whose title is the query wins,
// then the page more pages link to; a much better text score still wins over both.
func TestRerank(t *testing.T) {
	rs := []Result{
		{URL: "mentions", Title: "12.10. psql Support", Score: 7.0, Inlinks: 5},
		{URL: "linked", Title: "Accessing a Database", Score: 6.9, Inlinks: 60},
		{URL: "title", Title: "psql", Score: 6.0, Inlinks: 5},
		{URL: "numbered", Title: "25.1. PSQL", Score: 5.9, Inlinks: 5},
		{URL: "strong", Title: "Everything", Score: 20, Inlinks: 0},
	}
	Rerank(rs, []string{"psql"})
	var got []string
	for _, r := range rs {
		got = append(got, r.URL)
	}
	if want := []string{"strong", "title", "numbered", "linked", "mentions"}; !slices.Equal(got, want) {
		t.Errorf("Rerank order = %q, want %q", got, want)
	}
}

func TestTitleIsQuery(t *testing.T) {
	for title, want := range map[string]bool{
		"VACUUM": true, "20.10. Vacuum": true, "vacuum full": false, "": false, "Chapter 9. vacuum": false,
	} {
		if got := titleIsQuery(title, []string{"vacuum"}); got != want {
			t.Errorf("titleIsQuery(%q) = %v, want %v", title, got, want)
		}
	}
	if !titleIsQuery("Materialized Views", []string{"views", "materialized"}) {
		t.Error("word order should not matter")
	}
}

// Issue 11 item 1, anchor votes: a link votes when its anchor text holds every query word (any
// order, any case, plurals folded); others do not.
func TestAnchorVotes(t *testing.T) {
	anchors := map[string]int{
		"wal_level":                      5,
		"20.5.1. Settings":               3,
		"Foreign Keys":                   2,
		"Remove Foreign Key Constraints": 1,
		"":                               4,
	}
	for q, want := range map[string]int{
		"wal_level":   5,
		"foreign key": 3,
		"key foreign": 3,
		"settings":    3,
		"setting":     3,
		"wal level x": 0,
		"":            0,
	} {
		if got := AnchorVotes(anchors, Query{Text: q}.Parse().Terms()); got != want {
			t.Errorf("AnchorVotes(%q) = %d, want %d", q, got, want)
		}
	}
}

func TestSStem(t *testing.T) {
	for in, want := range map[string]string{
		"keys": "key", "queries": "query", "indexes": "indexe", "status": "status", "class": "class",
		"key": "key", "goes": "goe", "trees": "tree", "types": "type",
	} {
		if got := sStem(in); got != want {
			t.Errorf("sStem(%q) = %q, want %q", in, got, want)
		}
	}
}
