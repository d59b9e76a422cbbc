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
