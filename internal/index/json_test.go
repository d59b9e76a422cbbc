package index

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// A page's notes (the query language's fallback and dropped words, issue 11: bad syntax "falls
// back to plain words and says so") reach the JSON of `search --json` and the API, always as an
// array, so that clients need not tell a missing field from an empty one.
func TestJSONOfCarriesNotes(t *testing.T) {
	note := Parse(`vacuum "full`).Notes
	j := JSONOf(Page{Query: `vacuum "full`, Notes: note})
	if !slices.Equal(j.Notes, note) || len(note) != 1 {
		t.Errorf("notes %q, want %q", j.Notes, note)
	}
	b, err := json.Marshal(JSONOf(Page{}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"notes":[]`) {
		t.Errorf("no empty notes array in %s", b)
	}
}

// Issue 11 item 5: the JSON says when total is a lower bound (a field added to the contract; it
// is always present, false when the count is exact).
func TestJSONOfSaysTotalIsALowerBound(t *testing.T) {
	for _, p := range []Page{{Total: MaxCount, TotalIsLowerBound: true}, {Total: 3}} {
		b, err := json.Marshal(JSONOf(p))
		if err != nil {
			t.Fatal(err)
		}
		want := `"total":3,"total_is_lower_bound":false`
		if p.TotalIsLowerBound {
			want = `"total":2000,"total_is_lower_bound":true`
		}
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON %s lacks %s", b, want)
		}
	}
}

// Issue 32, all words but one (relax.go): the words a search left out reach the JSON as
// "missing", a field added to the contract, always an array.
func TestJSONOfCarriesMissing(t *testing.T) {
	for _, c := range []struct {
		missing []string
		want    string
	}{{[]string{"pages"}, `"missing":["pages"]`}, {nil, `"missing":[]`}} {
		b, err := json.Marshal(JSONOf(Page{Missing: c.missing}))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.want) {
			t.Errorf("JSON of a page missing %q: %s, want %s", c.missing, b, c.want)
		}
	}
}
