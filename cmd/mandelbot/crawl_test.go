package main

import (
	"bufio"
	"encoding/json"
	"os"
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

// The docs/design.md contract of crawl and export, end to end on the fake web: the export has one
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
		{[]string{"crawl", "--data", data, "--warc", data, "--warc-max-size", "0", "http://a.test/"}, "--warc-max-size"},
		{[]string{"crawl", "--data", data, "--recrawl-after", "-1h", "http://a.test/"}, "--recrawl-after"},
		{[]string{"crawl", "--data", data}, "nothing to crawl"},
		{[]string{"crawl", "--data", filepath.Join(data, "new")}, "no crawl at"},
		{[]string{"export", "--data", filepath.Join(data, "none")}, "no crawl at"},
		// Issue 10: the new flags are checked before any work, a mistyped flag gets a suggestion.
		{[]string{"crawl", "--data", data, "--header", "User-Agent: me", "http://a.test/"}, "--header User-Agent is the crawler's own"},
		{[]string{"crawl", "--data", data, "--header", "no colon", "http://a.test/"}, "'Name: value'"},
		{[]string{"crawl", "--data", data, "--include", "(", "http://a.test/"}, "--include"},
		{[]string{"crawl", "--data", data, "--seeds-file", filepath.Join(data, "none.txt")}, "--seeds-file"},
		{[]string{"crawl", "--data", data, "--dealy", "1s", "http://a.test/"}, "did you mean --delay?"},
		{[]string{"crawl", "--data", data, "--store", "sqlite:" + filepath.Join(data, "x.db"), "http://a.test/"}, "--data or --store, not both"},
		{[]string{"export", "--data", data, "--store", "sqlite:" + filepath.Join(data, "x.db")}, "--data or --store, not both"},
		{[]string{"crawl", "--data", data, "--max-page", "1", "http://a.test/"}, "did you mean --max-pages?"},
		// Issue 12: the lease flags, checked before any work.
		{[]string{"crawl", "--data", data, "--lease-ttl", "500ms", "http://a.test/"}, "--lease-ttl must be at least 1s"},
		{[]string{"crawl", "--data", data, "--lease-batch", "-1", "http://a.test/"}, "--lease-batch must not be negative"},
	} {
		code, out, errOut := runCLI(t, "", tt.args...)
		if _, err := os.Stat(filepath.Join(data, "new")); err == nil {
			t.Errorf("%v: a failed first run left a store behind (issue 10)", tt.args)
		}
		if code != exitUsage || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "secret") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 mentioning %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

// Issue 10, data in: seeds from a file (comments and blank lines skipped), --include and
// --exclude patterns, and --header fields sent with every request, robots.txt included.
func TestCrawlSeedsFileIncludeExcludeHeader(t *testing.T) {
	web := startWeb(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{
		{Path: "/", Links: []string{"/docs/one", "/docs/two.pdf", "/blog/x"}},
		{Path: "/docs/one"}, {Path: "/docs/two.pdf"}, {Path: "/blog/x"}, {Path: "/second"},
	}}})
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("# our seeds\n"+web.URL("a", "/")+"\n\n  "+web.URL("a", "/second")+"  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"crawl", "--data", filepath.Join(dir, "data"), "--delay", "0", "--seeds-file", seeds,
		"--include", "/docs/", "--exclude", `\.pdf$`, "--header", "From: ops@example.com"}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", args...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	for path, want := range map[string]int{"/": 1, "/second": 1, "/docs/one": 1, "/docs/two.pdf": 0, "/blog/x": 0} {
		if got := web.Count("a", path); got != want {
			t.Errorf("%s requested %d times, want %d", path, got, want)
		}
	}
	for _, r := range web.Requests() {
		if r.Header.Get("From") != "ops@example.com" {
			t.Errorf("%v: no From header", r)
		}
	}
}

// Issue 10: `crawl --documents FILE` writes every page answered as a JSON line with its title,
// text, header and links with anchors.
func TestCrawlDocumentsFile(t *testing.T) {
	web := startWeb(t, testweb.RobotsOK())
	dir := t.TempDir()
	docs := filepath.Join(dir, "docs.jsonl")
	args := append([]string{"crawl", "--data", filepath.Join(dir, "data"), "--delay", "0", "--documents", docs}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	b, err := os.ReadFile(docs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	pages := 0
	for _, r := range web.Requests() {
		if r.Path != testweb.RobotsPath {
			pages++
		}
	}
	if len(lines) != pages {
		t.Fatalf("%d document lines for %d page requests:\n%s", len(lines), pages, b)
	}
	for _, l := range lines {
		var d map[string]any
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		for _, k := range []string{"url", "final_url", "status", "headers", "title", "text", "links", "robots", "fetched_at"} {
			if _, ok := d[k]; !ok {
				t.Errorf("document line lacks %q: %s", k, l)
			}
		}
	}
}

// Issue 10: `export --robots` lists the origins the crawl contacted; one known only from a link
// (out of --scope host) is listed with --all-origins.
func TestExportRobotsContactedOrigins(t *testing.T) {
	web := startWeb(t, []testweb.Site{{Key: "a", Pages: []testweb.Page{{Path: "/", Links: []string{"{b}/"}}}}, {Key: "b"}})
	data := filepath.Join(t.TempDir(), "data")
	args := append([]string{"crawl", "--data", data, "--delay", "0"}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	keys := func(lines []map[string]any) (out []string) {
		for _, l := range lines {
			out = append(out, l["origin"].(string))
		}
		return out
	}
	if got := keys(exportLines(t, "--data", data, "--robots")); len(got) != 1 || got[0] != web.Origin("a") {
		t.Errorf("--robots: %v, want only the contacted %s", got, web.Origin("a"))
	}
	if got := keys(exportLines(t, "--data", data, "--robots", "--all-origins")); len(got) != 2 {
		t.Errorf("--robots --all-origins: %v, want both origins", got)
	}
}

// --seeds-file - reads the seeds from standard input.
func TestCrawlSeedsFromStdin(t *testing.T) {
	web := startWeb(t, testweb.RobotsOK())
	args := append([]string{"crawl", "--data", filepath.Join(t.TempDir(), "data"), "--delay", "0", "--seeds-file", "-"}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "# from a pipe\n"+web.URL("a", "/public")+"\n", args...); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, out, errOut)
	}
	if web.Count("a", "/public") != 1 {
		t.Errorf("the seed from standard input was not crawled: %v", web.Requests())
	}
}
