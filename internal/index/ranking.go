package index

import (
	"cmp"
	"math"
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// Ranking (issue 11) is decided here, once; the stores render it in their engine's terms (the
// SQLite store as bm25 column weights and a factor on the score, the PostgreSQL store as
// ts_rank_cd class weights, see RankClassWeights). What a person expects, and the weight that
// gives it:
//
//   - A word in the title says what the page is about: WeightTitle, the largest.
//   - Anchor text is what other pages call this one, a short description written by someone
//     else: WeightAnchors. It is also all a link-only entry has.
//   - A heading names a section of the page: WeightHeadings, below anchors (a page is about its
//     title more than about each of its sections) and well above the body.
//   - The words of the URL (host labels, path segments) are often the page's name
//     (sql-vacuum.html): WeightURLWords.
//   - The body: WeightBody, the unit.
//   - The parts of identifiers (PyObject_GetAttr as py, object, get, attr) make an identifier
//     findable by part, but a part alone is weak evidence: WeightIdentifierParts.
//
// Then, on the weighted score:
//
//   - Matches close together outrank scattered ones: an entry whose query words (two or more)
//     occur within ProximityWindow words of each other gets ×(1+ProximityBoost).
//     And an entry that has them next to each other, in the order typed ("string
//     concatenation", Parsed.WholePhrase), gets ×(1+PhraseBoost) more: the words as one name.
//   - A link-only entry (never fetched: out of scope, blocked by robots.txt, not crawled yet)
//     is known only from what others say of it: ×LinkOnlyFactor. It still wins when it matches
//     more than twice as well as every fetched page, which is what a URL blocked by robots.txt
//     and findable only by its anchor text needs (seed 001).
//   - Anchor text of links to a fragment (page#section) describes that section: it is searchable
//     as anchor text of the page but never becomes the page's title (TitleAnchor).
//   - Pages with the same content under several URLs are one result (Dedupe).
//
// Then Rerank refines the best RerankDepth entries by what the engines do not see:
//
//   - A page many pages link to is more likely the one meant (app-psql.html against the pages
//     that mention psql): ×(1 + InlinkPrior·ln(1+inlinks)), a gentle, logarithmic prior.
//   - A page whose title is the query, section numbers aside ("VACUUM", "psql"), is the page
//     about it: ×TitleIsQueryBoost.
//   - A page other pages link to with the query as their anchor text is the page they mean by
//     it: the reference page that defines `wal_level` or `PQexec` in a long table, against the
//     short pages that mention it (the engines' anchor column keeps each distinct anchor text
//     once, so it cannot say how many pages agree). ×(1 + AnchorVotePrior·ln(1+votes)), votes
//     being the links from other pages whose anchor text holds every query word (AnchorVotes).
//   - A page whose title holds every query word and whose URL path holds at least one of them
//     ("htaccess tutorial": howto/htaccess.html, "Apache Tutorial: .htaccess files") is named for
//     the query twice, by its author and by its address (issue 32): ×TitleURLBoost, and at least (1+TitleURLMargin)
//     times the best entry whose title and URL path hold none of the query's words, so that body
//     frequency alone never beats it (the engines' term-frequency saturation lets a long
//     reference page that repeats the words match a short tutorial's title). Words match as
//     the index splits them (SplitIdentifier: "RewriteRule" holds "rewrite"), plurals folded;
//     the host is not the path. A link-only entry has no title of its own (its "title" is
//     anchor text, weighed as such): the rule is for fetched pages.
//   - A link-only entry outside the crawl's scope (state out_of_scope: a link into a source
//     repository, another site) was never meant to be crawled: it ranks below every fetched
//     page that matches, at most (1-OutOfScopeMargin) times the worst of them, its order among
//     its like kept, unless its anchor text is the best match: the text (its Title) holds every
//     query word and no fetched page's title does (issue 32). A robots-blocked link-only
//     entry, or one in scope not fetched yet, keeps LinkOnlyFactor alone: seed 001 wants
//     robots-blocked URLs findable.
const (
	WeightTitle           = 20.0
	WeightAnchors         = 8.0
	WeightHeadings        = 5.0
	WeightURLWords        = 3.0
	WeightBody            = 1.0
	WeightIdentifierParts = 0.5
	// AnchorFieldFactor: where a store ranks a page's own text and its anchor text apart (the
	// SQLite store, issue 8: the anchor text is rewritten as links arrive, the page's text is
	// not), the anchor text's score is added to the page's own, times this.
	AnchorFieldFactor = 2.0
	// AnchorFieldCap: there, the best weighted score of the anchor text is at most this times
	// the best of the pages' own text, for the query (when any page's text matches): each table
	// measures how rare a word is within itself, and a word in most pages' text (a site's own
	// name) may be rare in anchor text; anchor text refines the text's ranking, it does not
	// outweigh it.
	AnchorFieldCap = 1.5

	LinkOnlyFactor  = 0.5
	ProximityBoost  = 0.25
	ProximityWindow = 8
	PhraseBoost     = 0.25

	InlinkPrior       = 0.1
	TitleIsQueryBoost = 1.5
	AnchorVotePrior   = 0.2
	TitleURLBoost     = 3.0
	TitleURLMargin    = 0.1
	OutOfScopeMargin  = 0.1
	RerankDepth       = 50
)

// Rerank applies the inlink prior, the anchor votes, the title boost and the title-and-URL rule
// to rs, whose Score is a store's score (higher is better, not negative), sets each entry's
// TitleURLFactor, and sorts rs by the new score, best first (stably). terms are the query's
// words (Parsed.Terms). A store calls it on its best RerankDepth entries (at least the page
// asked for), with their AnchorVotes filled in, before Dedupe.
func Rerank(rs []Result, terms []string) {
	both := make([]bool, len(rs))
	bodyBest := 0.0 // the best score of an entry whose title and URL path hold no query word
	for i := range rs {
		r := &rs[i]
		r.Score *= 1 + InlinkPrior*math.Log1p(float64(max(r.Inlinks, 0)))
		r.Score *= 1 + AnchorVotePrior*math.Log1p(float64(max(r.AnchorVotes, 0)))
		if titleIsQuery(r.Title, terms) {
			r.Score *= TitleIsQueryBoost
		}
		title, path := tokenSet(r.Title), tokenSet(urlPath(r.URL))
		both[i] = !r.LinkOnly && len(terms) > 0 && holdsAll(title, terms) && holdsAny(path, terms)
		if !holdsAny(title, terms) && !holdsAny(path, terms) {
			bodyBest = max(bodyBest, r.Score)
		}
	}
	for i := range rs {
		r := &rs[i]
		r.TitleURLFactor = 1
		if !both[i] {
			continue
		}
		f := TitleURLBoost
		if floor := bodyBest * (1 + TitleURLMargin); r.Score > 0 && r.Score*f < floor {
			f = floor / r.Score
		}
		r.Score *= f
		r.TitleURLFactor = f
	}
	demoteOutOfScope(rs, terms)
	slices.SortStableFunc(rs, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
}

// stateOutOfScope is store.StateOutOfScope (index does not import store).
const stateOutOfScope = "out_of_scope"

// demoteOutOfScope scales the scores of rs's link-only entries outside the crawl's scope, all by
// one factor, so that the best of them is at most (1-OutOfScopeMargin) times the worst fetched
// entry's score, unless the entry's anchor text is the best match (see the rule above). Nothing
// changes when rs has no fetched entry.
func demoteOutOfScope(rs []Result, terms []string) {
	worst, fetched, titled := math.Inf(1), false, false
	for _, r := range rs {
		if !r.LinkOnly {
			worst, fetched = min(worst, r.Score), true
			titled = titled || (len(terms) > 0 && holdsAll(tokenSet(r.Title), terms))
		}
	}
	if !fetched {
		return
	}
	demoted := func(r Result) bool {
		if !r.LinkOnly || r.State != stateOutOfScope {
			return false
		}
		bestMatch := !titled && len(terms) > 0 && holdsAll(tokenSet(r.Title), terms)
		return !bestMatch
	}
	best := 0.0
	for _, r := range rs {
		if demoted(r) {
			best = max(best, r.Score)
		}
	}
	ceiling := max(worst, 0) * (1 - OutOfScopeMargin)
	if best <= ceiling {
		return
	}
	f := ceiling / best
	for i := range rs {
		if demoted(rs[i]) {
			rs[i].Score *= f
		}
	}
}

// titleAndURLHold reports whether title holds every one of terms and the path of rawURL at
// least one (as tokenSet and holds read them): the rule of TitleURLBoost; false for no terms.
// Rerank applies the same test.
func titleAndURLHold(title, rawURL string, terms []string) bool {
	return len(terms) > 0 && holdsAll(tokenSet(title), terms) && holdsAny(tokenSet(urlPath(rawURL)), terms)
}

// urlPath is the path of rawURL, "" when it does not parse.
func urlPath(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return u.Path
}

// tokenSet returns the words of s as the index finds them: each token (split at white space and
// "/") as SplitIdentifier splits it, whole, by runs of letters and digits, and by CamelCase
// part, each also with its plural folded (sStem).
func tokenSet(s string) map[string]bool {
	set := map[string]bool{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '/' }) {
		for _, t := range SplitIdentifier(f) {
			set[t], set[sStem(t)] = true, true
		}
	}
	return set
}

// holds reports whether set holds term: the term itself or its plural folded, or, for an
// identifier ("mod_rewrite"), each of its runs of letters and digits.
func holds(set map[string]bool, term string) bool {
	if set[term] || set[sStem(term)] {
		return true
	}
	segs := strings.FieldsFunc(term, func(r rune) bool { return !isWordRune(r) })
	if len(segs) < 2 {
		return false
	}
	for _, s := range segs {
		if !set[s] && !set[sStem(s)] {
			return false
		}
	}
	return true
}

func holdsAll(set map[string]bool, terms []string) bool {
	return !slices.ContainsFunc(terms, func(t string) bool { return !holds(set, t) })
}

func holdsAny(set map[string]bool, terms []string) bool {
	return slices.ContainsFunc(terms, func(t string) bool { return holds(set, t) })
}

// AnchorVotes counts the votes of a page's inlinks for terms (the query's words, Parsed.Terms):
// anchors maps each anchor text of links to the page from other pages to how many links carry
// it; a link votes when its anchor text holds every term as a word, in any order and case,
// plurals folded (sStem: "Foreign Keys" votes for "foreign key").
func AnchorVotes(anchors map[string]int, terms []string) int {
	if len(terms) == 0 {
		return 0
	}
	stems := make([]string, len(terms))
	for i, t := range terms {
		stems[i] = sStem(t)
	}
	votes := 0
	for a, n := range anchors {
		w := words(a)
		for i := range w {
			w[i] = sStem(w[i])
		}
		if !slices.ContainsFunc(stems, func(t string) bool { return !slices.Contains(w, t) }) {
			votes += n
		}
	}
	return votes
}

// titleIsQuery reports whether title's words, leading numbers ("20.10.") left out, are the
// query's words, in any order.
func titleIsQuery(title string, terms []string) bool {
	w := words(title)
	for len(w) > 0 && strings.IndexFunc(w[0], func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		w = w[1:]
	}
	if len(w) == 0 || len(w) != len(terms) {
		return false
	}
	for _, t := range terms {
		if !slices.Contains(w, t) {
			return false
		}
	}
	return true
}

// RankClassWeights returns the weights of an engine with four weight classes (PostgreSQL's
// ts_rank_cd: D, C, B, A, each in 0..1), in that order: body, URL words, headings and anchor text
// (which share a class), title, each the weight above divided by WeightTitle.
func RankClassWeights() [4]float64 {
	return [4]float64{WeightBody / WeightTitle, WeightURLWords / WeightTitle, WeightAnchors / WeightTitle, 1}
}
