package web

import (
	"fmt"
	"net/http"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/urlnorm"
)

// explainData is what explain.html shows.
type explainData struct {
	Input      string // the URL as typed
	Canonical  string // the URL as the crawl records it, when it differs from Input
	Href       string // Canonical (or Input) when it may be linked
	Problem    string
	E          *index.Explanation
	Verdict    string // one word for the answer: in the index, link-only, missing
	NotCrawled string
}

// explainPage is GET /explain?url=: why a URL is in the index, or why it is missing, from the
// crawl's recorded decisions (seed 001; docs/robots-rules.md rules 27 and 28).
func (s *server) explainPage(r *http.Request) (view, error) {
	data := &explainData{Input: r.URL.Query().Get("url")}
	v := view{name: "explain", title: "Why is this URL here, or missing?", nav: "search", data: data}
	raw := trimASCII(data.Input)
	if raw == "" {
		return v, nil
	}
	problem := func(format string, args ...any) (view, error) {
		data.Problem = fmt.Sprintf(format, args...)
		v.status = http.StatusBadRequest
		return v, nil
	}
	if len(raw) > MaxExplainURLBytes {
		return problem("The URL is longer than %d bytes, the longest a crawl keeps.", MaxExplainURLBytes)
	}
	u, err := urlnorm.Parse(raw)
	if err != nil {
		return problem("That is not a URL the crawler could request: %v", err)
	}
	canonical := u.String()
	if canonical != raw {
		data.Canonical = canonical
	}
	e, err := s.store.Explain(r.Context(), canonical)
	if err != nil {
		return view{}, fmt.Errorf("explain %s: %w", canonical, err)
	}
	data.E, data.Href = &e, safeHref(canonical)
	switch {
	case e.Indexed:
		data.Verdict = "In the index"
	case e.LinkOnly:
		data.Verdict, data.NotCrawled = "In the index as a link-only entry", notCrawled(e.State)
	default:
		data.Verdict = "Not in the index"
	}
	return v, nil
}
