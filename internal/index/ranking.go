package index

import (
	"cmp"
	"math"
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
//     ("htaccess tutorial": howto/htaccess.html, "Apache Tutorial: .htaccess files") is named
//     for the query twice, by its author and by its address (issue 32): ×TitleURLBoost, and
//     at least (1+TitleURLMargin) times the best entry whose title does not hold every query
//     word, so that body frequency never beats it, nor a title that holds some of the words
//     and a body that says them all again and again (the engines' term-frequency saturation
//     lets a long reference page that repeats the words match a short tutorial's title, and
//     PostgreSQL's cover density rewards the FAQ that says "setting up SSL" five times).
//     Words match as the index splits them (CamelCase parts: "RewriteRule" holds "rewrite"),
//     plurals folded, a word that abbreviates a query word holds it (abbrev.go:
//     "mod_auth_basic" holds "authentication"), and a word that is the initial of one query
//     word and the whole of the next holds both ("vhosts/" holds "virtual hosts"); the host is
//     not the path. A task ("setting up ssl", howto.go) is held by a how-to's title without
//     its verb. A link-only entry has no title of its own (its "title" is anchor text, weighed
//     as such): the rule is for fetched pages.
//   - A page whose headings (h1-h6, and the terms of its definition lists: extract's
//     Document.Headings) hold an identifier that the query's words spell ("document root":
//     DocumentRoot, "keep alive timeout": KeepAliveTimeout, definesQuery) is the page that
//     defines what the query names, in an API reference where the long page of every directive
//     loses to short pages that say the words more often (issue 32): ×DefinesBoost, and at
//     least (1+DefinesMargin) times the best entry that defines nothing the query names and is
//     not named for the query by its title and URL: the chapter "Hot Standby" at
//     hot-standby.html stays above the page that defines the setting hot_standby, and
//     sql-checkpoint.html above the page of an option --checkpoint. The rule is for fetched
//     pages.
//   - Of the pages that define what the query names, the one other pages cite by that name (its
//     AnchorVotes, which count an anchor text that is the identifier, "DocumentRoot" for
//     "document root") is the definition; the others define a like-named thing in passing
//     (mod_cgi.html lists the variable DOCUMENT_ROOT) or mention it in a heading (issue 32):
//     each such cited definition scores at least (1+CitedDefinitionMargin) times the best
//     definition no page cites.
//   - A fetched page that is mostly links (a generated index, a site map, a tag cloud: its
//     LinkShare, the anchor text of its links over its text, at least LinkListShare; or
//     LinkListLinkRate distinct links or more per 1000 bytes of a text of few sentences,
//     SentenceRate below LinkListSentenceRate: an A-Z index of terms and links) says where
//     to go, not what is there: its many anchor texts match every query, so it is no answer
//     unless the query names it, its title or URL path holding a query word ("sitemap",
//     "glossary"). Otherwise ×LinkListFactor, and below every fetched page that matches and is
//     no such list, at most (1-LinkListMargin) times the worst of them, its order among its
//     like kept (issue 32): each engine's term frequency rewards the many anchors, by how much
//     differs between engines, and the rule must hold in both.
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
	DefinesBoost      = 2.0
	DefinesMargin     = 0.1
	// CitedDefinitionMargin: see the rule of the cited definition above.
	CitedDefinitionMargin = 0.1
	LinkListShare         = 0.7
	// LinkListLinkRate and LinkListSentenceRate: a text of terms and links (PostgreSQL's
	// bookindex.html: 9 distinct links per 1000 bytes, 0.01 sentence ends; its LinkShare, 0.15
	// as stores count it, misses it: one anchor text repeats for many terms) against tables and
	// lists of few sentences that are no index (at most 1.6 links per 1000 bytes in both sites
	// of bench/searcheval).
	LinkListLinkRate     = 5.0
	LinkListSentenceRate = 1.0
	LinkListFactor       = 0.2
	LinkListMargin       = 0.1
	RerankDepth          = 50
)

// Rerank applies the inlink prior, the anchor votes, the title boost, the title-and-URL rule, the
// definition rule, the cited definition, the link-list rule and the out-of-scope rule to rs,
// whose Score is a store's score (higher is better, not negative), sets each entry's
// TitleURLFactor, DefinesFactor, CitedFactor and LinkListFactor, and sorts rs by the new score,
// best first (stably). terms are the query's words (Parsed.Terms). A store calls it on its best
// RerankDepth entries (at least the page asked for), with their AnchorVotes, Headings,
// LinkShare, LinkRate and SentenceRate filled in, before Dedupe.
func Rerank(rs []Result, terms []string) {
	forms := termFormsOf(terms)
	all := forms.all()
	titleAll := make([]bool, len(rs)) // the entry's title holds every query word
	both := make([]bool, len(rs))
	list := make([]bool, len(rs)) // a list of links the query does not name
	bodyBest := 0.0               // the best score of an entry whose title does not hold every query word
	task := taskWords(terms)
	for i := range rs {
		r := &rs[i]
		r.Score *= 1 + InlinkPrior*math.Log1p(float64(max(r.Inlinks, 0)))
		r.Score *= 1 + AnchorVotePrior*math.Log1p(float64(max(r.AnchorVotes, 0)))
		if titleIsQuery(r.Title, terms) {
			r.Score *= TitleIsQueryBoost
		}
		title, path := forms.held(r.Title), forms.held(urlPath(r.URL))
		titleAll[i] = all != 0 && title == all
		named := title | howToHolds(r, task) // the words the title holds for the title-and-URL rule
		both[i] = !r.LinkOnly && titleAndURLHold(named, path, all)
		r.LinkListFactor = 1
		if list[i] = isLinkList(r, title, path); list[i] {
			r.Score *= LinkListFactor
			r.LinkListFactor = LinkListFactor
		}
		if named != all {
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
	favourDefinitions(rs, terms)
	demoteLinkLists(rs, list)
	demoteOutOfScope(rs, titleAll)
	slices.SortStableFunc(rs, func(a, b Result) int { return cmp.Compare(b.Score, a.Score) })
}

// favourDefinitions applies the definition rule (DefinesBoost) to rs and sets each entry's
// DefinesFactor.
func favourDefinitions(rs []Result, terms []string) {
	defines := make([]bool, len(rs))
	othersBest := 0.0 // the best score of an entry that defines nothing the query names, nor is named for it
	for i := range rs {
		rs[i].DefinesFactor = 1
		defines[i] = !rs[i].LinkOnly && definesQuery(rs[i].Headings, terms)
		if !defines[i] && rs[i].TitleURLFactor == 1 {
			othersBest = max(othersBest, rs[i].Score)
		}
	}
	for i := range rs {
		if !defines[i] {
			continue
		}
		r := &rs[i]
		f := DefinesBoost
		if floor := othersBest * (1 + DefinesMargin); r.Score > 0 && r.Score*f < floor {
			f = floor / r.Score
		}
		r.Score *= f
		r.DefinesFactor = f
	}
	citeDefinitions(rs, defines)
}

// citeDefinitions applies the rule of the cited definition (CitedDefinitionMargin) to rs, whose
// entries defines says define what the query names, and sets each entry's CitedFactor.
func citeDefinitions(rs []Result, defines []bool) {
	uncitedBest := 0.0 // the best score of an entry that defines it and that no other page names so
	for i := range rs {
		rs[i].CitedFactor = 1
		if defines[i] && rs[i].AnchorVotes == 0 {
			uncitedBest = max(uncitedBest, rs[i].Score)
		}
	}
	for i := range rs {
		r := &rs[i]
		if !defines[i] || r.AnchorVotes == 0 {
			continue
		}
		if floor := uncitedBest * (1 + CitedDefinitionMargin); r.Score > 0 && r.Score < floor {
			r.CitedFactor = floor / r.Score
			r.Score = floor
		}
	}
}

// demoteLinkLists scales the scores of rs's lists of links (list[i], already ×LinkListFactor), all
// by one more factor if need be, so that the best of them is at most (1-LinkListMargin) times
// the worst fetched entry that is no such list, and adds that factor to their LinkListFactor.
// Nothing changes when rs has no other fetched entry.
func demoteLinkLists(rs []Result, list []bool) {
	worst, others, best := math.Inf(1), false, 0.0
	for i, r := range rs {
		switch {
		case list[i]:
			best = max(best, r.Score)
		case !r.LinkOnly:
			worst, others = min(worst, r.Score), true
		}
	}
	ceiling := max(worst, 0) * (1 - LinkListMargin)
	if !others || best <= ceiling {
		return
	}
	f := ceiling / best
	for i := range rs {
		if list[i] {
			rs[i].Score *= f
			rs[i].LinkListFactor *= f
		}
	}
}

// stateOutOfScope is store.StateOutOfScope (index does not import store).
const stateOutOfScope = "out_of_scope"

// demoteOutOfScope scales the scores of rs's link-only entries outside the crawl's scope, all by
// one factor, so that the best of them is at most (1-OutOfScopeMargin) times the worst fetched
// entry's score, unless the entry's anchor text is the best match (see the rule above):
// titleAll[i] says whether rs[i]'s title holds every query word. Nothing changes when rs has no
// fetched entry.
func demoteOutOfScope(rs []Result, titleAll []bool) {
	worst, fetched, titled := math.Inf(1), false, false
	for i, r := range rs {
		if !r.LinkOnly {
			worst, fetched, titled = min(worst, r.Score), true, titled || titleAll[i]
		}
	}
	if !fetched {
		return
	}
	demoted := func(i int) bool {
		bestMatch := !titled && titleAll[i]
		return rs[i].LinkOnly && rs[i].State == stateOutOfScope && !bestMatch
	}
	best := 0.0
	for i := range rs {
		if demoted(i) {
			best = max(best, rs[i].Score)
		}
	}
	ceiling := max(worst, 0) * (1 - OutOfScopeMargin)
	if best <= ceiling {
		return
	}
	f := ceiling / best
	for i := range rs {
		if demoted(i) {
			rs[i].Score *= f
		}
	}
}

// titleAndURLHold is the test of TitleURLBoost: title and path are the masks of the query
// words a title and a URL path hold (termForms.held), all the mask of every word: the title
// holds every word, the path at least one; false for a query of no words.
func titleAndURLHold(title, path, all uint64) bool {
	return all != 0 && title == all && path != 0
}

// urlPath is the path of rawURL as written (not decoded): what follows the authority, up to a
// query or fragment; "" for none. It reads the string without parsing it (Rerank runs on every
// search).
func urlPath(rawURL string) string {
	rest := rawURL
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
		j := strings.IndexAny(rest, "/?#")
		if j < 0 || rest[j] != '/' {
			return ""
		}
		rest = rest[j:]
	}
	if i := strings.IndexAny(rest, "?#"); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// termForm is a query word as a title or URL path may hold it: the word with its plural folded
// (sStem), and, for an identifier ("mod_rewrite"), its runs of letters and digits, folded too.
type termForm struct {
	stem string
	segs []string // nil unless the word has two runs or more
}

// termForms are the forms of a query's first 64 words (MaxQueryTerms is less), bit i for word i.
type termForms []termForm

func termFormsOf(terms []string) termForms {
	fs := make(termForms, 0, min(len(terms), 64))
	for _, t := range terms[:min(len(terms), 64)] {
		f := termForm{stem: sStem(t)}
		if segs := strings.FieldsFunc(t, func(r rune) bool { return !isWordRune(r) }); len(segs) > 1 {
			for i := range segs {
				segs[i] = sStem(segs[i])
			}
			f.segs = segs
		}
		fs = append(fs, f)
	}
	return fs
}

// all is the mask of every word: 0 for none.
func (fs termForms) all() uint64 {
	if len(fs) == 0 {
		return 0
	}
	return 1<<len(fs) - 1
}

// held returns the mask of the words s holds. s is read as the index reads it: its runs of
// letters and digits, lower-cased, and the CamelCase parts of each ("RewriteRule": rewrite,
// rule), plurals folded; an identifier is held when each of its runs is. A run holds a word it
// abbreviates, and two words in a row it compounds ("vhosts": virtual hosts, abbrev.go). It
// allocates only for upper-case text and CamelCase runs.
func (fs termForms) held(s string) uint64 {
	if len(fs) == 0 {
		return 0
	}
	var mask, segMask uint64
	segSeen := make([]uint64, 0, 4) // per word with segs, the segs seen so far; few words have any
	for i := range fs {
		if fs[i].segs != nil {
			segSeen = append(segSeen, 0)
		}
	}
	see := func(w string) {
		w = sStem(w) // the query's words are lower-case; case is folded below, without a copy
		k := 0
		for i, f := range fs {
			if strings.EqualFold(f.stem, w) || abbreviates(w, f.stem) {
				mask |= 1 << i
			}
			if i+1 < len(fs) && compounds(w, f.stem, fs[i+1].stem) {
				mask |= 3 << i
			}
			if f.segs != nil {
				for j, seg := range f.segs {
					if j < 64 && strings.EqualFold(seg, w) {
						segSeen[k] |= 1 << j
					}
				}
				if n := min(len(f.segs), 64); segSeen[k] == 1<<n-1 {
					segMask |= 1 << i
				}
				k++
			}
		}
	}
	for rest := s; rest != ""; {
		start := strings.IndexFunc(rest, isWordRune)
		if start < 0 {
			break
		}
		rest = rest[start:]
		end := strings.IndexFunc(rest, func(r rune) bool { return !isWordRune(r) })
		if end < 0 {
			end = len(rest)
		}
		run := rest[:end]
		rest = rest[end:]
		see(run)
		if hasCamel(run) {
			for _, p := range camelParts(run) {
				see(p)
			}
		}
	}
	return mask | segMask
}

// hasCamel reports whether run has a lower-case letter and an upper-case one after its first
// rune: a CamelCase run to split (camelParts decides where); "HTTP" and "Files" are not.
func hasCamel(run string) bool {
	lower, upper := false, false
	for i, r := range run {
		lower = lower || unicode.IsLower(r)
		upper = upper || (i > 0 && unicode.IsUpper(r))
	}
	return lower && upper
}

// AnchorVotes counts the votes of a page's inlinks for terms (the query's words, Parsed.Terms):
// anchors maps each anchor text of links to the page from other pages to how many links carry
// it; a link votes when its anchor text holds every term as a word, in any order and case,
// plurals folded (sStem: "Foreign Keys" votes for "foreign key"); and a link votes when its
// anchor text holds an identifier that the terms spell (definesQuery: "DocumentRoot" votes for
// "document root", issue 32), the name a reference's users write.
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
		// An identifier that the terms spell has a run of letters and digits that begins with
		// the first term or begins it ("keepalive timeout": Keep_AliveTimeout): an anchor
		// without one is not read again (definesQuery walks the text).
		spells := slices.ContainsFunc(w, func(run string) bool {
			return strings.HasPrefix(run, terms[0]) || strings.HasPrefix(terms[0], run)
		})
		for i := range w {
			w[i] = sStem(w[i])
		}
		if !slices.ContainsFunc(stems, func(t string) bool { return !slices.Contains(w, t) }) || spells && definesQuery(a, terms) {
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
