package testweb

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// refRobot is the smallest crawler that follows docs/robots-rules.md sections C and D as
// far as the scenarios exercise them. It exists to check that each Scenario's expected
// outcome is what its sites actually produce; the real crawler is tested elsewhere.
type refRobot struct {
	t      *testing.T
	w      *Web
	c      *http.Client
	robots map[string]*refRules // by origin
	seen   map[string]bool
	queue  []refItem
}

type refItem struct {
	url     string
	sitemap bool
	tries   int
}

type refRules struct {
	unreachable bool
	disallow    []string
}

// Retries stand in for time passing: a 5xx robots.txt or a paused page is asked again.
const refMaxTries = 4

var (
	hrefRE = regexp.MustCompile(`href="([^"]*)"`)
	locRE  = regexp.MustCompile(`<loc>([^<]*)</loc>`)
)

func newRefRobot(t *testing.T, w *Web) *refRobot {
	return &refRobot{t: t, w: w, c: newClient(t, w, 100*time.Millisecond), robots: map[string]*refRules{}, seen: map[string]bool{}}
}

func (r *refRobot) push(u string, sitemap bool) {
	if !r.seen[u] {
		r.seen[u] = true
		r.queue = append(r.queue, refItem{url: u, sitemap: sitemap})
	}
}

func (r *refRobot) run(seeds []string) {
	for _, s := range seeds {
		r.push(r.w.Expand(s), false)
	}
	for len(r.queue) > 0 {
		it := r.queue[0]
		r.queue = r.queue[1:]
		u, err := url.Parse(it.url)
		if err != nil {
			r.t.Fatalf("bad queued URL %q: %v", it.url, err)
		}
		if _, err := r.w.DialContext(r.t.Context(), "tcp", u.Host); err != nil {
			continue // not a site of this web
		}
		rules := r.rules(u.Scheme + "://" + u.Host)
		if rules.unreachable || rules.blocks(u.RequestURI()) {
			continue
		}
		resp, body, err := r.fetch(it.url)
		if err != nil {
			continue
		}
		switch {
		case resp.StatusCode == 503 || resp.StatusCode == 429:
			if it.tries+1 < refMaxTries {
				it.tries++
				r.queue = append(r.queue, it)
			}
		case resp.StatusCode/100 == 3:
			if next, err := u.Parse(resp.Header.Get("Location")); err == nil {
				r.push(next.String(), it.sitemap)
			}
		case resp.StatusCode/100 == 2 && it.sitemap:
			r.readSitemap(body)
		case resp.StatusCode/100 == 2:
			for _, m := range hrefRE.FindAllStringSubmatch(string(body), -1) {
				if next, err := u.Parse(m[1]); err == nil {
					r.push(next.String(), false)
				}
			}
		}
	}
}

func (r *refRobot) fetch(u string) (*http.Response, []byte, error) {
	resp, err := r.c.Get(u)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func (r *refRobot) readSitemap(body []byte) {
	if bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			r.t.Errorf("gzip sitemap: %v", err)
			return
		}
		if body, err = io.ReadAll(zr); err != nil {
			r.t.Errorf("gzip sitemap: %v", err)
			return
		}
	}
	if bytes.Contains(body, []byte("<sitemapindex")) {
		for _, m := range locRE.FindAllStringSubmatch(string(body), -1) {
			r.push(m[1], true)
		}
		return
	}
	if bytes.Contains(body, []byte("<urlset")) {
		for _, m := range locRE.FindAllStringSubmatch(string(body), -1) {
			r.push(m[1], false)
		}
		return
	}
	for line := range strings.Lines(string(body)) {
		if line = trimASCII(strings.TrimRight(line, "\r\n")); line != "" {
			r.push(line, false)
		}
	}
}

// rules fetches an origin's robots.txt once (retrying a 5xx or network error), following
// up to 5 redirects to any origin (rule 21).
func (r *refRobot) rules(origin string) *refRules {
	if rr := r.robots[origin]; rr != nil {
		return rr
	}
	rr := &refRules{unreachable: true}
	for try := 0; try < refMaxTries && rr.unreachable; try++ {
		rr = r.fetchRules(origin + RobotsPath)
	}
	r.robots[origin] = rr
	return rr
}

func (r *refRobot) fetchRules(u string) *refRules {
	for redirects := 0; ; redirects++ {
		resp, body, err := r.fetch(u)
		switch {
		case err != nil, resp.StatusCode == 429, resp.StatusCode/100 == 5:
			return &refRules{unreachable: true}
		case resp.StatusCode/100 == 3 && redirects < 5:
			base, _ := url.Parse(u)
			next, err := base.Parse(resp.Header.Get("Location"))
			if err != nil {
				return &refRules{}
			}
			u = next.String()
		case resp.StatusCode/100 == 2:
			return r.parseRules(body)
		default: // 4xx, or a sixth redirect
			return &refRules{}
		}
	}
}

// parseRules reads Disallow and Sitemap lines of the first RobotsParseLimit bytes,
// dropping a line cut by the limit (rule 10). The scenarios only use "User-agent: *".
func (r *refRobot) parseRules(body []byte) *refRules {
	if len(body) > RobotsParseLimit {
		body = body[:RobotsParseLimit]
		body = body[:bytes.LastIndexByte(body, '\n')+1]
	}
	rr := &refRules{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		field, value, ok := strings.Cut(sc.Text(), ":")
		value = trimASCII(value)
		switch {
		case !ok:
		case equalFoldASCII(trimASCII(field), "disallow") && value != "":
			rr.disallow = append(rr.disallow, value)
		case equalFoldASCII(trimASCII(field), "sitemap"):
			r.push(value, true)
		}
	}
	return rr
}

func (rr *refRules) blocks(path string) bool {
	if path == RobotsPath {
		return false
	}
	for _, d := range rr.disallow {
		if strings.HasPrefix(path, d) {
			return true
		}
	}
	return false
}

// Each Scenario's Fetched and NotFetched lists hold for a crawler that follows the
// rules the scenario cites.
func TestScenariosMatchTheirExpectations(t *testing.T) {
	names := map[string]bool{}
	for _, sc := range Scenarios() {
		t.Run(sc.Name, func(t *testing.T) {
			if names[sc.Name] {
				t.Fatalf("duplicate scenario name")
			}
			names[sc.Name] = true
			if sc.Rule == "" || len(sc.Seeds) == 0 || len(sc.Fetched)+len(sc.NotFetched) == 0 {
				t.Fatalf("scenario lacks a rule, seeds or expectations: %+v", sc)
			}
			w := start(t, sc.Sites, Options{})
			newRefRobot(t, w).run(sc.Seeds)
			count := func(ref string) int {
				key := refKey(ref)
				return w.Count(key, strings.TrimPrefix(ref, "{"+key+"}"))
			}
			for _, ref := range sc.Fetched {
				if count(ref) == 0 {
					t.Errorf("%s was never requested, want it fetched", ref)
				}
			}
			for _, ref := range sc.NotFetched {
				if n := count(ref); n != 0 {
					t.Errorf("%s was requested %d times, want never", ref, n)
				}
			}
			// The reference robot obeys rule 20, so the log checker must find nothing.
			if bad := w.BeforeRobots(); len(bad) > 0 {
				t.Errorf("BeforeRobots reports %v for a robot that asks robots.txt first", bad)
			}
			if t.Failed() {
				for _, r := range w.Requests() {
					t.Log(r)
				}
			}
		})
	}
}

// The scenario robots.txt files answer what their names say.
func TestScenarioRobotsAnswers(t *testing.T) {
	w := start(t, RobotsRecovering(2), Options{})
	c := newClient(t, w, 0)
	for _, want := range []int{500, 500, 200, 200} {
		if got := get(t, c, w.URL("a", RobotsPath)); got.status != want {
			t.Errorf("RobotsRecovering(2): %d, want %d", got.status, want)
		}
	}
	for _, form := range []RetryForm{NoRetryAfter, RetrySeconds, RetryDate} {
		clock := newFakeClock()
		w := start(t, PagePaused(503, form), Options{Now: clock.Now})
		first := get(t, newClient(t, w, 0), w.URL("a", "/busy"))
		want := map[RetryForm]string{
			NoRetryAfter: "",
			RetrySeconds: "120",
			RetryDate:    clock.Now().Add(ScenarioRetryAfter).Format(http.TimeFormat),
		}[form]
		if first.status != 503 || first.header.Get("Retry-After") != want {
			t.Errorf("PagePaused(503, %d): %d Retry-After %q, want 503 %q", form, first.status, first.header.Get("Retry-After"), want)
		}
	}
}
