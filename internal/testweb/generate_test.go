package testweb

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// resolveRef splits a generated link ("/p/3" on origin from, or "{g7}/p/3") into key and path.
func resolveRef(from, href string) (key, path string) {
	if k := refKey(href); k != "" {
		return k, strings.TrimPrefix(href, "{"+k+"}")
	}
	return from, href
}

// Every link of a 100 x 200 web leads to a page its site serves; every page is reached
// from "/" through first links; some links cross origins, some hit /private/.
func TestGenerateLinksResolve(t *testing.T) {
	opts := GenOptions{Origins: 100, PagesPerOrigin: 200, LinksPerPage: 8, WordsPerPage: 10, Seed: 7}
	sites := Generate(opts)
	if len(sites) != 100 {
		t.Fatalf("%d sites, want 100", len(sites))
	}
	byKey := map[string]Site{}
	for _, s := range sites {
		byKey[s.Key] = s
	}
	var cross, private, total int
	exists := map[string]bool{} // key+path -> served; each target is rendered once
	for _, s := range sites {
		for n := range 200 {
			path := "/"
			if n > 0 {
				path = "/p/" + strconv.Itoa(n)
			}
			p, ok := s.Fallback(path)
			if !ok {
				t.Fatalf("%s%s does not exist", s.Key, path)
			}
			if len(p.Anchors) != 8 {
				t.Fatalf("%s%s has %d links, want 8", s.Key, path, len(p.Anchors))
			}
			wantNext := "/p/" + strconv.Itoa(n+1)
			if n == 199 {
				wantNext = "/"
			}
			if p.Anchors[0].Href != wantNext {
				t.Errorf("%s%s: first link %q, want %q", s.Key, path, p.Anchors[0].Href, wantNext)
			}
			for _, a := range p.Anchors {
				total++
				key, target := resolveRef(s.Key, a.Href)
				site, known := byKey[key]
				if !known {
					t.Fatalf("%s%s links to unknown site %q", s.Key, path, key)
				}
				ok, checked := exists[key+target]
				if !checked {
					_, ok = site.Fallback(target)
					exists[key+target] = ok
				}
				if !ok {
					t.Errorf("%s%s links to missing %s%s", s.Key, path, key, target)
				}
				if key != s.Key {
					cross++
				}
				if strings.HasPrefix(target, "/private/") {
					private++
				}
			}
		}
	}
	// With 7 random links of 8, expect ~10% cross-origin and ~2% private.
	if share := float64(cross) / float64(total); share < 0.05 || share > 0.15 {
		t.Errorf("cross-origin links %.3f of all, want about 0.09", share)
	}
	if share := float64(private) / float64(total); share < 0.005 || share > 0.04 {
		t.Errorf("private links %.3f of all, want about 0.0175", share)
	}
}

// Over HTTP: a breadth-first walk from the seeds reaches every page and every link
// inside the web answers 200; robots.txt disallows /private/ and names the sitemap,
// which lists every page.
func TestGenerateServesAConsistentWeb(t *testing.T) {
	const origins, pages = 4, 30
	w := start(t, Generate(GenOptions{Origins: origins, PagesPerOrigin: pages, LinksPerPage: 5, WordsPerPage: 40, Seed: 1}), Options{})
	c := newClient(t, w, 0)
	seen := map[string]bool{}
	queue := w.Seeds()
	for _, s := range queue {
		seen[s] = true
	}
	fetched := 0
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		got := get(t, c, u)
		if got.status != http.StatusOK {
			t.Errorf("GET %s: %d, want 200", u, got.status)
			continue
		}
		if strings.Contains(u, "/private/") {
			continue
		}
		fetched++
		hrefs, _ := anchors(got.body)
		for _, h := range hrefs {
			base, _ := url.Parse(u)
			next, err := base.Parse(h)
			if err != nil {
				t.Errorf("%s: bad link %q", u, h)
				continue
			}
			if !seen[next.String()] {
				seen[next.String()] = true
				queue = append(queue, next.String())
			}
		}
	}
	if fetched != origins*pages {
		t.Errorf("reached %d documents, want %d", fetched, origins*pages)
	}
	for _, key := range w.Keys() {
		robots := get(t, c, w.URL(key, RobotsPath)).body
		if !strings.Contains(robots, "Disallow: /private/\n") || !strings.Contains(robots, "Sitemap: "+w.URL(key, "/sitemap.xml")) {
			t.Errorf("%s robots.txt: %q", key, robots)
		}
		sm := get(t, c, w.URL(key, "/sitemap.xml")).body
		if n := strings.Count(sm, "<loc>"+w.Origin(key)+"/"); n != pages {
			t.Errorf("%s sitemap lists %d URLs of its origin, want %d", key, n, pages)
		}
	}
}

// Paths are canonical: no zero, no leading zeros, nothing past the last page.
func TestGenerateAnswers404OffTheMap(t *testing.T) {
	w := start(t, Generate(GenOptions{Origins: 1, PagesPerOrigin: 10}), Options{})
	c := newClient(t, w, 0)
	for _, p := range []string{"/p/0", "/p/01", "/p/10", "/p/x", "/p/", "/private/0", "/p/1?x=1", "/index.html"} {
		if got := get(t, c, w.URL("g0", p)); got.status != 404 {
			t.Errorf("GET %s: %d, want 404", p, got.status)
		}
	}
	if got := get(t, c, w.URL("g0", "/p/9")); got.status != 200 {
		t.Errorf("GET /p/9: %d, want 200", got.status)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	body := func(seed uint64, path string) string {
		p, ok := Generate(GenOptions{Origins: 3, Seed: seed})[2].Fallback(path)
		if !ok {
			t.Fatalf("%s missing", path)
		}
		return string(renderHTML(&p, func(s string) string { return s }))
	}
	for _, path := range []string{"/", "/p/1", "/p/99"} {
		if first, again := body(5, path), body(5, path); first != again {
			t.Errorf("%s differs between two runs with the same seed", path)
		}
		if body(5, path) == body(6, path) {
			t.Errorf("%s is the same under seeds 5 and 6", path)
		}
	}
	if body(5, "/p/1") == body(5, "/p/2") {
		t.Errorf("two pages have the same content")
	}
}

// Search benchmarks need varied text: many distinct words, a Zipf head of common ones.
func TestGenerateTextIsVaried(t *testing.T) {
	v := vocabulary(DefaultVocabulary)
	distinctVocab := map[string]bool{}
	for _, w := range v {
		distinctVocab[w] = true
	}
	if len(v) != DefaultVocabulary || len(distinctVocab) != DefaultVocabulary {
		t.Fatalf("vocabulary has %d words, %d distinct; want %d", len(v), len(distinctVocab), DefaultVocabulary)
	}
	site := Generate(GenOptions{Origins: 1, PagesPerOrigin: 60, WordsPerPage: 300})[0]
	freq := map[string]int{}
	for n := 1; n < 60; n++ {
		p, _ := site.Fallback("/p/" + strconv.Itoa(n))
		for _, w := range strings.FieldsFunc(strings.ToLower(p.Text), func(r rune) bool { return r == ' ' || r == '.' || r == '\n' }) {
			freq[w]++
		}
	}
	if len(freq) < 1000 {
		t.Errorf("%d distinct words in 59 pages, want over 1000", len(freq))
	}
	top, topN := "", 0
	for w, n := range freq {
		if n > topN {
			top, topN = w, n
		}
	}
	if top != "the" && top != "of" {
		t.Errorf("most frequent word %q, want a common English word at the Zipf head", top)
	}
	rare := 0
	for _, n := range freq {
		if n == 1 {
			rare++
		}
	}
	if rare < len(freq)/4 {
		t.Errorf("only %d of %d words occur once; the tail is too thin", rare, len(freq))
	}
}

// BenchmarkStartGenerated measures Start and Close of a 100 x 200 web.
func BenchmarkStartGenerated(b *testing.B) {
	sites := Generate(GenOptions{Origins: 100, PagesPerOrigin: 200})
	for b.Loop() {
		w, err := Start(sites, Options{})
		if err != nil {
			b.Fatal(err)
		}
		w.Close()
	}
}

// BenchmarkServeGeneratedPage measures one GET of a generated page over loopback HTTP,
// rendering included.
func BenchmarkServeGeneratedPage(b *testing.B) {
	w, err := Start(Generate(GenOptions{Origins: 100, PagesPerOrigin: 200}), Options{MaxLog: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	tr := &http.Transport{DialContext: w.DialContext}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr}
	urls := make([]string, 100)
	for i := range urls {
		urls[i] = w.URL(GenKey(i), "/p/"+strconv.Itoa(1+i))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		a, err := tryGet(c, urls[i%len(urls)])
		if err != nil || a.status != 200 {
			b.Fatalf("GET: %v %d", err, a.status)
		}
		b.SetBytes(int64(len(a.body)))
		i++
	}
}
