package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/testweb"
)

// hostileSite has a page whose title and text try to break every output format, and a
// robots.txt-blocked page known only from a link.
func hostileSite() []testweb.Site {
	return []testweb.Site{{Key: "a",
		Robots: &testweb.Page{Body: "User-agent: *\nDisallow: /vault\n", ContentType: "text/plain"},
		Pages: []testweb.Page{
			{Path: "/", Body: "<html><head><title>Quasar <b>bold</b> \"quoted\" &amp; 'single'</title></head><body>" +
				"<script>document.write('quasar-in-script')</script><p>quasar text \xff\xfe broken bytes " +
				"<img src=x onerror=alert(1)> \x1b[31mred\x1b[0m and a \"quasar\" quote</p>" +
				"<a href=\"/vault/plans\">quasar vault plans</a></body></html>"},
			{Path: "/vault/plans", Title: "Plans", Text: "never seen"},
		}}}
}

func crawlHostile(t *testing.T) (string, *testweb.Web) {
	t.Helper()
	web := startWeb(t, hostileSite())
	data := filepath.Join(t.TempDir(), "data")
	args := append([]string{"crawl", "--data", data, "--delay", "0"}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl: %d\n%s\n%s", code, out, errOut)
	}
	return data, web
}

// Issue 4: `mandelbot search --json` prints {"results": [...]} with url, title, snippet,
// link_only and reason, correct for hostile page content; a robots.txt-blocked URL is a
// link-only entry with its reason (seed 001).
func TestSearchJSONHostileContentAndLinkOnly(t *testing.T) {
	data, web := crawlHostile(t)
	code, out, errOut := runCLI(t, "", "search", "--data", data, "--json", "quasar")
	if code != exitOK {
		t.Fatalf("search: %d %s", code, errOut)
	}
	if !utf8.ValidString(out) {
		t.Fatal("output is not valid UTF-8")
	}
	var doc struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	byURL := map[string]map[string]any{}
	for _, r := range doc.Results {
		for _, k := range []string{"url", "title", "snippet", "link_only", "reason"} {
			if _, ok := r[k]; !ok {
				t.Errorf("result lacks %q: %v", k, r)
			}
		}
		byURL[r["url"].(string)] = r
	}
	home := byURL[web.URL("a", "/")]
	if home == nil || home["title"] != `Quasar <b>bold</b> "quoted" & 'single'` {
		t.Fatalf("home result: %v", home)
	}
	snippet := home["snippet"].(string)
	if strings.Contains(snippet, "quasar-in-script") || strings.Contains(snippet, "\x1b") {
		t.Errorf("snippet carries script text or a terminal escape: %q", snippet)
	}
	vault := byURL[web.URL("a", "/vault/plans")]
	if vault == nil || vault["link_only"] != true || !strings.Contains(vault["why"].(string), "blocked by robots.txt") {
		t.Fatalf("blocked URL as a link-only entry: %v", vault)
	}
	if web.Count("a", "/vault/plans") != 0 {
		t.Fatal("the blocked URL was requested")
	}
}

func TestSearchTextHasNoControlCharacters(t *testing.T) {
	data, _ := crawlHostile(t)
	code, out, _ := runCLI(t, "", "search", "--data", data, "quasar", "quote")
	if code != exitOK || strings.ContainsAny(out, "\x1b\x00\x02\x03") || !strings.Contains(out, "[quasar]") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

func TestSearchBadInput(t *testing.T) {
	data, _ := crawlHostile(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"search", "--data", data, "--", "-- ;;"}, "no word"},
		{[]string{"search", "--data", data, "--limit", "0", "x"}, "--limit"},
		{[]string{"search", "--data", filepath.Join(data, "nope"), "x"}, "no crawl at"},
		{[]string{"search", "--data", data}, "give the words to search for"}, // issue 27: not cobra's "requires at least 1 arg(s)"
	} {
		if code, _, errOut := runCLI(t, "", tt.args...); code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q", tt.args, code, errOut)
		}
	}
}

// The text output says when the query was not taken as written (issue 11: bad syntax "falls
// back to plain words and says so"), before the results.
func TestSearchTextShowsNotes(t *testing.T) {
	var b strings.Builder
	p := index.Page{Query: `vacuum "full`, Notes: []string{"a quote is not closed: the query was read as plain words"}}
	if err := writeSearchText(&b, p, false); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.HasPrefix(out, "Note: a quote is not closed") {
		t.Errorf("output %q", out)
	}
}
