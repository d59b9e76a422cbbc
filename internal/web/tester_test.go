package web

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/robotstxt"
)

// postTester submits the tester form as the page does (multipart/form-data).
func postTester(t *testing.T, srv *httptest.Server, robots, urls, agent string) (*http.Response, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range [][2]string{{"robots", robots}, {"urls", urls}, {"agent", agent}} {
		if err := mw.WriteField(f[0], f[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return do(t, srv, http.MethodPost, "/robots", mw.FormDataContentType(), &body)
}

// verdicts are the rows of the verdict table: URL, verdict, line, rule (the why column is
// checked separately).
func verdicts(t *testing.T, body string) [][]string {
	t.Helper()
	var out [][]string
	for _, r := range rows(parseHTML(t, body), "verdicts") {
		out = append(out, []string{r[1], r[0], r[2], r[3]}) // the page puts the verdict first
	}
	return out
}

// The seed 000 examples, checked through the form: the verdict, the deciding line and rule of
// each URL the seed names, and the group chosen.
func TestTesterSeedExamples(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	for _, tt := range []struct {
		name, robots, urls string
		want               [][]string
		selection          string
	}{
		{
			name:   `seed 000 "precedence": /doc has no effect as it's shorter than /*.pdf`,
			robots: "User-agent: Mandelbot\nDisallow: /*.pdf\nAllow: /files\nAllow: /doc\n",
			urls:   "/doc.pdf\n/files.pdf\n/doc/readme.txt",
			want: [][]string{
				{"/doc.pdf", "DISALLOWED", "2", "Disallow: /*.pdf"},
				{"/files.pdf", "ALLOWED", "3", "Allow: /files"},
				{"/doc/readme.txt", "ALLOWED", "4", "Allow: /doc"},
			},
			selection: "The group naming Mandelbot applies (User-agent line 1).",
		},
		{
			name:   `seed 000: the extra * characters change the precedence of /doc****`,
			robots: "User-agent: Mandelbot\nDisallow: /*.pdf*\nAllow: /files\nAllow: /doc****\n",
			urls:   "http://www.example.com/files.pdf\nhttp://www.example.com/doc.pdf",
			want: [][]string{
				{"http://www.example.com/files.pdf matched as /files.pdf", "DISALLOWED", "2", "Disallow: /*.pdf*"},
				{"http://www.example.com/doc.pdf matched as /doc.pdf", "ALLOWED", "4", "Allow: /doc****"},
			},
		},
		{
			name:   `seed 000: /money$ and /earn$* (rule 15)`,
			robots: "User-agent: Mandelbot\nDisallow: /money$\nDisallow: /earn$*\n",
			urls:   "/money\n/money/more\n/earn$rich",
			want: [][]string{
				{"/money", "DISALLOWED", "2", "Disallow: /money$"},
				{"/money/more", "ALLOWED", "—", "—"},
				{"/earn$rich", "DISALLOWED", "3", "Disallow: /earn$*"},
			},
		},
		{
			name:      `seed 000: Mandelbot falls back to the default group`,
			robots:    "User-agent: Anotherbot\nDisallow: /private # Mandelbot ignores this directive\nUser-agent: *\nDisallow: /secret # Mandelbot follows this directive\n",
			urls:      "/private\n/secret/x",
			want:      [][]string{{"/private", "ALLOWED", "—", "—"}, {"/secret/x", "DISALLOWED", "4", "Disallow: /secret"}},
			selection: "No group names Mandelbot, so the group for * applies (User-agent line 3).",
		},
		{
			name:      `seed 000: no group applies to Mandelbot`,
			robots:    "User-agent: Anotherbot\nDisallow: /private\n",
			urls:      "/private",
			want:      [][]string{{"/private", "ALLOWED", "—", "—"}},
			selection: `No group applies to Mandelbot: no User-agent line names it and there is no "User-agent: *", so everything is allowed.`,
		},
		{
			name:   `seed 000: an empty Disallow overrides the default group (rule 17)`,
			robots: "User-agent: Mandelbot\nDisallow:\nUser-agent: *\nDisallow: /\n",
			urls:   "/anything",
			want:   [][]string{{"/anything", "ALLOWED", "—", "—"}},
		},
		{
			name:      `rule 4 (revised): a file ending in a bare User-agent line names Mandelbot and allows everything`,
			robots:    "User-agent: *\nDisallow: /\n\nUser-agent: Mandelbot\n",
			urls:      "/private",
			want:      [][]string{{"/private", "ALLOWED", "—", "—"}},
			selection: "The group naming Mandelbot applies (User-agent line 4). It has no rules, so everything is allowed.",
		},
		{
			name:   `rule 18: /robots.txt itself is always allowed`,
			robots: "User-agent: *\nDisallow: /\n",
			urls:   "/robots.txt\n/x",
			want:   [][]string{{"/robots.txt", "ALLOWED", "—", "—"}, {"/x", "DISALLOWED", "2", "Disallow: /"}},
		},
	} {
		resp, body := postTester(t, srv, tt.robots, tt.urls, "")
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", tt.name, resp.StatusCode)
			continue
		}
		if diff := cmp.Diff(tt.want, verdicts(t, body)); diff != "" {
			t.Errorf("%s: verdicts (-want +got):\n%s", tt.name, diff)
		}
		if got := text(byID(parseHTML(t, body), "selection")); tt.selection != "" && got != tt.selection {
			t.Errorf("%s: selection %q, want %q", tt.name, got, tt.selection)
		}
	}
}

// The report explains verdicts as the CLI does, counts them, marks the rules that decided, and
// lists the ignored lines with their reasons (rule 11) and the sitemaps (rule 8).
func TestTesterReportDetails(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	robots := "Disallow: /before-any-agent\nUser-agent: mandelbot\nDisallow: /private\nDissallow: /typo\nDisallow: nothing-without-slash\n" +
		"Crawl-delay: 5\nSitemap: https://a.test/sitemap.xml\n"
	_, body := postTester(t, srv, robots, "/private/x\n/public\n# a comment line\n\n/typo", "Mandelbot")
	doc := parseHTML(t, body)
	allRows := rows(doc, "verdicts")
	if len(allRows) != 3 {
		t.Fatalf("%d verdict rows, want 3 (comments and blank lines are skipped)", len(allRows))
	}
	if why := allRows[0][4]; why != "line 3: Disallow: /private" {
		t.Errorf("why %q", why)
	}
	if why := allRows[1][4]; why != "no rule of the group matches /public: allowed" {
		t.Errorf("why %q", why)
	}
	if h := text(firstElement(firstClass(doc, "report"), "h2")); h != "Verdicts for Mandelbot: 2 allowed, 1 disallowed" {
		t.Errorf("heading %q", h)
	}
	wantRules := [][]string{{"3", "Disallow: /private", "1"}, {"5", "Disallow: nothing-without-slash", "—"}}
	if diff := cmp.Diff(wantRules, rows(doc, "rules")); diff != "" {
		t.Errorf("rules (-want +got):\n%s", diff)
	}
	wantNotes := [][]string{
		{"1", "Disallow: /before-any-agent", robotstxt.NoteRuleBeforeAgent.String()},
		{"4", "Dissallow: /typo", `unknown field "Dissallow": line ignored`},
		{"5", "Disallow: nothing-without-slash", robotstxt.NotePatternNoSlash.String()},
	}
	if diff := cmp.Diff(wantNotes, rows(doc, "notes")); diff != "" {
		t.Errorf("notes (-want +got):\n%s", diff)
	}
	page := text(doc)
	for _, want := range []string{"https://a.test/sitemap.xml", "Crawl-delay 5s: Mandelbot does not obey it unless the crawl opts in"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// Rule 10: a robots.txt over the parse limit is read up to it; the report says it was cut.
func TestTesterTruncatesAtParseLimit(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	head := "User-agent: *\nDisallow: /early\n"
	robots := head + strings.Repeat("#", robotstxt.DefaultMaxBytes-len(head)) + "\nDisallow: /beyond\n"
	resp, body := postTester(t, srv, robots, "/early\n/beyond", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	want := [][]string{{"/early", "DISALLOWED", "2", "Disallow: /early"}, {"/beyond", "ALLOWED", "—", "—"}}
	if diff := cmp.Diff(want, verdicts(t, body)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	page := text(parseHTML(t, body))
	if !strings.Contains(page, "longer than the parse limit and was cut there") {
		t.Error("the report does not say the file was cut")
	}
	// Issue 10, item 6: the page cites the spec as a rule people can read, not by its number.
	if m := regexp.MustCompile(`\brule \d+`).FindString(page); m != "" || !strings.Contains(page, "robots.txt rule: only the first 500 KiB") {
		t.Errorf("the cut report names %q; want the rule in words", m)
	}
}

// The tester never fetches anything: a URL on a live server is only matched, not requested
// (no SSRF through the form).
func TestTesterDoesNotFetch(t *testing.T) {
	var hits atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(target.Close)
	srv := newSite(t, newStore(t), nil)
	robots := "Sitemap: " + target.URL + "/sitemap.xml\nUser-agent: *\nDisallow: /x\n"
	resp, body := postTester(t, srv, robots, target.URL+"/x\n"+target.URL+"/robots.txt", "")
	if resp.StatusCode != http.StatusOK || len(verdicts(t, body)) != 2 {
		t.Fatalf("status %d\n%s", resp.StatusCode, body)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the tester made %d request(s) to a URL it was given", n)
	}
}

// Input the tester cannot check is refused with the reason, the form filled in again.
func TestTesterBadInput(t *testing.T) {
	srv := newSite(t, newStore(t), func(o *Options) { o.MaxTesterURLs = 3 })
	for _, tt := range []struct{ urls, agent, want string }{
		{"/ok\n\nnot a url\n/fine", "", `URL line 3, "not a url"`},
		{"\n# only a comment\n", "", "List at least one URL"},
		{"/1\n/2\n/3\n/4", "", "4 URLs listed; the tester checks at most 3"},
		{"/1", strings.Repeat("a", MaxAgentBytes+1), "agent is longer"},
		{"/1", "Mandel\x01bot", "control characters"},
		{"/1", "(bot)", "agent has no name"}, // rule 6: no agent token, so it would name nobody
		{strings.Repeat("/", MaxTesterURLBytes+1), "", "URL list is longer"},
	} {
		resp, body := postTester(t, srv, "User-agent: *\nDisallow: /\n", tt.urls, tt.agent)
		doc := parseHTML(t, body)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(text(firstClass(doc, "problem")), tt.want) {
			t.Errorf("%.30q: status %d, problem %q, want %q", tt.urls, resp.StatusCode, text(firstClass(doc, "problem")), tt.want)
		}
		if firstClass(doc, "report") != nil {
			t.Errorf("%.30q: a report was shown for input that could not be checked", tt.urls)
		}
		if got := text(byID(doc, "robots")); got != "User-agent: * Disallow: /" {
			t.Errorf("%.30q: the form lost the robots.txt: %q", tt.urls, got)
		}
	}
}

// The body is capped: a robots.txt is only read up to the parse limit anyway (rule 10).
func TestTesterBodyLimit(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	resp, _ := postTester(t, srv, strings.Repeat("x", MaxFormBytes), "/", "")
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized form: status %d, want 413", resp.StatusCode)
	}
	// A URL-encoded form works too, and anything else is refused.
	form := url.Values{"robots": {"User-agent: *\nDisallow: /a\n"}, "urls": {"/a"}}
	resp, body := do(t, srv, http.MethodPost, "/robots", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	if resp.StatusCode != http.StatusOK || fmt.Sprint(verdicts(t, body)) != "[[/a DISALLOWED 2 Disallow: /a]]" {
		t.Errorf("URL-encoded form: status %d, verdicts %v", resp.StatusCode, verdicts(t, body))
	}
	if resp, _ := do(t, srv, http.MethodPost, "/robots", "text/plain", strings.NewReader("x")); resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Errorf("text/plain body: status %d, want 415", resp.StatusCode)
	}
}

// The form offers the configured agent, and GET shows no report.
func TestTesterForm(t *testing.T) {
	srv := newSite(t, newStore(t), func(o *Options) { o.Agent = "Fractlebot" })
	resp, body := get(t, srv, "/robots")
	doc := parseHTML(t, body)
	if v, _ := attr(byID(doc, "agent"), "value"); resp.StatusCode != http.StatusOK || v != "Fractlebot" || firstClass(doc, "report") != nil {
		t.Errorf("status %d, agent %q", resp.StatusCode, v)
	}
	form := firstClass(doc, "tester")
	if m, _ := attr(form, "method"); m != "post" {
		t.Errorf("method %q", m)
	}
	if e, _ := attr(form, "enctype"); e != "multipart/form-data" {
		t.Errorf("enctype %q: a 500 KB robots.txt must count at its own size", e)
	}
}
