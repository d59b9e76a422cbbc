package urlnorm

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusLinks is the real-URL corpus (README.md of /work/shared/corpus),
// located relative to this package.
var corpusLinks = filepath.Join("..", "..", "shared", "corpus", "links")

// site is one corpus file: a site and the URLs seen on it.
type site struct {
	name string
	urls []string
}

// loadCorpus reads every links/SITE file. Without the corpus the caller is
// skipped, or failed when MANDELBOT_REQUIRE_ALL=1 (read only in tests).
func loadCorpus(tb testing.TB) []site {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(corpusLinks, "*"))
	if err != nil || len(files) == 0 {
		if os.Getenv("MANDELBOT_REQUIRE_ALL") == "1" {
			tb.Fatalf("corpus %s missing (MANDELBOT_REQUIRE_ALL=1)", corpusLinks)
		}
		tb.Skipf("corpus %s missing", corpusLinks)
	}
	sort.Strings(files)
	var sites []site
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			tb.Fatal(err)
		}
		s := site{name: filepath.Base(f)}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 64*1024), 1024*1024)
		for sc.Scan() {
			if line := strings.TrimRight(sc.Text(), "\r"); line != "" {
				s.urls = append(s.urls, line)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		sites = append(sites, s)
	}
	return sites
}

// TestCorpus: every one of the corpus's real URLs parses or is refused with
// a reason (the refusals are counted and must be very few), the canonical
// form is a fixed point, the accessors agree with it, and resolving each
// URL's path and protocol-relative form against another URL of its site
// gives the URL back (for every tenth URL with -short).
func TestCorpus(t *testing.T) {
	sites := loadCorpus(t)
	resolveEvery := 1
	if testing.Short() {
		resolveEvery = 10
	}
	var total, refused, changed int
	reasons := map[error]int{}
	for _, s := range sites {
		var base *URL
		for _, raw := range s.urls {
			total++
			u, err := Parse(raw)
			if err != nil {
				checkReason(t, err)
				refused++
				for _, r := range []error{ErrTooLong, ErrScheme, ErrNoHost, ErrPort, ErrInvalid} {
					if errors.Is(err, r) {
						reasons[r]++
					}
				}
				t.Logf("%s: refused: %v", s.name, err)
				continue
			}
			if u.String() != raw {
				changed++
			}
			v, err := Parse(u.String())
			if err != nil || *v != *u {
				t.Errorf("%s: %q -> %q -> %v, %v: not a fixed point", s.name, raw, u, v, err)
			}
			checkParts(t, u)
			if base == nil {
				base = u
				continue
			}
			if total%resolveEvery == 0 {
				checkResolveBack(t, base, u)
			}
		}
	}
	t.Logf("%d URLs in %d sites: %d refused %v, %d changed by canonicalisation", total, len(sites), refused, reasons, changed)
	if refused > total/1000 {
		t.Errorf("%d of %d corpus URLs refused; expected very few", refused, total)
	}
}

// checkResolveBack resolves u, written relative to base where it can be,
// against base and wants u.
func checkResolveBack(t *testing.T, base, u *URL) {
	t.Helper()
	var refs []string
	if u.Scheme() == base.Scheme() {
		refs = append(refs, "//"+u.authority()+u.PathAndQuery())
	}
	if u.Origin() == base.Origin() {
		// A path starting with "//" would read as protocol-relative; "/."
		// in front keeps it a path (the WHATWG serialiser's own trick).
		ref := u.PathAndQuery()
		if strings.HasPrefix(ref, "//") {
			ref = "/." + ref
		}
		refs = append(refs, ref)
	}
	for _, ref := range refs {
		r, err := Resolve(base, ref)
		if err != nil || *r != *u {
			t.Errorf("Resolve(%q, %q) = %v, %v; want %q", base, ref, r, err, u)
		}
	}
}

// BenchmarkParseCorpus parses the corpus URLs in turn: ns/op is ns per URL,
// allocs/op allocations per URL.
func BenchmarkParseCorpus(b *testing.B) {
	var urls []string
	for _, s := range loadCorpus(b) {
		urls = append(urls, s.urls...)
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		_, _ = Parse(urls[i])
		if i++; i == len(urls) {
			i = 0
		}
	}
}

// BenchmarkResolveCorpus resolves each corpus URL's PathAndQuery (a
// root-relative link, the case that needs the base) against its site's first
// URL: ns/op is ns per link.
func BenchmarkResolveCorpus(b *testing.B) {
	type pair struct {
		base *URL
		ref  string
	}
	var pairs []pair
	for _, s := range loadCorpus(b) {
		var base *URL
		for _, raw := range s.urls {
			u, err := Parse(raw)
			if err != nil {
				continue
			}
			if base == nil {
				base = u
			}
			pairs = append(pairs, pair{base, u.PathAndQuery()})
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		_, _ = Resolve(pairs[i].base, pairs[i].ref)
		if i++; i == len(pairs) {
			i = 0
		}
	}
}
