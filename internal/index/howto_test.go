package index

import "testing"

// Issue 32, "<verb>ing <things>" finds the how-to: a query whose first word is a verb in -ing
// (with its stem at least MinTaskVerbStem long) and another word after it reads as a task; its
// mask is the verb and a particle after it.
func TestTaskWords(t *testing.T) {
	for q, want := range map[string]uint64{
		"setting up ssl":            0b011,
		"configuring virtual hosts": 0b001,
		"compiling on windows":      0b011,
		"setting up":                0,
		"caching":                   0,
		"string functions":          0, // str-ing: no verb
		"using ssl":                 0, // us-ing: too short a stem to tell
		"ssl setting":               0,
	} {
		if got := taskWords(Query{Text: q}.Parse().Terms()); got != want {
			t.Errorf("taskWords(%q) = %b, want %b", q, got, want)
		}
	}
}

func TestNamesHowTo(t *testing.T) {
	for s, want := range map[string]bool{
		"SSL/TLS Strong Encryption: How-To": true,
		"/ssl/ssl_howto.html":               true,
		"Apache Tutorial: .htaccess files":  true,
		"How to write a module":             true,
		"Getting Started Guide":             true,
		"SSL/TLS Strong Encryption: FAQ":    false,
		"/how/index.html":                   false,
		"":                                  false,
	} {
		if got := namesHowTo(s); got != want {
			t.Errorf("namesHowTo(%q) = %v, want %v", s, got, want)
		}
	}
}

// Issue 32, "tutorials and how-tos lose to long references": for "setting up ssl", the how-to
// whose title and URL path name SSL and call it a how-to gets the title-and-URL rule and beats
// the FAQ that says "setting up SSL" often; the FAQ, named for SSL but no how-to, does not.
func TestRerankTaskFindsHowTo(t *testing.T) {
	rs := []Result{
		{URL: "http://a.test/ssl/ssl_faq.html", Title: "SSL/TLS Strong Encryption: FAQ", Score: 12},
		{URL: "http://a.test/ssl/ssl_howto.html", Title: "SSL/TLS Strong Encryption: How-To", Score: 8},
	}
	Rerank(rs, Query{Text: "setting up ssl"}.Parse().Terms())
	if rs[0].URL != "http://a.test/ssl/ssl_howto.html" || rs[0].TitleURLFactor < TitleURLBoost || rs[1].TitleURLFactor != 1 {
		t.Errorf("Rerank order = %v, want the how-to first, boosted, and the FAQ not", rs)
	}
}
