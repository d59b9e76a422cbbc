package testweb

import (
	"encoding/xml"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// docs/robots-rules.md rule 10: only the first 512,000 bytes count and a line cut by the
// limit is dropped. The large robots.txt puts a rule across the limit so that a parser
// keeping the cut "Disallow: /stra" would block /straddle-limit.
func TestLargeRobotsTxtLayout(t *testing.T) {
	const size = 600 * 1024
	p := LargeRobotsTxt(size)
	body := p.Body
	if len(body) != size {
		t.Fatalf("size %d, want %d", len(body), size)
	}
	if !strings.HasPrefix(body, "User-agent: *\nDisallow: /private\n") {
		t.Errorf("body does not start with the early rule: %q", body[:40])
	}
	if head := body[:RobotsParseLimit]; !strings.HasSuffix(head, "\nDisallow: /stra") {
		t.Errorf("the limit does not cut the straddling line after \"Disallow: /stra\": ...%q", head[len(head)-30:])
	}
	if i := strings.Index(body, "Disallow: "+LargeRobotsBeyond); i < RobotsParseLimit {
		t.Errorf("the beyond rule starts at %d, inside the limit", i)
	}
	if n := strings.Count(body, "Disallow:"); n != 3 {
		t.Errorf("%d Disallow lines, want 3", n)
	}
	if got := len(LargeRobotsTxt(10).Body); got < RobotsParseLimit+1024 {
		t.Errorf("LargeRobotsTxt(10) is %d bytes, want at least the limit + 1 KiB", got)
	}

	w := start(t, RobotsLarge(), Options{})
	got := get(t, newClient(t, w, 0), w.URL("a", RobotsPath))
	if len(got.body) != size || got.header.Get("Content-Length") != strconv.Itoa(size) {
		t.Errorf("served %d bytes with Content-Length %q, want %d", len(got.body), got.header.Get("Content-Length"), size)
	}
}

func TestSitemapBuildersAreWellFormed(t *testing.T) {
	type loc struct {
		Loc string `xml:"loc"`
	}
	var urlset struct {
		XMLName xml.Name
		URLs    []loc `xml:"url"`
	}
	p := SitemapXML("/s.xml", "{a}/x?a=1&b=2", "{a}/y")
	if err := xml.Unmarshal([]byte(p.Body), &urlset); err != nil {
		t.Fatalf("SitemapXML is not XML: %v\n%s", err, p.Body)
	}
	want := []loc{{"{a}/x?a=1&b=2"}, {"{a}/y"}}
	if urlset.XMLName.Local != "urlset" || urlset.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" {
		t.Errorf("root %v, want sitemaps.org urlset", urlset.XMLName)
	}
	if diff := cmp.Diff(want, urlset.URLs); diff != "" {
		t.Errorf("locs mismatch (-want +got):\n%s", diff)
	}

	var index struct {
		XMLName  xml.Name
		Sitemaps []loc `xml:"sitemap"`
	}
	if err := xml.Unmarshal([]byte(SitemapIndex("/i.xml", "{a}/s.xml").Body), &index); err != nil {
		t.Fatal(err)
	}
	if index.XMLName.Local != "sitemapindex" || len(index.Sitemaps) != 1 || index.Sitemaps[0].Loc != "{a}/s.xml" {
		t.Errorf("index = %+v", index)
	}
	if got := SitemapText("/s.txt", "{a}/1", "{a}/2").Body; got != "{a}/1\n{a}/2\n" {
		t.Errorf("text sitemap = %q", got)
	}
}

func TestRedirectChainStatusesAndLocations(t *testing.T) {
	got := RedirectChain("{b}/end", Hop{Key: "a", Path: "/1", Status: 307}, Hop{Key: "a", Path: "/2"}, Hop{Key: "b", Path: "/3", Status: 308})
	type hop struct {
		Path, To string
		Status   int
	}
	flat := map[string][]hop{}
	for key, pages := range got {
		for _, p := range pages {
			flat[key] = append(flat[key], hop{p.Path, p.Script[0].RedirectTo, p.Script[0].Status})
		}
	}
	want := map[string][]hop{
		"a": {{"/1", "/2", 307}, {"/2", "{b}/3", 302}},
		"b": {{"/3", "/end", 308}},
	}
	if diff := cmp.Diff(want, flat); diff != "" {
		t.Errorf("chain mismatch (-want +got):\n%s", diff)
	}
}
