package testweb

import (
	"fmt"
	"net/http"
	"time"
)

// ScenarioRules is the robots.txt of the scenarios' site "a" whenever it answers 200:
// it keeps every crawler out of /private and nothing else.
const ScenarioRules = "User-agent: *\nDisallow: /private\n"

// ScenarioRetryAfter is the pause the page scenarios ask for with Retry-After.
const ScenarioRetryAfter = 120 * time.Second

// The site "a" of the robots scenarios links "/" to "/public" and, with anchor text, to
// "/private/secret", which ScenarioRules disallows.
func scenarioSite(key string, robots *Page, extra ...Page) Site {
	pages := []Page{
		{
			Path:    "/",
			Title:   "Scenario site " + key,
			Text:    "The home page of a scenario site. It links to a public page and a private one.",
			Links:   []string{"/public"},
			Anchors: []Link{{Href: "/private/secret", Text: "the secret plans"}},
		},
		{Path: "/public", Title: "A public page", Text: "Every robots.txt of the scenarios lets crawlers read this page."},
		{Path: "/private/secret", Title: "The secret plans", Text: "The scenario robots.txt disallows this page."},
	}
	return Site{Key: key, Robots: robots, Pages: append(pages, extra...)}
}

func robotsPage(p Page) *Page { return &p }

// RobotsOK returns a web whose site "a" answers robots.txt 200 with [ScenarioRules]
// (docs/robots-rules.md rule 21, 2xx).
func RobotsOK() []Site {
	return []Site{scenarioSite("a", robotsPage(RobotsTxt(ScenarioRules)))}
}

// RobotsAnswering returns a web whose site "a" answers robots.txt with code and a
// one-line body: 404, 401, 403 mean "no robots.txt, crawl everything"; 429 and 5xx mean
// "unreachable" (rule 21).
func RobotsAnswering(code int) []Site {
	return []Site{scenarioSite("a", robotsPage(RobotsStatus(code)))}
}

// RobotsRedirects returns a web whose site "a" has a robots.txt that reaches
// [ScenarioRules] after hops redirects (hops >= 1). The first hop goes to another
// origin, site "b" ({b}/robots-moved/1, absolute); the others stay on b with relative
// Locations (/robots-moved/2 ...); the last one lands on {b}/shared-robots.txt. Hops
// alternate 301 and 302. Up to 5 hops the rules count for a; with 6, a crawler gives up before
// requesting {b}/shared-robots.txt and treats a's robots.txt as 4xx (rule 21, 3xx).
func RobotsRedirects(hops int) []Site {
	hops = max(hops, 1)
	shared := RobotsTxt(ScenarioRules)
	shared.Path = "/shared-robots.txt"
	sites := []Site{
		scenarioSite("a", nil),
		{Key: "b", Pages: []Page{
			{Path: "/", Title: "Site b", Text: "Site b only hosts the robots.txt that site a redirects to."},
			shared,
		}},
	}
	chain := []Hop{{Key: "a", Path: RobotsPath}}
	for i := 1; i < hops; i++ {
		chain = append(chain, Hop{Key: "b", Path: fmt.Sprintf("/robots-moved/%d", i)})
	}
	return AddPages(sites, RedirectChain("{b}/shared-robots.txt", chain...))
}

// RobotsReset returns a web whose site "a" resets the connection (TCP RST) on every
// robots.txt request: a network error, so the origin is unreachable (rule 21).
func RobotsReset() []Site {
	return []Site{scenarioSite("a", &Page{Path: RobotsPath, Script: []Step{{Do: Reset}}})}
}

// RobotsHang returns a web whose site "a" never answers robots.txt; the client's timeout
// ends the request: a network error, so the origin is unreachable (rule 21).
func RobotsHang() []Site {
	return []Site{scenarioSite("a", &Page{Path: RobotsPath, Script: []Step{{Do: Hang}}})}
}

// RobotsRefused returns a web where nothing listens on site "a"'s port: connection
// refused, so the origin is unreachable (rule 21).
func RobotsRefused() []Site {
	s := scenarioSite("a", robotsPage(RobotsTxt(ScenarioRules)))
	s.Refused = true
	return []Site{s}
}

// RobotsRecovering returns a web whose site "a" answers robots.txt 500 failures times,
// then 200 with [ScenarioRules]: unreachable until a later retry succeeds (rule 21, 5xx).
func RobotsRecovering(failures int) []Site {
	script := make([]Step, 0, failures+1)
	for range failures {
		script = append(script, Step{Status: http.StatusInternalServerError})
	}
	script = append(script, Step{})
	p := RobotsTxt(ScenarioRules)
	p.Script = script
	return []Site{scenarioSite("a", &p)}
}

// RobotsLarge returns a web whose site "a" serves a [LargeRobotsTxt] of 600 KiB and
// links "/" to the pages it names around the limit (rule 10).
func RobotsLarge() []Site {
	p := LargeRobotsTxt(600 * 1024)
	s := scenarioSite("a", &p,
		Page{Path: LargeRobotsStraddle, Title: "Straddling the limit", Text: "Its Disallow line is cut by the 500 KiB limit."},
		Page{Path: LargeRobotsBeyond, Title: "Beyond the limit", Text: "Its Disallow line lies past the 500 KiB limit."},
	)
	s.Pages[0].Links = append(s.Pages[0].Links, LargeRobotsStraddle, LargeRobotsBeyond)
	return []Site{s}
}

// RobotsCacheable returns a web whose site "a" serves [ScenarioRules] with validators
// (ETag "v1", Last-Modified 2025-01-02) and Cache-Control: max-age=3600, so a
// revalidation after the hour is answered 304 (rule 22).
func RobotsCacheable() []Site {
	p := RobotsTxt(ScenarioRules)
	p.ETag = `"v1"`
	p.LastModified = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	p.Header = http.Header{"Cache-Control": {"max-age=3600"}}
	return []Site{scenarioSite("a", &p)}
}

// SameHostOrigins returns one host, same.test, as three origins, each with its own
// robots.txt (rule 20): "plain" (http) disallows /only-plain, "alt" (http, another port)
// disallows /only-alt, "secure" (https) disallows /only-secure. Every origin serves all three
// paths, and each home links to them and to the other two homes.
func SameHostOrigins() []Site {
	keys := []string{"plain", "alt", "secure"}
	var sites []Site
	for _, k := range keys {
		s := Site{Key: k, Host: "same.test", TLS: k == "secure", Robots: robotsPage(RobotsTxt("User-agent: *\nDisallow: /only-" + k + "\n"))}
		home := Page{Path: "/", Title: "same.test as " + k, Text: "One host name, three origins, three robots.txt files."}
		for _, other := range keys {
			home.Links = append(home.Links, "/only-"+other)
			if other != k {
				home.Links = append(home.Links, "{"+other+"}/")
			}
			s.Pages = append(s.Pages, Page{Path: "/only-" + other, Title: "Only " + other + " blocks this", Text: "Disallowed by the robots.txt of the " + other + " origin only."})
		}
		s.Pages = append(s.Pages, home)
		sites = append(sites, s)
	}
	return sites
}

// RedirectIntoDisallowed returns a web whose site "a" (robots [ScenarioRules]) links
// only to "/public" and "/go/secret", which answers 302 to "/private/secret": the
// redirect target needs its own robots check, so it is never requested (docs/design.md, the
// pipeline).
func RedirectIntoDisallowed() []Site {
	s := scenarioSite("a", robotsPage(RobotsTxt(ScenarioRules)), Redirect("/go/secret", http.StatusFound, "/private/secret"))
	s.Pages[0].Anchors = []Link{{Href: "/go/secret", Text: "a short link to the secret plans"}}
	return []Site{s}
}

// RetryForm is how a paused page states its Retry-After.
type RetryForm int

const (
	NoRetryAfter RetryForm = iota // no Retry-After header: the crawler backs off on its own
	RetrySeconds                  // Retry-After: 120
	RetryDate                     // Retry-After: <HTTP-date of now + 120 s, by the web's clock>
)

// PagePaused returns a web whose site "a" (robots [ScenarioRules]) links "/" to "/busy"
// and "/public"; "/busy" answers status (503 or 429) once, with Retry-After in the given
// form and [ScenarioRetryAfter], then 200. The whole origin pauses (rule 23).
func PagePaused(status int, form RetryForm) []Site {
	first := Step{Status: status}
	switch form {
	case RetrySeconds:
		first.Header = RetryAfterSeconds(int(ScenarioRetryAfter / time.Second))
	case RetryDate:
		first.RetryDateIn = ScenarioRetryAfter
	}
	busy := Page{Path: "/busy", Title: "A busy page", Text: "This page asks crawlers to come back later.", Script: []Step{first, {}}}
	s := scenarioSite("a", robotsPage(RobotsTxt(ScenarioRules)), busy)
	s.Pages[0].Links = []string{"/busy", "/public"}
	s.Pages[0].Anchors = nil
	return []Site{s}
}

// Sitemaps returns a web whose site "a" has a robots.txt that names a sitemap index and
// a text sitemap with "Sitemap:" lines; the index names an XML sitemap and a gzip one. The pages they list
// are linked from nowhere; one of them, /private/listed, is disallowed (rule 8).
func Sitemaps() []Site {
	robots := RobotsTxt(ScenarioRules + "Sitemap: {a}/sitemap-index.xml\nSitemap: {a}/sitemap.txt\n")
	s := scenarioSite("a", &robots,
		SitemapIndex("/sitemap-index.xml", "{a}/sitemaps/main.xml", "{a}/sitemaps/more.xml.gz"),
		SitemapXML("/sitemaps/main.xml", "{a}/from-xml", "{a}/private/listed"),
		Gzipped(SitemapXML("/sitemaps/more.xml.gz", "{a}/from-gzip")),
		SitemapText("/sitemap.txt", "{a}/from-text"),
		Page{Path: "/from-xml", Title: "Listed in the XML sitemap"},
		Page{Path: "/from-gzip", Title: "Listed in the gzip sitemap"},
		Page{Path: "/from-text", Title: "Listed in the text sitemap"},
		Page{Path: "/private/listed", Title: "Listed but disallowed"},
	)
	return []Site{s}
}

// Scenario is a ready web with what a crawler that follows docs/robots-rules.md does to
// it when it runs until nothing is due, its clock moving past every pause and retry.
// References are "{key}/path".
type Scenario struct {
	Name  string // unique, e.g. "robots-404"
	Rule  string // where the expected behaviour is specified
	Note  string // what a crawler test should check beyond the two lists
	Sites []Site
	Seeds []string // references to start from

	Fetched    []string // requested at least once
	NotFetched []string // never requested
}

// Scenarios returns the fetching scenarios of docs/robots-rules.md sections C and D with
// their expected outcome, in a stable order. Each call builds fresh sites.
func Scenarios() []Scenario {
	all := func() []string { return []string{"{a}/", "{a}/public", "{a}/private/secret"} }
	obeyed := func() ([]string, []string) {
		return []string{"{a}/robots.txt", "{a}/", "{a}/public"}, []string{"{a}/private/secret"}
	}
	var out []Scenario
	add := func(sc Scenario) { out = append(out, sc) }

	f, nf := obeyed()
	add(Scenario{Name: "robots-200", Rule: "docs/robots-rules.md rule 21 (2xx)", Sites: RobotsOK(), Fetched: f, NotFetched: nf})
	for _, code := range []int{404, 401, 403, 410} {
		add(Scenario{
			Name: fmt.Sprintf("robots-%d", code), Rule: "docs/robots-rules.md rule 21 (4xx, even 401 and 403)",
			Sites: RobotsAnswering(code), Fetched: append([]string{"{a}/robots.txt"}, all()...),
		})
	}
	for _, code := range []int{429, 500, 503} {
		add(Scenario{
			Name: fmt.Sprintf("robots-%d", code), Rule: "docs/robots-rules.md rule 21 (5xx; 429 as 5xx)",
			Note:  "robots.txt is retried later with backoff; no page of a is ever requested",
			Sites: RobotsAnswering(code), Fetched: []string{"{a}/robots.txt"}, NotFetched: all(),
		})
	}
	for hops := 1; hops <= 6; hops++ {
		sc := Scenario{
			Name: fmt.Sprintf("robots-redirect-%d", hops), Rule: "docs/robots-rules.md rule 21 (3xx: up to 5 redirects, to any origin)",
			Sites: RobotsRedirects(hops),
		}
		if hops <= 5 {
			sc.Fetched, sc.NotFetched = obeyed()
			sc.Fetched = append(sc.Fetched, "{b}/shared-robots.txt")
		} else {
			sc.Note = "more than 5 redirects: a's robots.txt counts as 4xx"
			sc.Fetched = append([]string{"{a}/robots.txt"}, all()...)
			sc.NotFetched = []string{"{b}/shared-robots.txt"}
		}
		add(sc)
	}
	add(Scenario{
		Name: "robots-reset", Rule: "docs/robots-rules.md rule 21 (network errors)", Note: "the reset is a fetch error, never an empty robots.txt",
		Sites: RobotsReset(), Fetched: []string{"{a}/robots.txt"}, NotFetched: all(),
	})
	add(Scenario{
		Name: "robots-timeout", Rule: "docs/robots-rules.md rule 21 (network errors)", Note: "needs a client timeout; the request stays open until it",
		Sites: RobotsHang(), Fetched: []string{"{a}/robots.txt"}, NotFetched: all(),
	})
	add(Scenario{
		Name: "robots-refused", Rule: "docs/robots-rules.md rule 21 (network errors)", Note: "the web logs nothing: the connection is refused",
		Sites: RobotsRefused(), NotFetched: append([]string{"{a}/robots.txt"}, all()...),
	})
	f, nf = obeyed()
	add(Scenario{
		Name: "robots-5xx-then-200", Rule: "docs/robots-rules.md rule 21 (5xx, retry later)",
		Note:  "robots.txt answers 500 twice, then 200: pages are requested only after the 200",
		Sites: RobotsRecovering(2), Fetched: f, NotFetched: nf,
	})
	f, nf = obeyed()
	add(Scenario{
		Name: "robots-large", Rule: "docs/robots-rules.md rule 10 (500 KiB)",
		Sites: RobotsLarge(), Fetched: append(f, "{a}"+LargeRobotsStraddle, "{a}"+LargeRobotsBeyond), NotFetched: nf,
	})
	f, nf = obeyed()
	add(Scenario{
		Name: "robots-revalidate", Rule: "docs/robots-rules.md rule 22 (max-age, If-None-Match)",
		Note:  `after max-age=3600 has passed, robots.txt is revalidated with If-None-Match: "v1" and answered 304`,
		Sites: RobotsCacheable(), Fetched: f, NotFetched: nf,
	})
	add(Scenario{
		Name: "same-host-origins", Rule: "docs/robots-rules.md rule 20 (scheme, host and port make an origin)",
		Sites: SameHostOrigins(), Seeds: []string{"{plain}/"},
		Fetched: []string{
			"{plain}/robots.txt", "{alt}/robots.txt", "{secure}/robots.txt",
			"{plain}/only-alt", "{plain}/only-secure", "{alt}/only-plain", "{alt}/only-secure", "{secure}/only-plain", "{secure}/only-alt",
		},
		NotFetched: []string{"{plain}/only-plain", "{alt}/only-alt", "{secure}/only-secure"},
	})
	add(Scenario{
		Name: "redirect-into-disallowed", Rule: "docs/design.md, the road a URL takes: every redirect hop passes the robots check",
		Sites: RedirectIntoDisallowed(), Fetched: []string{"{a}/robots.txt", "{a}/", "{a}/public", "{a}/go/secret"}, NotFetched: []string{"{a}/private/secret"},
	})
	for _, p := range []struct {
		status int
		form   RetryForm
		name   string
	}{
		{503, RetrySeconds, "page-503-retry-seconds"},
		{503, RetryDate, "page-503-retry-date"},
		{503, NoRetryAfter, "page-503-no-retry-after"},
		{429, RetrySeconds, "page-429-retry-seconds"},
	} {
		note := "after the first answer of /busy, no request reaches a for 120 s; then one probe, then normal crawling"
		if p.form == NoRetryAfter {
			note = "after the first answer of /busy, no request reaches a for the backoff (1 minute); then one probe"
		}
		add(Scenario{
			Name: p.name, Rule: "docs/robots-rules.md rule 23 (pausing a site)", Note: note,
			Sites:      PagePaused(p.status, p.form),
			Fetched:    []string{"{a}/robots.txt", "{a}/", "{a}/busy", "{a}/public"},
			NotFetched: []string{"{a}/private/secret"},
		})
	}
	f, _ = obeyed()
	add(Scenario{
		Name: "sitemaps", Rule: "docs/robots-rules.md rule 8 (Sitemap lines); sitemap index, gzip and text sitemaps",
		Note:  "the from-* pages are reachable only through the sitemaps",
		Sites: Sitemaps(),
		Fetched: append(f, "{a}/sitemap-index.xml", "{a}/sitemap.txt", "{a}/sitemaps/main.xml", "{a}/sitemaps/more.xml.gz",
			"{a}/from-xml", "{a}/from-gzip", "{a}/from-text"),
		NotFetched: []string{"{a}/private/secret", "{a}/private/listed"},
	})
	for i := range out {
		if out[i].Seeds == nil {
			out[i].Seeds = []string{"{a}/"}
		}
	}
	return out
}
