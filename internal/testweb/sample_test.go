package testweb

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// anchors returns the href and text of every <a> element of an HTML document, as a
// browser's tokenizer sees them (nothing from comments, scripts, styles or textareas).
func anchors(body string) (hrefs, texts []string) {
	z := html.NewTokenizer(strings.NewReader(body))
	inA := -1
	for {
		switch z.Next() {
		case html.ErrorToken:
			return hrefs, texts
		case html.StartTagToken:
			tok := z.Token()
			if tok.Data == "a" {
				for _, a := range tok.Attr {
					if a.Key == "href" {
						hrefs = append(hrefs, a.Val)
						texts = append(texts, "")
						inA = len(texts) - 1
					}
				}
			}
		case html.EndTagToken:
			if z.Token().Data == "a" {
				inA = -1
			}
		case html.TextToken:
			if inA >= 0 {
				texts[inA] += string(z.Text())
			}
		}
	}
}

// The demo web is what the brief promised: 4-6 origins, 30-60 pages.
func TestSampleSize(t *testing.T) {
	sites := Sample()
	if n := len(sites); n < 4 || n > 6 {
		t.Errorf("%d origins, want 4 to 6", n)
	}
	pages := 0
	for _, s := range sites {
		for _, p := range s.Pages {
			if p.Title != "" || p.ContentType != "" && !strings.Contains(p.ContentType, "xml") {
				pages++
			}
		}
	}
	if pages < 30 || pages > 60 {
		t.Errorf("%d documents, want 30 to 60", pages)
	}
}

// Every link of every Sample page that stays inside the web leads to a page that
// exists, except the deliberate SampleBroken.
func TestSampleLinksResolve(t *testing.T) {
	w := start(t, Sample(), Options{})
	c := newClient(t, w, 0)
	broken := w.Expand(SampleBroken)
	checked := map[string]int{}
	for _, s := range Sample() {
		for _, p := range s.Pages {
			page := w.URL(s.Key, p.Path)
			got := get(t, c, page)
			if got.status == http.StatusServiceUnavailable { // SampleRetryAfter's first answer
				got = get(t, c, page)
			}
			if !strings.HasPrefix(got.header.Get("Content-Type"), "text/html") {
				continue
			}
			hrefs, _ := anchors(got.body)
			for _, h := range hrefs {
				base, _ := url.Parse(page)
				u, err := base.Parse(h)
				if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
					continue // javascript: and data: links of the hostile page
				}
				u.Fragment = ""
				if _, err := w.DialContext(t.Context(), "tcp", u.Host); err != nil {
					t.Errorf("%s links outside the web: %s", page, u)
					continue
				}
				target := u.String()
				if _, done := checked[target]; !done {
					checked[target] = get(t, c, target).status
				}
				if st := checked[target]; st == http.StatusNotFound && target != broken {
					t.Errorf("%s links to %s, which answers 404", page, target)
				}
			}
		}
	}
	if checked[broken] != http.StatusNotFound {
		t.Errorf("the deliberate dead link %s answered %d, want 404", broken, checked[broken])
	}
	if len(checked) < 30 {
		t.Errorf("only %d link targets checked; the sample is not linked together", len(checked))
	}
}

// Each Sample* page shows what its comment says.
func TestSamplePagesShowTheirRule(t *testing.T) {
	w := start(t, Sample(), Options{})
	c := newClient(t, w, 0)
	fetch := func(ref string) answer { return get(t, c, w.Expand(ref)) }

	if b := fetch(SampleNoindexMeta).body; !strings.Contains(b, `<meta name="robots" content="noindex">`) {
		t.Errorf("SampleNoindexMeta lacks the meta tag:\n%s", b)
	}
	if b := fetch(SampleNoindexAgentMeta).body; !strings.Contains(b, `<meta name="mandelbot" content="noindex">`) {
		t.Errorf("SampleNoindexAgentMeta lacks the mandelbot meta tag")
	}
	if a := fetch(SampleNoindexHeader); a.header.Get("X-Robots-Tag") != "noindex" || !strings.HasPrefix(a.header.Get("Content-Type"), "text/html") {
		t.Errorf("SampleNoindexHeader headers %v", a.header)
	}
	if a := fetch(SampleOtherAgentHeader); a.header.Get("X-Robots-Tag") != "otherbot: noindex" {
		t.Errorf("SampleOtherAgentHeader X-Robots-Tag %q", a.header.Get("X-Robots-Tag"))
	}
	if b := fetch(SampleNone).body; !strings.Contains(b, `content="none"`) {
		t.Errorf("SampleNone lacks content=none")
	}
	if b := fetch(SampleNofollow).body; !strings.Contains(b, `content="nofollow"`) {
		t.Errorf("SampleNofollow lacks content=nofollow")
	}
	pdf := fetch(SamplePDF)
	if pdf.header.Get("Content-Type") != "application/pdf" || pdf.header.Get("X-Robots-Tag") != "mandelbot: noindex" || !strings.HasPrefix(pdf.body, "%PDF-") || utf8.ValidString(pdf.body) {
		t.Errorf("SamplePDF: %v, body starts %q", pdf.header, pdf.body[:8])
	}
	if a := fetch(SamplePlainText); a.header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Errorf("SamplePlainText Content-Type %q", a.header.Get("Content-Type"))
	}
	first, second := fetch(SampleRetryAfter), fetch(SampleRetryAfter)
	if first.status != 503 || first.header.Get("Retry-After") != "10" || second.status != 200 {
		t.Errorf("SampleRetryAfter: %d (Retry-After %q) then %d, want 503 (10) then 200", first.status, first.header.Get("Retry-After"), second.status)
	}
	if a := fetch(SampleRedirectIntoBlocked); a.status != 302 || a.header.Get("Location") != "/admin/rota" {
		t.Errorf("SampleRedirectIntoBlocked: %d %q", a.status, a.header.Get("Location"))
	}
	if a := fetch(SampleMovedToHTTPS); a.status != 301 || a.header.Get("Location") != w.URL("gallery", "/exhibitions") {
		t.Errorf("SampleMovedToHTTPS: %d %q", a.status, a.header.Get("Location"))
	}

	hostile := fetch(SampleHostile).body
	if utf8.ValidString(hostile) || !strings.Contains(hostile, "<title>Lost &amp; found: <b>odd</b>") {
		t.Errorf("SampleHostile is not hostile enough")
	}
	hrefs, _ := anchors(hostile)
	for _, h := range hrefs {
		if strings.Contains(h, "trap") {
			t.Errorf("SampleHostile exposes a trap link to a tokenizer: %q", h)
		}
	}
	if len(hrefs) != 4 {
		t.Errorf("SampleHostile has %d real anchors %q, want 4", len(hrefs), hrefs)
	}
}

// docs/robots-rules.md rule 28 and 001: blocked pages are linked with anchor text;
// sitemap-only and nofollow-only pages are reachable as documented.
func TestSampleDiscoveryPaths(t *testing.T) {
	w := start(t, Sample(), Options{})
	c := newClient(t, w, 0)
	type link struct{ from, text string }
	linksTo := map[string][]link{} // absolute target -> links
	for _, s := range Sample() {
		for _, p := range s.Pages {
			page := w.URL(s.Key, p.Path)
			if p.Script != nil || p.Body != "" || p.ContentType != "" {
				continue // redirects, raw and non-HTML pages
			}
			hrefs, texts := anchors(get(t, c, page).body)
			for i, h := range hrefs {
				base, _ := url.Parse(page)
				if u, err := base.Parse(h); err == nil {
					linksTo[u.String()] = append(linksTo[u.String()], link{page, texts[i]})
				}
			}
		}
	}
	robotsOf := func(ref string) string { return get(t, c, w.URL(refKey(ref), RobotsPath)).body }

	for _, blocked := range []string{SampleBlocked, SampleBlockedSearch} {
		if !disallowedBy(robotsOf(blocked), pathOf(blocked)) {
			t.Errorf("%s is not disallowed by its robots.txt:\n%s", blocked, robotsOf(blocked))
		}
		ls := linksTo[w.Expand(blocked)]
		if len(ls) == 0 {
			t.Errorf("%s is linked from nowhere", blocked)
		}
		for _, l := range ls {
			if strings.TrimSpace(l.text) == "" || strings.HasPrefix(l.text, "http") {
				t.Errorf("%s linked from %s without anchor text (%q)", blocked, l.from, l.text)
			}
		}
	}
	if n := len(linksTo[w.Expand(SampleBlocked)]); n < 2 {
		t.Errorf("%s linked from %d pages, want 2 origins", SampleBlocked, n)
	}
	for _, only := range []string{SampleSitemapOnly, SampleSitemapOnlyText} {
		if ls := linksTo[w.Expand(only)]; len(ls) != 0 {
			t.Errorf("sitemap-only page %s is linked from %v", only, ls)
		}
	}
	if !strings.Contains(robotsOf(SampleSitemapOnly), "Sitemap: "+w.URL("hiking", "/sitemap.xml")) ||
		!strings.Contains(get(t, c, w.URL("hiking", "/sitemap.xml")).body, "<loc>"+w.Expand(SampleSitemapOnly)+"</loc>") {
		t.Errorf("%s is not reachable through robots.txt's Sitemap line", SampleSitemapOnly)
	}
	for only, from := range map[string]string{SampleOnlyViaNofollow: SampleNofollow, SampleOnlyViaNone: SampleNone, SampleRelNofollow: "{library}/events"} {
		ls := linksTo[w.Expand(only)]
		if len(ls) != 1 || ls[0].from != w.Expand(from) {
			t.Errorf("%s is linked from %v, want only from %s", only, ls, from)
		}
	}
	// Rule 20: the same host under http and https, each with its own robots.txt.
	if https, http := robotsOf("{gallery}/"), robotsOf("{gallery-http}/"); https == http || !strings.Contains(http, "/old-catalogue") || strings.Contains(https, "/old-catalogue") {
		t.Errorf("the two gallery origins do not have their own robots.txt:\n%s\n---\n%s", https, http)
	}
}

// disallowedBy reports whether a "Disallow:" line of a simple robots.txt (literal
// prefixes, as the sample uses) matches path.
func disallowedBy(robots, path string) bool {
	for line := range strings.Lines(robots) {
		if v, ok := strings.CutPrefix(trimASCII(strings.TrimRight(line, "\r\n")), "Disallow:"); ok {
			if v = trimASCII(v); v != "" && strings.HasPrefix(path, v) {
				return true
			}
		}
	}
	return false
}
