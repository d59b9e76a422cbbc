package latencyweb

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The web holds every answer back at least Latency×(1-Jitter), serves robots.txt and links
// the home page to every page (issue 31: a latency web).
func TestLatencyWebAnswersLate(t *testing.T) {
	web, err := Start(Options{Origins: 3, Pages: 4, Latency: 40 * time.Millisecond, Jitter: 0.5, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer web.Close()
	seeds := web.Seeds()
	if len(seeds) != 3 || seeds[0] == seeds[1] {
		t.Fatalf("seeds = %v, want 3 distinct origins", seeds)
	}
	for _, path := range []string{"robots.txt", "", "p/3"} {
		start := time.Now()
		resp, err := http.Get(seeds[2] + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if took := time.Since(start); took < 20*time.Millisecond {
			t.Errorf("GET /%s answered in %v, want at least 20ms", path, took)
		}
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET /%s: %d", path, resp.StatusCode)
		}
		if path == "" && !strings.Contains(string(body), `href="/p/3"`) {
			t.Errorf("home page links no /p/3: %s", body)
		}
	}
	g := web.Gate(0)
	if g.Robots != 1 || g.Pages != 2 || g.Missing != 3*4-2 || g.ByAgent["Go-http-client/1.1"] != 3 {
		t.Errorf("gate = %+v, want 1 robots.txt, 2 pages, 10 missing, 3 requests by Go-http-client/1.1", g)
	}
}

// The gate check catches each impoliteness it names (issue 31: everything the cluster
// promises is checked from the servers' request logs).
func TestGateCatchesImpoliteness(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	h := func(path string, start, end int) hit { return hit{path: path, start: at(start), end: at(end)} }
	delay := 100 * time.Millisecond
	cases := []struct {
		name string
		hits []hit
		want string
	}{
		{"polite", []hit{h("/robots.txt", 0, 10), h("/", 110, 120), h("/p/1", 220, 230)}, ""},
		{"overlap", []hit{h("/robots.txt", 0, 10), h("/", 110, 150), h("/p/1", 120, 130)}, "in flight"},
		{"short gap", []hit{h("/robots.txt", 0, 10), h("/", 110, 120), h("/p/1", 150, 160)}, "sooner than the delay"},
		{"robots.txt late", []hit{h("/", 0, 10), h("/robots.txt", 110, 120), h("/p/1", 220, 230)}, "before the origin's robots.txt"},
		{"robots.txt twice", []hit{h("/robots.txt", 0, 10), h("/", 110, 120), h("/robots.txt", 220, 230), h("/p/1", 330, 340)}, "after the origin's first"},
		{"disallowed", []hit{h("/robots.txt", 0, 10), h("/", 110, 120), h("/p/1", 220, 230), h("/private/x", 330, 340)}, "disallows"},
		{"repeated", []hit{h("/robots.txt", 0, 10), h("/", 110, 120), h("/p/1", 220, 230), h("/p/1", 330, 340)}, "repeated"},
		{"missing", []hit{h("/robots.txt", 0, 10), h("/", 110, 120)}, "never requested"},
	}
	for _, c := range cases {
		got := strings.Join(gate(map[int][]hit{0: c.hits}, 1, 2, delay).Problems(), "; ")
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("%s: problems %q, want %q", c.name, got, c.want)
		}
	}
}
