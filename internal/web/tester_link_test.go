package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/net/html"
)

// noRedirect is a client that shows a redirect instead of following it.
func noRedirect(t *testing.T, method, target, contentType string, body string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// testerLink is the shareable address of a check, as the page builds it.
func testerLink(v url.Values) string { return "/robots?" + v.Encode() }

// Issue 27, part 5: the tester works by GET with its inputs in the URL, so a verdict can be
// linked and bookmarked; the page of a GET check shows the verdicts and offers its own link.
// Seed 000 "precedence": /doc is shorter than /*.pdf and has no effect.
func TestTesterWorksByGET(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	q := url.Values{"robots": {"User-agent: Mandelbot\nDisallow: /*.pdf\nAllow: /files\nAllow: /doc\n"},
		"urls": {"/doc.pdf\n/files.pdf"}, "agent": {"Mandelbot"}}
	resp, body := get(t, srv, testerLink(q))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET check: status %d\n%s", resp.StatusCode, body)
	}
	want := [][]string{{"/doc.pdf", "DISALLOWED", "2", "Disallow: /*.pdf"}, {"/files.pdf", "ALLOWED", "3", "Allow: /files"}}
	if diff := cmp.Diff(want, verdicts(t, body)); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	doc := parseHTML(t, body)
	if href, _ := attr(byID(doc, "share"), "href"); href != testerLink(q) {
		t.Errorf("share link %q, want %q", href, testerLink(q))
	}
	// The form is filled in with what was checked, to edit and check again.
	if got := text(byID(doc, "urls")); got != "/doc.pdf /files.pdf" {
		t.Errorf("the form's URL list %q", got)
	}
	// A GET naming only an agent fills the form in and checks nothing.
	_, body = get(t, srv, "/robots?agent=Fractlebot")
	doc = parseHTML(t, body)
	if v, _ := attr(byID(doc, "agent"), "value"); v != "Fractlebot" || firstClass(doc, "report") != nil {
		t.Errorf("agent-only GET: agent %q, report shown %v", v, firstClass(doc, "report") != nil)
	}
}

// Issue 27, part 5: the form still posts (a robots.txt up to 500 KiB does not fit a URL); a post
// that fits a link is answered 303 to its GET address, so the address bar holds the shareable
// verdict and reloading does not post again.
func TestTesterPostRedirectsToLink(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	form := url.Values{"robots": {"User-agent: *\nDisallow: /a\n"}, "urls": {"/a\n/b"}, "agent": {"Mandelbot"}}
	resp := noRedirect(t, http.MethodPost, srv.URL+"/robots", "application/x-www-form-urlencoded", form.Encode())
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || loc != testerLink(form) {
		t.Fatalf("POST: status %d, Location %q; want 303 to %q", resp.StatusCode, loc, testerLink(form))
	}
	// Followed (as browsers do), the post shows the verdicts.
	_, body := postTester(t, srv, "User-agent: *\nDisallow: /a\n", "/a\n/b", "Mandelbot")
	if got := verdicts(t, body); len(got) != 2 || got[0][1] != "DISALLOWED" || got[1][1] != "ALLOWED" {
		t.Errorf("verdicts %v", got)
	}
}

// Issue 27, part 5: a check whose link would pass MaxShareLinkBytes is answered in place, and the
// page says why it offers no link, naming the limit.
func TestTesterLinkTooLong(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	robots := "User-agent: *\nDisallow: /a\n" + strings.Repeat("# a long comment line\n", MaxShareLinkBytes/20)
	resp, body := postTester(t, srv, robots, "/a", "")
	if resp.StatusCode != http.StatusOK || resp.Request.Method != http.MethodPost {
		t.Fatalf("status %d after %s; want 200 to the POST itself", resp.StatusCode, resp.Request.Method)
	}
	doc := parseHTML(t, body)
	if got := verdicts(t, body); len(got) != 1 || got[0][1] != "DISALLOWED" {
		t.Errorf("verdicts %v", got)
	}
	if byID(doc, "share") != nil {
		t.Error("a link is offered for a check too long to share")
	}
	if note := text(byID(doc, "no-link")); !strings.Contains(note, thousands(MaxShareLinkBytes)+" bytes") {
		t.Errorf("the page does not say why there is no link: %q", note)
	}
	// The limit stays inside what the site itself accepts as a query string.
	if MaxShareLinkBytes > MaxRawQueryBytes {
		t.Errorf("MaxShareLinkBytes %d > MaxRawQueryBytes %d: a shared link would be refused 414", MaxShareLinkBytes, MaxRawQueryBytes)
	}
}

// Issue 27, part 5: after a check, the verdicts come before the echo of the input (the form),
// so they are the first thing on the page.
func TestTesterVerdictsFirst(t *testing.T) {
	srv := newSite(t, newStore(t), nil)
	_, body := postTester(t, srv, "User-agent: *\nDisallow: /a\n", "/a", "")
	doc := parseHTML(t, body)
	var order []string
	each(doc, func(n *html.Node) {
		switch {
		case n.Type == html.ElementNode && n.Data == "table" && hasClass(n, "verdicts"):
			order = append(order, "verdicts")
		case n.Type == html.ElementNode && n.Data == "textarea":
			order = append(order, "textarea")
		}
	})
	if len(order) == 0 || order[0] != "verdicts" {
		t.Errorf("document order %v: the verdicts must come before the form's echo of the input", order)
	}
}
