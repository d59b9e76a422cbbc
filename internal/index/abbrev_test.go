package index

import "testing"

// Issue 32, title and URL together: a title's or URL path's word abbreviates a query word it
// begins when it is long enough and at most half of it ("auth" for "authentication"), and no
// other word ("json" is not "jsonb", "index" not "indexing", "log" too short).
func TestAbbreviates(t *testing.T) {
	for _, c := range []struct {
		w, word string
		want    bool
	}{
		{"auth", "authentication", true},
		{"AUTH", "authentication", true},
		{"config", "configuration", true},
		{"json", "jsonb", false},
		{"index", "indexing", false},
		{"log", "logging", false},
		{"auth", "auth", false},
		{"authx", "authentication", false},
		{"", "authentication", false},
	} {
		if got := abbreviates(c.w, c.word); got != c.want {
			t.Errorf("abbreviates(%q, %q) = %v, want %v", c.w, c.word, got, c.want)
		}
	}
}

// Issue 32, title and URL together: "basic authentication" names mod_auth_basic by its title
// and URL (auth abbreviates authentication), so the module's page beats a page that only says
// the words often in its body; "basic authentications" too (plurals folded first).
func TestRerankAbbreviationInTitleAndURL(t *testing.T) {
	for _, q := range []string{"basic authentication", "basic authentications"} {
		rs := []Result{
			{URL: "http://a.test/misc/password_encryptions.html", Title: "Password Formats", Score: 40},
			{URL: "http://a.test/mod/mod_auth_basic.html", Title: "mod_auth_basic", Score: 18},
		}
		Rerank(rs, Query{Text: q}.Parse().Terms())
		if rs[0].URL != "http://a.test/mod/mod_auth_basic.html" || rs[0].TitleURLFactor < TitleURLBoost {
			t.Errorf("%s: Rerank order = %v, want mod_auth_basic first, boosted", q, rs)
		}
	}
}

// Issue 32, "configuring virtual hosts" in the httpd manual: a title's or URL path's word that is
// the initial of one query word and the whole of the next compounds them ("vhosts"), when the
// first is long enough to be shortened and the next long enough to be a word.
func TestCompounds(t *testing.T) {
	for _, c := range []struct {
		w, first, next string
		want           bool
	}{
		{"vhost", "virtual", "host", true},
		{"VHost", "virtual", "host", true},
		{"email", "electronic", "mail", true},
		{"vhost", "host", "virtual", false}, // the order typed
		{"xhost", "x", "host", false},       // first too short
		{"vlan", "virtual", "lan", false},   // next too short
		{"vhosts", "virtual", "host", false},
		{"host", "virtual", "host", false},
		{"", "virtual", "host", false},
	} {
		if got := compounds(c.w, c.first, c.next); got != c.want {
			t.Errorf("compounds(%q, %q, %q) = %v, want %v", c.w, c.first, c.next, got, c.want)
		}
	}
}

// The title-and-URL rule reads a compound in a URL path: for "virtual hosts", the page titled
// "Apache Virtual Host documentation" at vhosts/index.html is named by its title and URL, and
// boosted; "hosts virtual" names it by its title alone.
func TestRerankCompoundInURL(t *testing.T) {
	for q, want := range map[string]bool{"virtual hosts": true, "configuring virtual hosts": false, "hosts virtual": false} {
		rs := []Result{
			{URL: "http://a.test/rewrite/avoid.html", Title: "When not to use mod_rewrite", Score: 40},
			{URL: "http://a.test/vhosts/index.html", Title: "Apache Virtual Host documentation", Score: 18},
		}
		Rerank(rs, Query{Text: q}.Parse().Terms())
		if got := rs[0].URL == "http://a.test/vhosts/index.html" && rs[0].TitleURLFactor >= TitleURLBoost; got != want {
			t.Errorf("%s: Rerank order = %+v, want vhosts/index.html first and boosted: %v", q, rs, want)
		}
	}
}
