package testweb

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Defaults of GenOptions fields left at zero.
const (
	DefaultGenOrigins      = 10
	DefaultGenPages        = 100 // per origin, the home page included
	DefaultGenLinks        = 8   // per page
	DefaultGenWords        = 300 // per page, in the body text
	DefaultGenCrossPercent = 10  // share of links that lead to another origin
)

// Fixed features of every generated origin, so benchmarks meet the rules too.
const (
	// GenPrivatePercent of links lead to "/private/N", which robots.txt disallows.
	GenPrivatePercent = 2
	// GenNoindexEvery: page /p/N carries <meta name="robots" content="noindex"> when
	// N%GenNoindexEvery == GenNoindexEvery-1.
	GenNoindexEvery = 50
)

// GenOptions shape a generated web. The zero value gives the Default* web.
type GenOptions struct {
	Origins        int // number of sites; each holds one listening socket
	PagesPerOrigin int // documents per site: "/" and "/p/1" ... "/p/N-1"
	LinksPerPage   int // anchors per page (at least 1)
	WordsPerPage   int // words of body text per page
	// CrossPercent of links lead to another origin; 0 means DefaultGenCrossPercent and
	// a negative value none.
	CrossPercent int
	// Seed chooses the text and the links; the same options always give the same web.
	Seed uint64
}

func (o GenOptions) withDefaults() GenOptions {
	if o.Origins <= 0 {
		o.Origins = DefaultGenOrigins
	}
	if o.PagesPerOrigin <= 0 {
		o.PagesPerOrigin = DefaultGenPages
	}
	if o.LinksPerPage <= 0 {
		o.LinksPerPage = DefaultGenLinks
	}
	if o.WordsPerPage <= 0 {
		o.WordsPerPage = DefaultGenWords
	}
	switch {
	case o.CrossPercent == 0:
		o.CrossPercent = DefaultGenCrossPercent
	case o.CrossPercent < 0:
		o.CrossPercent = 0
	}
	o.CrossPercent = min(o.CrossPercent, 100-GenPrivatePercent)
	return o
}

// GenKey returns the key of the i-th generated site ("g0", "g1", ...); its host is
// GenKey(i)+".test".
func GenKey(i int) string { return "g" + strconv.Itoa(i) }

// GenPath returns the path of a generated site's page n: "/" for 0 (the home page), else
// "/p/N".
func GenPath(n int) string {
	if n == 0 {
		return "/"
	}
	return "/p/" + strconv.Itoa(n)
}

// Generate returns a large synthetic web for benchmarks and load tests. Each origin i
// (key GenKey(i)) has a robots.txt that disallows /private/ and names /sitemap.xml, a
// home page "/", pages "/p/1" to "/p/N-1", disallowed pages "/private/1" to
// "/private/N-1" and a sitemap listing "/" and every /p/ page. Pages are rendered on
// demand from the seed by each site's Fallback, so a 100 x 200 web starts in
// milliseconds and holds almost nothing in memory.
//
// Text is drawn from a Zipf distribution over [DefaultVocabulary] words (common English
// first, then made-up words), so some terms are everywhere and most are rare. The first
// link of a page leads to the next page (the last leads home), so every page is
// reachable from "/"; the others are random: CrossPercent to another origin's page,
// GenPrivatePercent to a disallowed page, the rest within the origin.
func Generate(opts GenOptions) []Site {
	g := &generator{opts: opts.withDefaults(), vocab: vocabulary(DefaultVocabulary)}
	sites := make([]Site, g.opts.Origins)
	for i := range sites {
		key := GenKey(i)
		sites[i] = Site{
			Key:      key,
			Robots:   robotsPage(RobotsTxt("User-agent: *\nDisallow: /private/\nSitemap: {" + key + "}/sitemap.xml\n")),
			Fallback: func(path string) (Page, bool) { return g.page(i, path) },
		}
	}
	return sites
}

// generator renders the pages of a generated web. It is immutable and safe for
// concurrent use.
type generator struct {
	opts  GenOptions
	vocab []string
}

// page renders path of origin i, or reports that it does not exist.
func (g *generator) page(i int, path string) (Page, bool) {
	switch {
	case path == "/":
		return g.document(i, 0), true
	case path == "/sitemap.xml":
		locs := make([]string, 0, g.opts.PagesPerOrigin)
		locs = append(locs, "{"+GenKey(i)+"}/")
		for n := 1; n < g.opts.PagesPerOrigin; n++ {
			locs = append(locs, "{"+GenKey(i)+"}/p/"+strconv.Itoa(n))
		}
		return SitemapXML(path, locs...), true
	}
	if n, ok := g.number(path, "/p/"); ok {
		return g.document(i, n), true
	}
	if n, ok := g.number(path, "/private/"); ok {
		return Page{Path: path, Title: "Private " + strconv.Itoa(n), Text: "A page robots.txt disallows."}, true
	}
	return Page{}, false
}

// number parses the page number of "/p/N": canonical decimal, 1 <= N < PagesPerOrigin.
func (g *generator) number(path, prefix string) (int, bool) {
	s, ok := strings.CutPrefix(path, prefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n >= g.opts.PagesPerOrigin || strconv.Itoa(n) != s {
		return 0, false
	}
	return n, true
}

// document renders page n of origin i (0 is the home page) from its own random stream.
func (g *generator) document(i, n int) Page {
	r := rand.New(rand.NewPCG(g.opts.Seed, uint64(i)<<32|uint64(n)))
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(g.vocab)-1))
	p := Page{Path: GenPath(n)}
	p.Title = g.title(r)
	p.Text = g.text(r, zipf)
	if n%GenNoindexEvery == GenNoindexEvery-1 {
		p.Meta = "noindex"
	}
	p.Anchors = g.links(r, i, n)
	return p
}

// title picks 2 to 5 mid-frequency words, the first capitalised.
func (g *generator) title(r *rand.Rand) string {
	lo, hi := min(200, len(g.vocab)/4), min(2000, len(g.vocab))
	words := make([]string, 2+r.IntN(4))
	for k := range words {
		words[k] = g.vocab[lo+r.IntN(hi-lo)]
	}
	words[0] = capitalise(words[0])
	return strings.Join(words, " ")
}

// text writes WordsPerPage words as sentences of 6 to 17 words in paragraphs of 3 to 6
// sentences.
func (g *generator) text(r *rand.Rand, zipf *rand.Zipf) string {
	var b strings.Builder
	b.Grow(g.opts.WordsPerPage * 8)
	left := g.opts.WordsPerPage
	for left > 0 {
		for s := 3 + r.IntN(4); s > 0 && left > 0; s-- {
			words := min(left, 6+r.IntN(12))
			left -= words
			for k := range words {
				w := g.vocab[zipf.Uint64()]
				if k == 0 {
					w = capitalise(w)
				} else {
					b.WriteByte(' ')
				}
				b.WriteString(w)
			}
			b.WriteString(". ")
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// links returns the anchors of page n of origin i: first the next page, then random ones.
func (g *generator) links(r *rand.Rand, i, n int) []Link {
	pages, origins := g.opts.PagesPerOrigin, g.opts.Origins
	out := make([]Link, 0, g.opts.LinksPerPage)
	next := GenPath(0)
	if n+1 < pages {
		next = GenPath(n + 1)
	}
	out = append(out, Link{Href: next, Text: "next: " + g.anchorText(r)})
	for len(out) < g.opts.LinksPerPage {
		roll := r.IntN(100)
		var href string
		switch {
		case roll < g.opts.CrossPercent && origins > 1:
			j := r.IntN(origins - 1)
			if j >= i {
				j++
			}
			href = "{" + GenKey(j) + "}" + g.randomPage(r)
		case roll >= 100-GenPrivatePercent && pages > 1:
			href = "/private/" + strconv.Itoa(1+r.IntN(pages-1))
		default:
			href = g.randomPage(r)
		}
		out = append(out, Link{Href: href, Text: g.anchorText(r)})
	}
	return out
}

func (g *generator) randomPage(r *rand.Rand) string {
	return GenPath(r.IntN(g.opts.PagesPerOrigin))
}

func (g *generator) anchorText(r *rand.Rand) string {
	words := make([]string, 1+r.IntN(3))
	for k := range words {
		words[k] = g.vocab[r.IntN(len(g.vocab))]
	}
	return strings.Join(words, " ")
}

// capitalise upper-cases an ASCII first letter (every vocabulary word is ASCII).
func capitalise(w string) string {
	if w != "" && 'a' <= w[0] && w[0] <= 'z' {
		return string(w[0]-'a'+'A') + w[1:]
	}
	return w
}
