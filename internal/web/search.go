package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/fractle/mandelbot/internal/index"
)

// searchData is what search.html shows.
type searchData struct {
	Query    string
	MaxQuery int    // the query box's length limit
	Problem  string // what is wrong with the query, if anything; the form is shown again
	Searched bool   // a search ran (the results and the pager are meaningful)
	Terms    []string
	Notes    []string // what the search did not take as written (index.Page.Notes)
	Results  []resultView
	Pager    pager
}

// resultView is one result as the page shows it. Every field is plain text; the template
// escapes it, so hostile titles, snippets and URLs are inert by construction.
type resultView struct {
	Pos   int
	URL   string
	Href  string // URL when it is an http(s) URL, else "": only those are linked
	Title string
	// Snippet spans come straight from index.Span: matched words are wrapped in <mark> by the
	// template, and every span's text is escaped.
	Snippet  []index.Span
	LinkOnly bool
	// NotCrawled says in a few words why a link-only entry was not fetched.
	NotCrawled string
	Why        string
	Explain    string // link to the explain page for this URL
}

// searchPage is GET /: a query box, then results, ten to a page.
func (s *server) searchPage(r *http.Request) (view, error) {
	params := r.URL.Query()
	data := &searchData{Query: params.Get("q"), MaxQuery: index.MaxQueryBytes}
	v := view{name: "search", title: "Search", nav: "search", data: data}
	if trimASCII(data.Query) == "" {
		return v, nil // the intro
	}
	v.title = data.Query
	problem := func(format string, args ...any) (view, error) {
		data.Problem = fmt.Sprintf(format, args...)
		v.status = http.StatusBadRequest
		return v, nil
	}
	if len(data.Query) > index.MaxQueryBytes {
		return problem("The query is longer than %d bytes; shorten it.", index.MaxQueryBytes)
	}
	pageNo, err := pageParam(params.Get("page"))
	if err != nil {
		return problem("%v", err)
	}
	offset := (pageNo - 1) * ResultsPerPage
	if offset > index.MaxOffset {
		return problem("Page %d is too deep: results are shown up to page %d. Try a more precise query.", pageNo, lastPage())
	}
	res, err := s.store.Search(r.Context(), index.Query{Text: data.Query, Limit: ResultsPerPage, Offset: offset, Now: s.now()})
	if errors.Is(err, index.ErrEmptyQuery) {
		return problem("The query has no word to search for: only letters and digits are searched.")
	}
	if err != nil {
		return view{}, fmt.Errorf("search %q: %w", data.Query, err)
	}
	data.Searched, data.Terms, data.Notes = true, res.Terms, res.Notes
	data.Results = resultViews(res)
	data.Pager = pagerOf(data.Query, res.Total, offset, ResultsPerPage)
	data.Pager.AtLeast = res.TotalIsLowerBound
	return v, nil
}

// pageParam parses the 1-based page number; empty means 1.
func pageParam(v string) (int, error) {
	if v == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("page %q is not a page number (1, 2, 3...)", v)
	}
	return n, nil
}

// lastPage is the deepest page the index lets us show (index.MaxOffset).
func lastPage() int { return index.MaxOffset/ResultsPerPage + 1 }

func resultViews(p index.Page) []resultView {
	out := make([]resultView, 0, len(p.Results))
	for i, r := range p.Results {
		title := trimASCII(r.Title)
		if title == "" {
			title = r.URL
		}
		rv := resultView{Pos: p.Offset + i + 1, URL: r.URL, Href: safeHref(r.URL), Title: title,
			Snippet: r.Snippet, LinkOnly: r.LinkOnly, Why: r.Why, Explain: explainHref(r.URL)}
		if r.LinkOnly {
			rv.NotCrawled = notCrawled(r.State)
		}
		out = append(out, rv)
	}
	return out
}

// notCrawled names, in a few words, the crawl decision that kept a URL from being fetched
// (store.State values); the result's Why line gives the details.
func notCrawled(state string) string {
	switch state {
	case "robots_disallowed":
		return "blocked by robots.txt"
	case "robots_unreachable":
		return "robots.txt unreachable"
	case "paused":
		return "site paused"
	case "out_of_scope":
		return "outside the crawl's scope"
	case "error":
		return "request failed"
	case "queued", "":
		return "not crawled yet"
	}
	return state
}

// pager is the paging line of a result page: "results 11-20 of 57", with prev and next links.
type pager struct {
	First, Last, Total int    // 1-based positions shown; First is 0 on a page past the end
	Page               int    // this page, 1-based
	AtLeast            bool   // Total is a lower bound (index.Page.TotalIsLowerBound)
	Prev, Next         string // links to the neighbouring pages, "" when there is none
}

// pagerOf computes the paging of a page of limit results at offset, of total matches. Next is
// offered only while there are more results and they are within index.MaxOffset.
func pagerOf(query string, total, offset, limit int) pager {
	p := pager{Total: total, Page: offset/limit + 1}
	if offset < total {
		p.First, p.Last = offset+1, min(offset+limit, total)
	}
	if p.Page > 1 {
		p.Prev = searchHref(query, p.Page-1)
	}
	if offset+limit < total && offset+limit <= index.MaxOffset {
		p.Next = searchHref(query, p.Page+1)
	}
	return p
}

// searchHref is the link to page of query's results.
func searchHref(query string, page int) string {
	v := url.Values{"q": {query}}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	return "/?" + v.Encode()
}

func explainHref(u string) string {
	return "/explain?" + url.Values{"url": {u}}.Encode()
}

// safeHref returns u when it is an absolute http or https URL, else "". Only such URLs become
// links: a javascript:, data: or relative URL from a crawled page is shown as text.
func safeHref(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return u
}
