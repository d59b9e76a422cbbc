package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// pgStore returns a --store URL naming a new schema of the local test PostgreSQL, dropped when
// t ends (skipped without PostgreSQL, failed under MANDELBOT_REQUIRE_ALL=1).
func pgStore(t *testing.T) string {
	t.Helper()
	url := pgtest.URL(t)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "schema=" + pgtest.Schema(t, url)
}

// Issue 12: `crawl`, `search` and `export` work on one PostgreSQL store (--store postgres://):
// the crawl's pages and its robots.txt-blocked link are searchable as with SQLite (issue 4,
// seed 001), and export lists every URL with its state.
func TestPostgresStoreCrawlSearchExport(t *testing.T) {
	loc := pgStore(t)
	web := startWeb(t, hostileSite())
	args := append([]string{"crawl", "--store", loc, "--delay", "0"}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl: %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut := runCLI(t, "", "search", "--store", loc, "--json", "quasar")
	if code != exitOK {
		t.Fatalf("search: %d %s", code, errOut)
	}
	var doc struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	byURL := map[string]map[string]any{}
	for _, r := range doc.Results {
		byURL[r["url"].(string)] = r
	}
	home := byURL[web.URL("a", "/")]
	if home == nil || home["title"] != `Quasar <b>bold</b> "quoted" & 'single'` || home["link_only"] != false {
		t.Fatalf("home result: %v", home)
	}
	if s := home["snippet"].(string); !strings.Contains(s, "quasar") || strings.ContainsAny(s, "\x1b\x02\x03") {
		t.Errorf("snippet %q", s)
	}
	vault := byURL[web.URL("a", "/vault/plans")]
	if vault == nil || vault["link_only"] != true || vault["title"] != "quasar vault plans" ||
		!strings.Contains(vault["why"].(string), "blocked by robots.txt") {
		t.Fatalf("blocked URL as a link-only entry: %v", vault)
	}
	code, out, errOut = runCLI(t, "", "export", "--store", loc)
	if code != exitOK {
		t.Fatalf("export: %d %s", code, errOut)
	}
	states := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var u struct{ URL, State string }
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatalf("export line %q: %v", line, err)
		}
		states[u.URL] = u.State
	}
	if states[web.URL("a", "/")] != "fetched" || states[web.URL("a", "/vault/plans")] != "robots_disallowed" {
		t.Errorf("export states: %v", states)
	}
}

// Commands that only read a crawl do not create one: a schema without a crawl is a usage error.
func TestPostgresStoreReadersNeedACrawl(t *testing.T) {
	loc := pgStore(t)
	for _, args := range [][]string{{"search", "--store", loc, "x"}, {"export", "--store", loc}} {
		if code, _, errOut := runCLI(t, "", args...); code != exitUsage || !strings.Contains(errOut, "no crawl at") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
}

// A store that cannot be opened (here, a role the database does not know) fails the command with
// its reason, and the password of the --store URL is never printed.
func TestPostgresStoreErrorHidesPassword(t *testing.T) {
	pgtest.URL(t) // a PostgreSQL listens on localhost
	code, out, errOut := runCLI(t, "", "crawl", "--store", "postgres://nosuchrole:secret@localhost/test?sslmode=disable", "http://a.test/")
	if code != exitFailure || !strings.Contains(errOut, "nosuchrole:***@localhost") || strings.Contains(out+errOut, "secret") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d naming the store with its password hidden", code, out, errOut, exitFailure)
	}
}
