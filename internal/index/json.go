package index

import (
	"strings"
	"time"
)

// PageJSON is the JSON form of a result page, shared by `mandelbot search --json` and the
// web API (GET /api/search). Its field names are part of the command-line contract: they only
// ever grow.
type PageJSON struct {
	Query string   `json:"query"`
	Terms []string `json:"terms"`
	Total int      `json:"total"`
	// TotalIsLowerBound: there are at least Total matches (Page.TotalIsLowerBound).
	TotalIsLowerBound bool         `json:"total_is_lower_bound"`
	Offset            int          `json:"offset"`
	Results           []ResultJSON `json:"results"`
	Notes             []string     `json:"notes"` // Page.Notes; never null
	// Missing: the words left out of the search (Page.Missing); never null.
	Missing []string `json:"missing"`
}

// ResultJSON is one result of PageJSON.
type ResultJSON struct {
	URL       string     `json:"url"`
	Title     string     `json:"title"`
	Snippet   string     `json:"snippet"`
	Spans     []SpanJSON `json:"snippet_spans"`
	LinkOnly  bool       `json:"link_only"`
	Reason    string     `json:"reason"`
	Why       string     `json:"why"`
	State     string     `json:"state"`
	Status    int        `json:"status,omitempty"`
	FetchedAt *time.Time `json:"fetched_at,omitempty"`
	Inlinks   int        `json:"inlinks"`
	Score     float64    `json:"score"`
}

// SpanJSON is one span of a snippet; Match marks matched words.
type SpanJSON struct {
	Text  string `json:"text"`
	Match bool   `json:"match,omitempty"`
}

// JSONOf converts a result page to its JSON form.
func JSONOf(p Page) PageJSON {
	out := PageJSON{Query: p.Query, Terms: p.Terms, Total: p.Total, TotalIsLowerBound: p.TotalIsLowerBound, Offset: p.Offset, Results: []ResultJSON{}}
	if out.Terms == nil {
		out.Terms = []string{}
	}
	out.Notes = append([]string{}, p.Notes...)
	out.Missing = append([]string{}, p.Missing...)
	for _, r := range p.Results {
		j := ResultJSON{URL: r.URL, Title: r.Title, LinkOnly: r.LinkOnly, Reason: r.Reason, Why: r.Why,
			State: r.State, Status: r.Status, Inlinks: r.Inlinks, Score: r.Score, Spans: []SpanJSON{}}
		if !r.FetchedAt.IsZero() {
			t := r.FetchedAt.UTC()
			j.FetchedAt = &t
		}
		var sb strings.Builder
		for _, s := range r.Snippet {
			sb.WriteString(s.Text)
			j.Spans = append(j.Spans, SpanJSON(s))
		}
		j.Snippet = sb.String()
		out.Results = append(out.Results, j)
	}
	return out
}
