package urlnorm

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// The fast path (fast.go) must never change a result: for every input and
// base, Parse and Resolve with it return what parseFull returns, field for
// field, and the same error. These tests are the check the issue asks for
// ("identical output on every corpus URL"); the canonical form itself is
// specified by doc.go and tested in parse_test.go and resolve_test.go.

// checkSame fails unless the fast-enabled path and the full path agree on
// input ref against base (nil for Parse). It reports whether the fast path
// took the input.
func checkSame(t testing.TB, base *URL, ref string) bool {
	t.Helper()
	var p Parser
	op := "parse"
	if base != nil {
		op = "resolve"
	}
	got, gotErr := p.parse(op, ref, base)
	want, wantErr := p.parseFull(op, ref, base)
	switch {
	case (gotErr == nil) != (wantErr == nil):
		t.Fatalf("%s(%v, %q): fast-enabled %v, %v; full %v, %v", op, base, ref, got, gotErr, want, wantErr)
	case gotErr != nil:
		if gotErr.Error() != wantErr.Error() || !sameSentinel(gotErr, wantErr) {
			t.Fatalf("%s(%v, %q): fast-enabled error %v; full error %v", op, base, ref, gotErr, wantErr)
		}
		return false
	case *got != *want:
		t.Fatalf("%s(%v, %q): fast-enabled %+v; full %+v", op, base, ref, *got, *want)
	}
	return tookFast(ref, base)
}

// tookFast reports whether fast accepted the input, to measure its reach.
func tookFast(ref string, base *URL) bool {
	sc := scanScheme(ref)
	needBase := base != nil && (sc.kind == schemeNone || base.isHTTPS() == (sc.kind == schemeHTTPS) && !sc.slashSlash)
	in, ok := cutUserInfo(ref, sc, needBase)
	if !ok || sc.kind == schemeOther || sc.kind == schemeNone && base == nil {
		return false
	}
	_, ok = fast(in, sc, base, needBase)
	return ok
}

func sameSentinel(a, b error) bool {
	for _, s := range []error{ErrTooLong, ErrScheme, ErrNoHost, ErrPort, ErrInvalid} {
		if errors.Is(a, s) != errors.Is(b, s) {
			return false
		}
	}
	return true
}

// baseRefs are the references whose meaning depends on the base alone.
var baseRefs = []string{"", "#f", "?", "?#f", ".", "./", "..", "../", "../..", "/"}

// relativeRefs writes u as a browser page at base might link to it: as
// written (raw), canonical, protocol-relative, root-relative, path-relative
// to base's directory, through "../" and "./", query-only, and with a
// fragment; some of them only when u shares base's origin or scheme.
func relativeRefs(base, u *URL, raw string) []string {
	refs := []string{raw, u.String(), u.String() + "#frag", "?" + u.Query()}
	if i := strings.Index(raw, "://"); i >= 0 {
		// raw's own path and query, not yet canonical, and raw without its
		// scheme.
		rest := raw[i+3:]
		refs = append(refs, "//"+rest)
		if j := strings.IndexAny(rest, "/?#"); j >= 0 {
			refs = append(refs, "/"+strings.TrimPrefix(rest[j:], "/"))
		}
	}
	if u.Scheme() == base.Scheme() {
		refs = append(refs, "//"+u.authority()+u.PathAndQuery())
	}
	pq := u.PathAndQuery()
	refs = append(refs, pq, "."+pq, ".."+pq, "../.."+pq, pq+"#x", strings.TrimPrefix(pq, "/"))
	if u.Origin() == base.Origin() {
		refs = append(refs, pathRelative(base.Path(), u.Path())+queryPart(u))
	}
	last := pq[strings.LastIndexByte(u.Path(), '/')+1:]
	refs = append(refs, last, "./"+last, "../"+last, "../../"+last, "a/../"+last, "./a/./../"+last)
	// The corpus is all ASCII without spaces; links often are not.
	refs = append(refs, "dé jà/"+last+"#é", " /ü"+pq+"&q=a b'c ")
	return refs
}

func queryPart(u *URL) string {
	if q := u.Query(); q != "" {
		return "?" + q
	}
	return ""
}

// pathRelative writes target relative to the directory of basePath, with as
// many "../" as needed.
func pathRelative(basePath, target string) string {
	dir := basePath[:strings.LastIndexByte(basePath, '/')+1]
	common := 0
	for i := 0; i < len(dir) && i < len(target) && dir[i] == target[i]; i++ {
		if dir[i] == '/' {
			common = i + 1
		}
	}
	up := strings.Count(dir[common:], "/")
	return strings.Repeat("../", up) + target[common:]
}

// TestFastPathMatchesFullCorpus: on every corpus URL, Parse with the fast
// path equals the full WHATWG path; and so does Resolve of each URL written
// relative in the ways relativeRefs lists against the previous URL of its
// site (and path-relative against the site's first URL too), and of
// baseRefs against each URL. It also reports how much of the corpus the
// fast path takes, and requires most of it (its point). With -short, only
// every tenth URL is resolved.
func TestFastPathMatchesFullCorpus(t *testing.T) {
	sites := loadCorpus(t)
	every := 1
	if testing.Short() {
		every = 10
	}
	var parses, parsesFast, resolves, resolvesFast int
	check := func(base *URL, ref string) {
		resolves++
		if checkSame(t, base, ref) {
			resolvesFast++
		}
	}
	for _, s := range sites {
		var first, prev *URL
		for i, raw := range s.urls {
			parses++
			if checkSame(t, nil, raw) {
				parsesFast++
			}
			u, err := Parse(raw)
			if err != nil || i%every != 0 {
				continue
			}
			for _, ref := range baseRefs {
				check(u, ref)
			}
			if prev != nil {
				for _, ref := range relativeRefs(prev, u, raw) {
					check(prev, ref)
				}
				if u.Origin() == first.Origin() {
					check(first, pathRelative(first.Path(), u.Path())+queryPart(u))
				}
			}
			if first == nil {
				first = u
			}
			prev = u
		}
	}
	t.Logf("Parse: %d URLs, %d (%.1f%%) on the fast path", parses, parsesFast, 100*float64(parsesFast)/float64(parses))
	t.Logf("Resolve: %d references, %d (%.1f%%) on the fast path", resolves, resolvesFast, 100*float64(resolvesFast)/float64(resolves))
	if parsesFast < parses*9/10 || resolvesFast < resolves*9/10 {
		t.Errorf("the fast path takes too little of the corpus to be worth having")
	}
}

// fastSeeds are (base, href) pairs at the edges of what the fast path takes:
// each rule of fast.go's doc comment, on both sides of its line.
var fastSeeds = [][2]string{
	{"http://example.com/a/b/c?q", "d"},
	{"http://example.com/a/b/c?q", "../d?x#y"},
	{"http://example.com/a/b/c?q", "./../../../d/."},
	{"http://example.com/a/b/c?q", "d/.."},
	{"http://example.com/a/b/c?q", "d/%2e%2E/e"},
	{"http://example.com/a/b/c?q", "d/.%2e"},
	{"http://example.com/a/b/", "?"},
	{"http://example.com/a/b/", "?x=1&y='\"<>`{}|^[]"},
	{"http://example.com/a/b/", "/p'\"<>`{}|^[]?q"},
	{"http://example.com/", "a b?c d"},
	{"http://example.com/", " \x00/a\x1f "},
	{"http://example.com/", "/a\tb"},
	{"http://example.com/", "/a\\b"},
	{"http://example.com/", "ü/é?ß#ö"},
	{"http://example.com/", "/\xff"},
	{"http://example.com/", "#\xff\x00 \t"},
	{"http://example.com/", "/%zz/%4/%7e/%7E/%2f/%41%42?%7e%2b%"},
	{"http://example.com/", "/a%"},
	{"https://example.com:8443/dir/", "//other.example/x"},
	{"https://example.com:8443/dir/", "///other.example/x"},
	{"https://example.com:8443/dir/", "//other.example:443/x"},
	{"https://example.com:8443/dir/", "//other.example:/x"},
	{"https://example.com:8443/dir/", "//u:p@other.example/x"},
	{"https://example.com/", "https:x"},
	{"https://example.com/", "http:x"},
	{"https://example.com/", "https:/x"},
	{"https://example.com/", "http:///x"},
	{"http://[::1]:8080/a/b", "c"},
	{"http://127.0.0.1/a/b", "//127.0.0.1/c"},
	{"http://example.com/", "HTTP://EXAMPLE.COM:80/"},
	{"http://example.com/", "http://example.com:0080/"},
	{"http://example.com/", "http://example.com:0/"},
	{"http://example.com/", "http://example.com:65535/"},
	{"http://example.com/", "http://example.com:65536/"},
	{"http://example.com/", "http://example.com:123456/"},
	{"http://example.com/", "https://example.com:443"},
	{"http://example.com/", "http://example.com?x"},
	{"http://example.com/", "http://example.com#x"},
	{"http://example.com/", "http://example.com./"},
	{"http://example.com/", "http://example..com/"},
	{"http://example.com/", "http://.example.com/"},
	{"http://example.com/", "http://xn--bcher-kva.example/"},
	{"http://example.com/", "http://XN--a.example/"},
	{"http://example.com/", "http://a.xn--/"},
	{"http://example.com/", "http://-a-.b--c.example/"},
	{"http://example.com/", "http://a_b.example/"},
	{"http://example.com/", "http://a.1/"},
	{"http://example.com/", "http://a.0x1/"},
	{"http://example.com/", "http://1.2.3.4/"},
	{"http://example.com/", "http://a.b1/"},
	{"http://example.com/", "http://%65xample.com/"},
	{"http://example.com/", "http://ex ample.com/"},
	{"http://example.com/", "javascript:alert(1)"},
	{"http://example.com/", "mailto:a@b"},
	{"http://example.com/", "http://"},
	{"http://example.com/", "http://:80/"},
}

// FuzzFastPathMatchesFull: for any base and href, Parse(href) and
// Resolve(base, href) give the same result with the fast path as with the
// full WHATWG path alone (parseFull), errors included.
func FuzzFastPathMatchesFull(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s[0], s[1])
	}
	for _, s := range fuzzSeeds {
		f.Add("http://example.com/a/b/c?q", s)
	}
	f.Fuzz(func(t *testing.T, baseRaw, href string) {
		checkSame(t, nil, href)
		var p Parser
		base, err := p.parseFull("parse", baseRaw, nil)
		if err != nil {
			return
		}
		checkSame(t, base, href)
	})
}

// TestFastPathSeeds runs the fuzz seeds as a plain test, so that they are
// checked in every `go test`, and checks that the fast path takes the
// ordinary ones (otherwise it would be equal by doing nothing).
func TestFastPathSeeds(t *testing.T) {
	var p Parser
	for _, s := range fastSeeds {
		base, err := p.parseFull("parse", s[0], nil)
		if err != nil {
			t.Fatalf("base %q: %v", s[0], err)
		}
		checkSame(t, nil, s[1])
		checkSame(t, base, s[1])
	}
	base := mustParse(t, "https://example.com/dir/page.html?x=1")
	for _, ref := range []string{
		"https://example.com/a?b", "HTTP://Example.COM:8080/a/../b/./c?d e#f",
		"//cdn.example/x.js", "/top", "other.html", "../up/x", "?page=2", "#top", "",
		"a b.html", "ü?q=ü", "%7euser/%2f",
	} {
		if !checkSame(t, base, ref) {
			t.Errorf("Resolve(%s, %q) did not take the fast path", base, ref)
		}
	}
}

// TestReparseIsCheap: a URL's canonical form, parsed again (what a caller
// does when a link crossed an API as a string), takes the fast path and
// costs two allocations, the canonical string and the URL: the contract
// documented on Parser.Parse.
func TestReparseIsCheap(t *testing.T) {
	u := mustParse(t, "https://www.example.com:8443/a/b/c.html?q=1&r=%2F")
	s := u.String()
	if !tookFast(s, nil) {
		t.Fatalf("Parse(%q) did not take the fast path", s)
	}
	var v *URL
	allocs := testing.AllocsPerRun(100, func() { v, _ = Parse(s) })
	if allocs > 2 || *v != *u {
		t.Errorf("Parse(%q): %v allocations, result %+v; want <= 2 and %+v", s, allocs, *v, *u)
	}
	base := mustParse(t, "https://www.example.com/a/b/c.html")
	allocs = testing.AllocsPerRun(100, func() { v, _ = Resolve(base, "../d/e.html?x=1#top") })
	if allocs > 2 || v.String() != "https://www.example.com/a/d/e.html?x=1" {
		t.Errorf("Resolve: %v allocations, result %s; want <= 2", allocs, v)
	}
}

// TestFastPathMatchesFullGrammar puts together (base, href) pairs from the
// pieces the fast path makes decisions on, which byte-level fuzzing reaches
// only by chance: every scheme form, host shape, port, dot segment, escape
// and special byte, next to each other. Deterministic; 20,000 pairs with
// -short, 200,000 without.
func TestFastPathMatchesFullGrammar(t *testing.T) {
	var (
		schemes = []string{"http://", "https://", "HTTP://", "hTtPs://", "http:", "http:/", "http:///", "https:\\\\", "//", "///", "", "/", "?", "#", " ", "\t", "ftp://", "http:\t//"}
		hosts   = []string{"example.com", "EXAMPLE.COM", "a", "a-b.c", "-a.b-", "ab--cd.com", "xn--bcher-kva.example", "XN--a.b", "a.xn--", "example.com.", "a..b", ".a", "1.2.3.4", "a.1", "a.0x1", "a.b1", "a.-1", "a_b.com", "%41.com", "[::1]", "bücher.de", "a b", "u:p@h.com", "@h.com", "h.com@", "", "localhost", strings.Repeat("a", 70) + ".com"}
		ports   = []string{"", "", "", ":", ":80", ":443", ":0", ":08080", ":8080", ":65535", ":65536", ":99999", ":123456", ":8a", ":+1"}
		segs    = []string{"a", "B", ".", "..", "%2e", "%2E.", ".%2e", "...", "%41", "%7e", "%7E", "%2f", "%zz", "%", "%4", "a%", " ", "a b", "é", "\xff", "\"", "<", ">", "`", "{", "}", "'", "|", "^", "[", "]", "\\", "\t", "\n", "@", ":", ";", "=", "&", "~", "!", "$", "*", "+", ",", "(", ")", "\x00", "\x7f", ""}
		queries = []string{"", "", "?", "?a=b", "?a b", "?'\"<>`", "?%7e%2b%", "?é", "?a/../b", "?#", "?\\", "?\t"}
		frags   = []string{"", "", "#", "#f", "#\xff\x00 ", "#?x", "#/../"}
		bases   = []string{"http://example.com/a/b/c?q", "https://example.com:8443/dir/", "http://example.com/", "http://[::1]:8080/a/b", "http://127.0.0.1/x/y/z", "https://a.b/%7E/%C3%A9/x;p?q=1"}
	)
	basesURL := make([]*URL, len(bases))
	for i, b := range bases {
		basesURL[i] = mustParse(t, b)
	}
	rng := rand.New(rand.NewPCG(8, 4))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	n := 200000
	if testing.Short() {
		n = 20000
	}
	fastCount := 0
	for i := 0; i < n; i++ {
		var b strings.Builder
		sc := pick(schemes)
		b.WriteString(sc)
		if strings.Contains(sc, ":") || sc == "//" || sc == "///" {
			b.WriteString(pick(hosts))
			b.WriteString(pick(ports))
		}
		for k := rng.IntN(5); k > 0; k-- {
			if rng.IntN(4) > 0 {
				b.WriteByte('/')
			}
			b.WriteString(pick(segs))
			if rng.IntN(3) == 0 {
				b.WriteString(pick(segs))
			}
		}
		b.WriteString(pick(queries))
		b.WriteString(pick(frags))
		href := b.String()
		checkSame(t, nil, href)
		if checkSame(t, basesURL[rng.IntN(len(basesURL))], href) {
			fastCount++
		}
	}
	t.Logf("%d pairs, %d on the fast path", n, fastCount)
}
