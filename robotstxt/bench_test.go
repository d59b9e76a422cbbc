package robotstxt

import "testing"

// BenchmarkParse parses every corpus file once per iteration; b.SetBytes
// makes the reported MB/s the parse throughput.
func BenchmarkParse(b *testing.B) {
	sites := loadCorpus(b)
	total := 0
	for _, s := range sites {
		total += min(len(s.body), DefaultMaxBytes)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range sites {
			Parse(s.body)
		}
	}
}

// BenchmarkTest tests every corpus URL against its site's Mandelbot group
// (parsed once, outside the timing); ns/op is per URL.
func BenchmarkTest(b *testing.B) {
	type site struct {
		g       *Group
		targets []string
	}
	var sites []site
	n := 0
	for _, s := range loadCorpus(b) {
		g := Parse(s.body).For(ourAgent)
		var ts []string
		for _, link := range s.links {
			if tg, err := PathAndQuery(link); err == nil {
				ts = append(ts, tg)
				g.Test(tg) // compile outside the timing
			}
		}
		sites = append(sites, site{g, ts})
		n += len(ts)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; {
		for _, s := range sites {
			for _, tg := range s.targets {
				s.g.Test(tg)
				if i++; i == b.N {
					return
				}
			}
		}
	}
}

// BenchmarkParseForTest is the peer benchmark's path, per URL: parse each
// site's file once, For once, then Test every URL of the site.
func BenchmarkParseForTest(b *testing.B) {
	sites := loadCorpus(b)
	targets := make([][]string, len(sites))
	n := 0
	for i, s := range sites {
		for _, link := range s.links {
			if tg, err := PathAndQuery(link); err == nil {
				targets[i] = append(targets[i], tg)
			}
		}
		n += len(targets[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		for i, s := range sites {
			if len(targets[i]) == 0 {
				continue
			}
			g := Parse(s.body).For(ourAgent)
			for _, tg := range targets[i] {
				g.Test(tg)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/url")
}
