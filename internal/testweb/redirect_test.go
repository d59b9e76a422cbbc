package testweb

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// References are expanded in links, anchors, redirect targets, header values and raw
// bodies; NoExpand turns that off.
func TestReferencesAreExpanded(t *testing.T) {
	w := start(t, []Site{
		{Key: "a", Robots: robotsPage(RobotsTxt("User-agent: *\nDisallow:\nSitemap: {b}/sitemap.xml\n")), Pages: []Page{
			{Path: "/", Title: "Home", Links: []string{"/local", "{b}/far", "https://elsewhere.example/x"},
				Anchors: []Link{{Href: "{b}/anchored", Text: "B's page", Rel: "nofollow"}}},
			{Path: "/hdr", Header: http.Header{"Link": {"<{b}/canonical>; rel=canonical"}}},
			{Path: "/raw", Body: "{b} stays", NoExpand: true},
			Redirect("/moved", http.StatusMovedPermanently, "{b}/landing"),
			Redirect("/relative", http.StatusTemporaryRedirect, "../up?x=1"),
		}},
		{Key: "b"},
	}, Options{})
	c := newClient(t, w, 0)
	b := w.Origin("b")

	if got := get(t, c, w.URL("a", RobotsPath)); !strings.Contains(got.body, "Sitemap: "+b+"/sitemap.xml\n") {
		t.Errorf("robots.txt %q lacks the expanded Sitemap line", got.body)
	}
	home := get(t, c, w.URL("a", "/")).body
	for _, want := range []string{
		`<a href="/local">/local</a>`,
		`<a href="` + b + `/far">` + b + `/far</a>`,
		`<a href="https://elsewhere.example/x">`,
		`<a href="` + b + `/anchored" rel="nofollow">B&#39;s page</a>`,
	} {
		if !strings.Contains(home, want) {
			t.Errorf("home page lacks %s:\n%s", want, home)
		}
	}
	if got := get(t, c, w.URL("a", "/hdr")).header.Get("Link"); got != "<"+b+"/canonical>; rel=canonical" {
		t.Errorf("Link header = %q, want it expanded", got)
	}
	if got := get(t, c, w.URL("a", "/raw")).body; got != "{b} stays" {
		t.Errorf("NoExpand body = %q", got)
	}
	moved := get(t, c, w.URL("a", "/moved"))
	if moved.status != 301 || moved.header.Get("Location") != b+"/landing" {
		t.Errorf("/moved: %d Location %q, want 301 %q", moved.status, moved.header.Get("Location"), b+"/landing")
	}
	rel := get(t, c, w.URL("a", "/relative"))
	if rel.status != 307 || rel.header.Get("Location") != "../up?x=1" {
		t.Errorf("/relative: %d Location %q, want 307 and the relative Location as given", rel.status, rel.header.Get("Location"))
	}
}

// follow walks redirects by hand from u and returns each requested URL, the final
// answer and the number of redirects, stopping after limit redirects.
func follow(t *testing.T, c *http.Client, u string, limit int) ([]string, answer, int) {
	t.Helper()
	var visited []string
	for hops := 0; ; hops++ {
		visited = append(visited, u)
		a := get(t, c, u)
		if a.status/100 != 3 || hops == limit {
			return visited, a, hops
		}
		base, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		next, err := base.Parse(a.header.Get("Location"))
		if err != nil {
			t.Fatalf("bad Location %q: %v", a.header.Get("Location"), err)
		}
		u = next.String()
	}
}

// docs/robots-rules.md rule 21 (3xx): a robots.txt reached after 1..6 redirects, the first
// to another origin. Five are followed; the sixth is one too many.
func TestRobotsRedirectChains(t *testing.T) {
	for hops := 1; hops <= 6; hops++ {
		t.Run(fmt.Sprintf("%d hops", hops), func(t *testing.T) {
			w := start(t, RobotsRedirects(hops), Options{})
			c := newClient(t, w, 0)
			visited, final, n := follow(t, c, w.URL("a", RobotsPath), 5)

			want := []string{w.URL("a", RobotsPath)}
			for i := 1; i < min(hops, 6); i++ {
				want = append(want, w.URL("b", fmt.Sprintf("/robots-moved/%d", i)))
			}
			if hops <= 5 {
				want = append(want, w.URL("b", "/shared-robots.txt"))
			}
			if diff := cmp.Diff(want, visited); diff != "" {
				t.Errorf("visited mismatch (-want +got):\n%s", diff)
			}
			if hops <= 5 {
				if n != hops || final.status != 200 || final.body != ScenarioRules {
					t.Errorf("after %d redirects: %d %q, want %d redirects to 200 %q", n, final.status, final.body, hops, ScenarioRules)
				}
			} else if final.status/100 != 3 {
				t.Errorf("6 hops: the 6th answer is %d, want still a redirect", final.status)
			}
			// The first hop changes origin with an absolute Location; later ones are
			// relative on b.
			first := get(t, c, w.URL("a", RobotsPath)).header.Get("Location")
			if !strings.HasPrefix(first, w.Origin("b")+"/") {
				t.Errorf("first Location %q is not an absolute URL on b", first)
			}
			if hops >= 3 {
				if loc := get(t, c, w.URL("b", "/robots-moved/1")).header.Get("Location"); loc != "/robots-moved/2" {
					t.Errorf("second Location %q, want the relative /robots-moved/2", loc)
				}
			}
			var codes []int
			for _, r := range w.Requests()[:min(hops, 6)] {
				codes = append(codes, r.Status)
			}
			for i, code := range codes {
				if want := []int{301, 302}[i%2]; code != want {
					t.Errorf("hop %d answered %d, want %d (hops alternate 301, 302)", i+1, code, want)
				}
			}
		})
	}
}

// docs/design.md, the road a URL takes: a page may redirect into a disallowed path; the target must get
// its own robots check.
func TestRedirectIntoDisallowedPath(t *testing.T) {
	w := start(t, RedirectIntoDisallowed(), Options{})
	got := get(t, newClient(t, w, 0), w.URL("a", "/go/secret"))
	if got.status != 302 || got.header.Get("Location") != "/private/secret" {
		t.Fatalf("/go/secret: %d %q, want 302 to /private/secret", got.status, got.header.Get("Location"))
	}
}

func TestAddPagesCopiesAndMovesRobots(t *testing.T) {
	sites := []Site{{Key: "a", Pages: []Page{{Path: "/"}}}}
	out := AddPages(sites, map[string][]Page{"a": {{Path: "/x"}, RobotsTxt("User-agent: *\n")}})
	if len(sites[0].Pages) != 1 || sites[0].Robots != nil {
		t.Errorf("AddPages modified its input: %+v", sites[0])
	}
	if out[0].Robots == nil || out[0].Robots.Body != "User-agent: *\n" {
		t.Errorf("robots.txt page did not become Robots: %+v", out[0])
	}
	var paths []string
	for _, p := range out[0].Pages {
		paths = append(paths, p.Path)
	}
	if diff := cmp.Diff([]string{"/", "/x"}, paths); diff != "" {
		t.Errorf("pages mismatch (-want +got):\n%s", diff)
	}
}
