// Package fts5 renders a parsed query (index.Parsed, the query language of issue 11) as an
// SQLite FTS5 MATCH expression. Every term becomes an FTS5 string, with its double quotes
// doubled and control characters made spaces, so nothing a user types can be FTS5 syntax: no
// column filter, NEAR, ^, + or bare operator reaches the engine. The package is pure: it builds
// a string and runs nothing.
package fts5

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/fractle/mandelbot/internal/index"
)

// Match returns the MATCH expression of p, over all columns of the table:
//
//   - a term is its whole text as one string ("pg_stat_activity"): the tokenizer turns it into
//     one token, or into a phrase of its words if it splits on the punctuation (unicode61 does);
//   - a phrase is one string of its words ("hot standby");
//   - a prefix is its text as a string followed by * ("pg_stat"*: the last token is a prefix);
//   - alternatives are (A OR B), required terms are joined with AND;
//   - exclusions follow the required part: (A AND B) NOT C NOT D (NOT binds tightest in FTS5,
//     so the parentheses keep the meaning).
//
// p.Sites is not rendered: FTS5 knows no hosts, so the caller keeps only results whose host
// passes p.HostInSites (or the equivalent SQL). An empty query is index.ErrEmptyQuery; a node of
// an unknown kind, or an Or among exclusions, is an error.
func Match(p index.Parsed) (string, error) {
	must, nots, err := render(p)
	expr := strings.Join(must, " AND ")
	if err != nil || len(nots) == 0 {
		return expr, err
	}
	return "(" + expr + ") NOT " + strings.Join(nots, " NOT "), nil
}

// Exclusions returns p's exclusions as one alternative ("C" OR "D", in parentheses when there
// are several), "" when there are none: for an entry whose text is spread over several tables,
// which matches p only when no table matches them.
func Exclusions(p index.Parsed) (string, error) {
	_, nots, err := render(p)
	switch {
	case err != nil || len(nots) == 0:
		return "", err
	case len(nots) == 1:
		return nots[0], nil
	}
	return "(" + strings.Join(nots, " OR ") + ")", nil
}

// Any returns p's required nodes rendered each on its own (a term, phrase, prefix or
// alternative), joined with OR: an entry spread over several tables matches p when each node
// matches one of them; and a rank function such as bm25 gives the rows that match every node the
// same score under Any as under Match, and the others a score for the nodes they hold. The
// nodes are returned too.
func Any(p index.Parsed) (expr string, nodes []string, err error) {
	nodes, _, err = render(p)
	return strings.Join(nodes, " OR "), nodes, err
}

// render renders each required node of p and each exclusion.
func render(p index.Parsed) (must, nots []string, err error) {
	if p.Empty() {
		return nil, nil, index.ErrEmptyQuery
	}
	for _, n := range p.Must {
		s, err := node(n, true)
		if err != nil {
			return nil, nil, err
		}
		must = append(must, s)
	}
	for _, n := range p.Not {
		s, err := node(n, false)
		if err != nil {
			return nil, nil, err
		}
		nots = append(nots, s)
	}
	return must, nots, nil
}

// node renders one node; orOK says whether an Or node may stand here.
func node(n index.Node, orOK bool) (string, error) {
	switch n.Kind {
	case index.KindTerm:
		return quote(textOf(n)), nil
	case index.KindPhrase:
		return quote(strings.Join(n.Words, " ")), nil
	case index.KindPrefix:
		return quote(textOf(n)) + "*", nil
	case index.KindOr:
		if !orOK || len(n.Kids) == 0 {
			return "", fmt.Errorf("fts5: render query: an OR node here is not part of the language")
		}
		kids := make([]string, len(n.Kids))
		for i, k := range n.Kids {
			s, err := node(k, false)
			if err != nil {
				return "", err
			}
			kids[i] = s
		}
		return "(" + strings.Join(kids, " OR ") + ")", nil
	}
	return "", fmt.Errorf("fts5: render query: unknown node kind %v", n.Kind)
}

// textOf is the text a term or prefix is searched by: its Text, or its words when a node built
// by hand has none.
func textOf(n index.Node) string {
	if n.Text != "" {
		return n.Text
	}
	return strings.Join(n.Words, " ")
}

// quote makes s one FTS5 string: inside double quotes, a double quote is doubled and nothing
// else is special; control characters (which the tokenizer would drop anyway, and a NUL could
// cut the expression short in C code) become spaces.
func quote(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

// Near renders the query's required single words and phrases as one FTS5 NEAR group (every
// one of them within window tokens of the others), for a proximity boost; ok is false when the
// query has fewer than two of them (nothing to be near).
func Near(p index.Parsed, window int) (expr string, ok bool) {
	var parts []string
	for _, n := range p.Must {
		switch n.Kind {
		case index.KindTerm, index.KindPhrase:
			parts = append(parts, quote(textOf(n)))
		}
	}
	if len(parts) < 2 {
		return "", false
	}
	return fmt.Sprintf("NEAR(%s, %d)", strings.Join(parts, " "), window), true
}

// InColumns restricts a MATCH expression (Match's) to the named columns: {a b} : (expr).
func InColumns(expr string, columns ...string) string {
	return "{" + strings.Join(columns, " ") + "} : (" + expr + ")"
}

// Phrase renders the query as one phrase (index.Parsed.WholePhrase), for the phrase boost; ok
// is false when the query has none.
func Phrase(p index.Parsed) (expr string, ok bool) {
	n, ok := p.WholePhrase()
	if !ok {
		return "", false
	}
	return quote(textOf(n)), true
}

// AllOfAny renders sets of words as one alternative of conjunctions, ("a" AND "b") OR ("c" AND
// "d"): an entry matches when it holds every word of one set. Each word is one FTS5 string; a
// set of no words is left out, and no set at all renders as "".
func AllOfAny(sets [][]string) string {
	var alts []string
	for _, set := range sets {
		if len(set) == 0 {
			continue
		}
		words := make([]string, len(set))
		for i, w := range set {
			words[i] = quote(w)
		}
		alts = append(alts, "("+strings.Join(words, " AND ")+")")
	}
	return strings.Join(alts, " OR ")
}
