package store

import "github.com/fractle/mandelbot/internal/index"

// ResultLinks bounds the links to one search result that a store reads for what they say of it
// (its anchor votes; a link-only entry's title and snippet): a URL linked from every page of a
// large site has hundreds of thousands, and a search reads them for each result it shows. The
// first ResultLinks a store's index gives stand for the rest.
const ResultLinks = 1000

// AnchorTally gathers, for a page of search results, the anchor texts that other pages use for
// each result and how many links carry each, so that a store can fill in the results'
// AnchorVotes (index.AnchorVotes, index/ranking.go) from one query over its links. IDs lists
// the results' URL IDs for that query. A tally belongs to one search; it is not safe for
// concurrent use. Build it with NewAnchorTally.
type AnchorTally struct {
	IDs     []int64
	at      map[int64]int
	anchors map[int64]map[string]int
}

// NewAnchorTally starts a tally for rs.
func NewAnchorTally(rs []index.Result) *AnchorTally {
	t := &AnchorTally{IDs: make([]int64, 0, len(rs)), at: make(map[int64]int, len(rs)),
		anchors: make(map[int64]map[string]int, len(rs))}
	for i, r := range rs {
		id := IDOf(r.URL)
		t.at[id] = i
		t.IDs = append(t.IDs, id)
	}
	return t
}

// Add records that n links from other pages point to the URL id with this anchor text.
func (t *AnchorTally) Add(id int64, anchor string, n int) {
	if t.anchors[id] == nil {
		t.anchors[id] = map[string]int{}
	}
	t.anchors[id][anchor] += n
}

// Fill sets the AnchorVotes of rs (the results the tally was built for) for the query's terms.
func (t *AnchorTally) Fill(rs []index.Result, terms []string) {
	for id, a := range t.anchors {
		if i, ok := t.at[id]; ok {
			rs[i].AnchorVotes = index.AnchorVotes(a, terms)
		}
	}
}
