package main

import (
	"net"
	"strings"
	"testing"
)

// The README's first command: the demo crawls the bundled sample web and shows search working,
// including robots.txt-blocked pages found only as link-only entries (seed 001). --max-wait 1s
// ends the crawl instead of waiting out the sample's 10 s Retry-After (rule 23), so the test never
// sleeps; the paused site's queue is left for a later run, and its members' roster, known from
// links, shows as a link-only entry waiting on the pause.
func TestDemoCrawlsTheSampleAndSearches(t *testing.T) {
	code, out, errOut := runCLI(t, "", "demo", "--no-serve", "--max-wait", "1s")
	if code != exitOK {
		t.Fatalf("demo: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"Crawl ended:",
		"disallowed by robots.txt",
		"$ mandelbot search sourdough",
		"Members' roster and contact sheet [not crawled]",
		"Not crawled: blocked by robots.txt, Disallow: /old-catalogue (line 2)",
		"Indexed: fetched",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	// The roster is decided by robots.txt unless the site's pause came first (page order varies).
	if !strings.Contains(out, "Not crawled: blocked by robots.txt, Disallow: /members/ (line 3)") &&
		!strings.Contains(out, "Not crawled: its site asked us to pause (origin answered 503") {
		t.Errorf("the roster's link-only entry says neither why it was not crawled:\n%s", out)
	}
	if !strings.Contains(out, "503/429 answers           1") {
		t.Errorf("the sample's 503 page should have paused its site once:\n%s", out)
	}
	// Issue 10: the store is temporary and removed on exit: no export command for it.
	if strings.Contains(out, "mandelbot export") || !strings.Contains(out, "Store: temporary, removed on exit") {
		t.Errorf("demo without --data suggests exporting a store it deletes:\n%s", out)
	}
}

// Issue 10: a busy --addr fails before the demo crawls anything.
func TestDemoBusyAddrFailsFirst(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, out, errOut := runCLI(t, "", "demo", "--addr", ln.Addr().String())
	if code == exitOK || strings.Contains(out, "Crawling") || !strings.Contains(errOut, "--addr "+ln.Addr().String()) {
		t.Errorf("demo on a busy address: exit %d\n%s\n%s", code, out, errOut)
	}
}
