package main

import (
	"bufio"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

func startWeb(t *testing.T, sites []testweb.Site) *testweb.Web {
	t.Helper()
	web, err := testweb.Start(sites, testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	return web
}

func resolveArgs(web *testweb.Web) []string {
	var args []string
	for _, r := range web.Resolve() {
		args = append(args, "--resolve", r)
	}
	return args
}

func exportLines(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	code, out, errOut := runCLI(t, "", append([]string{"export"}, args...)...)
	if code != exitOK {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	var lines []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("export line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	return lines
}

// The DESIGN.md contract of crawl and export, end to end on the fake web: the export has one
// object per known URL with the contract's fields, and robots.txt decisions per origin.
func TestCrawlThenExport(t *testing.T) {
	web := startWeb(t, testweb.RobotsOK())
	data := filepath.Join(t.TempDir(), "data")
	args := append([]string{"crawl", "--data", data, "--delay", "0"}, resolveArgs(web)...)
	code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...)
	if code != exitOK || !strings.Contains(out, "Crawl ended: nothing left to crawl") {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	byURL := map[string]map[string]any{}
	for _, l := range exportLines(t, "--data", data) {
		for _, k := range []string{"url", "origin", "state", "status", "indexed", "link_only", "reason", "fetched_at"} {
			if _, ok := l[k]; !ok {
				t.Errorf("export line lacks %q: %v", k, l)
			}
		}
		byURL[l["url"].(string)] = l
	}
	secret := byURL[web.URL("a", "/private/secret")]
	if secret["state"] != "robots_disallowed" || secret["link_only"] != true || !strings.Contains(secret["reason"].(string), "line 2") {
		t.Errorf("disallowed URL exported as %v", secret)
	}
	if pub := byURL[web.URL("a", "/public")]; pub["state"] != "fetched" || pub["status"] != float64(200) {
		t.Errorf("fetched URL exported as %v", pub)
	}
	origins := exportLines(t, "--data", data, "--robots")
	if len(origins) != 1 || origins[0]["robots_status"] != "rules" || origins[0]["rules"] != float64(1) {
		t.Errorf("origins: %v", origins)
	}
	if web.Count("a", "/private/secret") != 0 {
		t.Error("a disallowed URL was requested")
	}
}

// Issue 3, bad input: a bad seed, an unknown flag, a loopback seed without --allow-private or
// --resolve, and an export with no crawl exit 2 with a clear message.
func TestCrawlBadInputExitsTwo(t *testing.T) {
	data := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"crawl", "--data", data, "not a url"}, `seed "not a url"`},
		{[]string{"crawl", "--data", data, "mailto:a@b.c"}, "seed"},
		{[]string{"crawl", "--data", data, "--frobnicate", "http://a.test/"}, "unknown flag"},
		{[]string{"crawl", "--data", data, "http://127.0.0.1:1/"}, "--allow-private"},
		{[]string{"crawl", "--data", data, "--scope", "planet", "http://a.test/"}, "--scope"},
		{[]string{"crawl", "--data", data, "--site-delay", "nodelay", "http://a.test/"}, "--site-delay"},
		{[]string{"crawl", "--data", data, "--resolve", "bogus", "http://a.test/"}, "--resolve"},
		{[]string{"crawl", "--data", data, "--warc", data, "http://a.test/"}, "not implemented"},
		{[]string{"crawl", "--data", data}, "nothing to crawl"},
		{[]string{"export", "--data", filepath.Join(data, "none")}, "no crawl at"},
	} {
		code, out, errOut := runCLI(t, "", tt.args...)
		if code != exitUsage || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "secret") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 mentioning %q", tt.args, code, out, errOut, tt.want)
		}
	}
}
