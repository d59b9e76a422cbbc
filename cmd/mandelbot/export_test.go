package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/pace"
	"github.com/fractle/mandelbot/internal/testweb"
)

// documentLine is the part of a `--documents` line the tests compare.
type documentLine struct {
	URL       string      `json:"url"`
	FinalURL  string      `json:"final_url"`
	Status    int         `json:"status"`
	Headers   http.Header `json:"headers"`
	Title     string      `json:"title"`
	Text      string      `json:"text"`
	Indexable bool        `json:"indexable"`
	Links     []struct {
		URL      string `json:"url"`
		Anchor   string `json:"anchor"`
		NoFollow bool   `json:"nofollow"`
	} `json:"links"`
	Robots struct {
		NoIndex  bool `json:"noindex"`
		NoFollow bool `json:"nofollow"`
	} `json:"robots"`
	FetchedAt time.Time `json:"fetched_at"`
}

func documentLines(t *testing.T, text string) map[string]documentLine {
	t.Helper()
	out := map[string]documentLine{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 4<<20)
	for sc.Scan() {
		var d documentLine
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("document line %q: %v", sc.Text(), err)
		}
		out[d.URL] = d
	}
	return out
}

type followed struct{ URL, Anchor string }

// followedLinks are the links of d that the crawl followed, each once, sorted.
func followedLinks(d documentLine) []followed {
	var out []followed
	for _, l := range d.Links {
		if !l.NoFollow && l.URL != "" {
			out = append(out, followed{l.URL, l.Anchor})
		}
	}
	slices.SortFunc(out, func(a, b followed) int { return strings.Compare(a.URL+"\x00"+a.Anchor, b.URL+"\x00"+b.Anchor) })
	return slices.Compact(out)
}

// Issue 10, item 5: `export --documents` writes, from the store after the crawl, every fetched
// page with its url, final URL, status, headers, title, text, links with anchor text, robot
// directives and fetched_at: what `crawl --documents` wrote as the pages arrived, except what
// the store does not keep (the text of a page that may not be indexed, links not followed).
func TestExportDocumentsMatchesTheCrawl(t *testing.T) {
	web := startWeb(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Home", Text: "Walruses live in the Arctic.", Links: []string{"/noindex", "/moved", "/gone", "/plain", "/tagged"},
			Anchors: []testweb.Link{{Href: "/private", Text: "members only", Rel: "nofollow"}, {Href: "/plain", Text: "plain words"}}},
		{Path: "/noindex", Title: "Hidden", Text: "not to be kept", Meta: "noindex", Links: []string{"/"}},
		{Path: "/moved", Script: []testweb.Step{{RedirectTo: "/"}}},
		{Path: "/plain", Body: "plain text body", ContentType: "text/plain; charset=utf-8"},
		{Path: "/tagged", Title: "Tagged", Text: "header tags", Header: http.Header{"X-Robots-Tag": {"nofollow", "noarchive"}}, Links: []string{"/private"}},
		{Path: "/private", Title: "Private"},
	}}})
	dir := t.TempDir()
	docs, data := filepath.Join(dir, "docs.jsonl"), filepath.Join(dir, "data")
	args := append([]string{"crawl", "--data", data, "--delay", "0", "--documents", docs}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	b, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	crawled := documentLines(t, string(b))
	code, out, errOut := runCLI(t, "", "export", "--data", data, "--documents")
	if code != exitOK {
		t.Fatalf("export --documents: exit %d: %s", code, errOut)
	}
	exported := documentLines(t, out)
	if len(exported) != len(crawled) || len(crawled) < 5 {
		t.Fatalf("export --documents: %d pages, crawl --documents: %d; want the same (and a few)", len(exported), len(crawled))
	}
	var withText, withLinks, noindex, redirects int
	for u, c := range crawled {
		e, ok := exported[u]
		if !ok {
			t.Errorf("%s: crawled but not exported", u)
			continue
		}
		if e.FinalURL != c.FinalURL || e.Status != c.Status || !e.FetchedAt.Equal(c.FetchedAt) || e.Robots != c.Robots || e.Indexable != c.Indexable {
			t.Errorf("%s: exported final_url %s status %d fetched_at %v robots %+v indexable %v; crawled %s %d %v %+v %v",
				u, e.FinalURL, e.Status, e.FetchedAt, e.Robots, e.Indexable, c.FinalURL, c.Status, c.FetchedAt, c.Robots, c.Indexable)
		}
		if d := cmp.Diff(c.Headers, e.Headers); d != "" {
			t.Errorf("%s: headers (-crawled +exported):\n%s", u, d)
		}
		if c.Indexable {
			if e.Title != c.Title || e.Text != c.Text {
				t.Errorf("%s: exported title %q text %q; crawled %q %q", u, e.Title, e.Text, c.Title, c.Text)
			}
			withText += min(len(c.Text), 1)
		} else if e.Title != "" || e.Text != "" {
			t.Errorf("%s may not be indexed: exported title %q text %q, want none kept", u, e.Title, e.Text)
		}
		if c.Robots.NoIndex {
			noindex++
		}
		if c.FinalURL != c.URL {
			redirects++
		}
		if d := cmp.Diff(followedLinks(c), followedLinks(e)); d != "" {
			t.Errorf("%s: followed links (-crawled +exported):\n%s", u, d)
		}
		withLinks += min(len(followedLinks(e)), 1)
	}
	if withText == 0 || withLinks == 0 || noindex == 0 || redirects == 0 {
		t.Errorf("the crawl had %d pages with text, %d with links, %d noindex, %d redirects; the test needs some of each", withText, withLinks, noindex, redirects)
	}
}

// Issue 10, item 6: export's flags are checked before the store is opened.
func TestExportFlagsChecked(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none")
	for _, args := range [][]string{{"--robots", "--documents"}, {"--all-origins"}} {
		code, _, errOut := runCLI(t, "", append([]string{"export", "--data", missing}, args...)...)
		if code != exitUsage || !strings.Contains(errOut, "--") || strings.Contains(errOut, "none") {
			t.Errorf("export %v: exit %d, %q; want a usage error about the flags, before the store is opened", args, code, errOut)
		}
	}
}

// Issue 10, item 6: "a failed first run leaves an empty store". A first crawl refused for its
// flags or seeds creates neither the data directory nor a store in it.
func TestRefusedFirstRunCreatesNoStore(t *testing.T) {
	dir := t.TempDir()
	for i, args := range [][]string{
		{"not a url"},
		{"--frobnicate", "http://a.test/"},
		{"http://127.0.0.1:1/"},
		{"--header", "User-Agent: me", "http://a.test/"},
		{"--include", "(", "http://a.test/"},
		{"--seeds-file", filepath.Join(dir, "none.txt")},
		{"--scope", "planet", "http://a.test/"},
	} {
		data := filepath.Join(dir, "data", strconv.Itoa(i))
		code, _, errOut := runCLI(t, "", append([]string{"crawl", "--data", data}, args...)...)
		if code != exitUsage {
			t.Errorf("crawl %v: exit %d (%s), want 2", args, code, errOut)
		}
		if _, err := os.Stat(data); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("crawl %v: refused, but %s exists (%v)", args, data, err)
		}
	}
}

// issue 29 ("the dashboard and export --robots show each origin's current gap and why"): after a
// crawl whose last answer was a 500, export --robots gives the origin's gap as the crawl left it
// (the adaptive delay grew to pace.ErrorStep, above --delay 0) and says why.
func TestExportRobotsShowsEachOriginsGapIssue29(t *testing.T) {
	web := startWeb(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Title: "Home", Links: []string{"/failing"}},
		{Path: "/failing", Title: "Failing", Status: http.StatusInternalServerError},
	}}})
	data := filepath.Join(t.TempDir(), "data")
	args := append([]string{"crawl", "--data", data, "--delay", "0"}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	origins := exportLines(t, "--data", data, "--robots")
	if len(origins) != 1 {
		t.Fatalf("origins: %v", origins)
	}
	o := origins[0]
	reason, _ := o["gap_reason"].(string)
	if o["gap_ms"] != float64(pace.ErrorStep.Milliseconds()) || !strings.Contains(reason, "adaptive") || !strings.Contains(reason, "500") {
		t.Errorf("gap_ms %v, gap_reason %q; want %d ms, adaptive after the 500", o["gap_ms"], reason, pace.ErrorStep.Milliseconds())
	}
}
