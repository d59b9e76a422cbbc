package index

import (
	"slices"
	"testing"
)

// Issue 32 part 1: a query names an identifier when its words, written together, spell it
// (letters and digits, any case); plurals are not folded, short spellings name nothing.
func TestDefinesQuery(t *testing.T) {
	for _, c := range []struct {
		headings, query string
		want            bool
	}{
		{"DocumentRoot Directive", "document root", true},
		{"KeepAliveTimeout Directive KeepAlive Directive", "keep alive timeout", true},
		{"KeepAliveTimeout Directive", "keep alive", false}, // a part is not the name
		{"Apache Module mod_rewrite", "mod_rewrite", true},
		{"Apache Module mod_rewrite", "mod rewrite", true},
		{"<VirtualHost> Directive", "virtualhost", true},
		{"<VirtualHost> Directive", "virtual hosts", false}, // no plural folding
		{"Document Root", "document root", false},           // not an identifier
		{"28.2.3. pg_stat_activity", "pg_stat_activity", true},
		{"--status-interval", "status interval", true},
		{"ab_c", "ab c", false}, // shorter than MinDefinedBytes
		{"", "document root", false},
	} {
		p := Query{Text: c.query}.Parse()
		if got := definesQuery(c.headings, p.Terms()); got != c.want {
			t.Errorf("definesQuery(%q, %q) = %v, want %v", c.headings, c.query, got, c.want)
		}
	}
}

// Issue 32 part 1, "a query that names a defined identifier favours the page that defines it":
// the reference page whose headings define DocumentRoot comes first for "document root", above
// pages that say the words more often, its DefinesFactor at least DefinesBoost; the others keep
// 1. A link-only entry defines nothing.
func TestRerankDefinedIdentifier(t *testing.T) {
	rs := []Result{
		{URL: "suexec", Title: "suEXEC Support", Headings: "Enabling suEXEC Support", Score: 9},
		{URL: "urlmapping", Title: "Mapping URLs to Filesystem Locations", Headings: "DocumentRoot", Score: 7},
		{URL: "core", Title: "core - Apache HTTP Server", Headings: "AllowOverride Directive DocumentRoot Directive", Score: 2},
		{URL: "linkonly", Title: "DocumentRoot", Headings: "DocumentRoot", LinkOnly: true, Score: 8},
	}
	Rerank(rs, Query{Text: "document root"}.Parse().Terms())
	var got []string
	for _, r := range rs {
		got = append(got, r.URL)
		if want := r.URL == "core" || r.URL == "urlmapping"; (r.DefinesFactor >= DefinesBoost) != want || (!want && r.DefinesFactor != 1) {
			t.Errorf("%s: DefinesFactor %v", r.URL, r.DefinesFactor)
		}
	}
	if got[0] != "urlmapping" && got[0] != "core" || got[2] == "core" || got[3] == "core" {
		t.Errorf("Rerank order = %q, want the defining pages first", got)
	}
	if i := slices.Index(got, "suexec"); i < 2 {
		t.Errorf("Rerank order = %q, want suexec below both defining pages", got)
	}
}

// Issue 32 part 1: a page named for the query by its title and URL (TitleURLBoost) is not
// pushed down by a page that defines an identifier the query spells: "hot standby" is the
// chapter hot-standby.html before the page that defines the setting hot_standby.
func TestRerankTitleAndURLBeforeDefinition(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/runtime-config-replication.html", Title: "20.6. Replication", Headings: "hot_standby (boolean)", Score: 3},
		{URL: "http://a.test/hot-standby.html", Title: "27.4. Hot Standby", Score: 2},
	}
	Rerank(rs, []string{"hot", "standby"})
	if rs[0].URL != "http://a.test/hot-standby.html" || rs[1].DefinesFactor < DefinesBoost {
		t.Errorf("Rerank = %+v, want hot-standby.html first, the other favoured still", rs)
	}
}
