package urlnorm

import "testing"

// benchSampleEvery picks the sample of corpus URLs the benchmarks use.
const benchSampleEvery = 10

// benchPaths are the two ways of parsing the benchmarks compare: the full
// WHATWG path alone (the code before the fast path) and parse with it.
var benchPaths = []struct {
	name string
	fn   func(p *Parser, op, raw string, base *URL) (*URL, error)
}{
	{"full", (*Parser).parseFull},
	{"fast", (*Parser).parse},
}

// BenchmarkParse parses every tenth corpus URL in turn, then their canonical
// forms: ns/op and allocs/op are per URL.
func BenchmarkParse(b *testing.B) {
	var urls []string
	for _, s := range loadCorpus(b) {
		for i, raw := range s.urls {
			if i%benchSampleEvery == 0 {
				urls = append(urls, raw)
			}
		}
	}
	benchParse(b, "", urls)
	// The canonical forms again: what re-parsing a link that crossed an
	// API as a string costs.
	canon := make([]string, 0, len(urls))
	for _, raw := range urls {
		if u, err := Parse(raw); err == nil {
			canon = append(canon, u.String())
		}
	}
	benchParse(b, "canonical-", canon)
}

func benchParse(b *testing.B, prefix string, urls []string) {
	for _, path := range benchPaths {
		b.Run(prefix+path.name, func(b *testing.B) {
			var p Parser
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_, _ = path.fn(&p, "parse", urls[i], nil)
				if i++; i == len(urls) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkResolve resolves links as a page's extractor meets them: for
// every tenth corpus URL, written relative to the previous URL of its site
// in each of the ways relativeRefs lists (absolute, protocol-relative,
// root-relative, path-relative, "../", "?q", with fragments). ns/op and
// allocs/op are per link.
func BenchmarkResolve(b *testing.B) {
	type link struct {
		base *URL
		ref  string
	}
	var links []link
	for _, s := range loadCorpus(b) {
		var prev *URL
		for i, raw := range s.urls {
			u, err := Parse(raw)
			if err != nil || i%benchSampleEvery != 0 {
				continue
			}
			if prev != nil {
				for _, ref := range relativeRefs(prev, u, raw) {
					links = append(links, link{prev, ref})
				}
			}
			prev = u
		}
	}
	for _, path := range benchPaths {
		b.Run(path.name, func(b *testing.B) {
			var p Parser
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_, _ = path.fn(&p, "resolve", links[i].ref, links[i].base)
				if i++; i == len(links) {
					i = 0
				}
			}
		})
	}
}
