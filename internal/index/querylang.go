package index

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The query language (issue 11), the same in the CLI, the API and the search page:
//
//	vacuum analyze        plain words: every word is required (AND), in any order
//	"routine vacuuming"   a phrase: the words next to each other, in this order
//	-jsonb  -"hot standby"  exclude pages with this word, phrase or prefix
//	vacuum OR analyze     either; OR (upper-case) binds tighter than the implicit AND:
//	                      "a b OR c d" is a AND (b OR c) AND d
//	asyn*                 a prefix: any word starting with "asyn" (at least MinPrefixRunes letters)
//	site:postgresql.org   only pages on this host or its subdomains; several site: filters
//	                      mean any of those hosts
//	what is mvcc          a question: plain words whose first is how, what, why, when, where,
//	                      which or who; its function words ("is", "a", "do", "I", "to"...) are
//	                      not required, and the page says so (question.go)
//
// A word is a run of letters and digits; case does not matter. A token with punctuation inside,
// such as pg_stat_activity, pg_hba.conf or --dry-run, is one term: Node.Text keeps it whole
// (lower-cased, outer punctuation trimmed, a leading "--" kept) and Node.Words has its words, so a
// backend matches the whole identifier or, if its tokenizer splits it, the words as a phrase.
// Lower-case "or", "and", "not" and "near" are ordinary words, and nothing else is syntax:
// parentheses and column filters are not part of the language.
//
// Bad syntax is never an error. An unbalanced quote, a lone "-", OR at either end or next to
// another OR, an excluded term or a site: filter as an alternative of OR, "*" alone or inside a
// word, a prefix shorter than MinPrefixRunes, an empty phrase, "site:" without a valid host,
// "-site:", a query of exclusions or site: filters only, control characters, invalid UTF-8 and
// input longer than MaxQueryBytes (cut there) all make the whole query plain words: every
// whitespace-separated token is a required term, quotes, "*", parentheses and control characters
// separate tokens, a leading "-" and "site:" are read as text, and Parsed.Plain is set with a
// note that says why. At most MaxQueryTerms words are searched; later terms are dropped, with a
// note.

// MinPrefixRunes is the fewest letters a prefix* may have: a shorter prefix would match most of
// the vocabulary and cost a scan of it.
const MinPrefixRunes = 2

// maxHostBytes is the longest host name a site: filter accepts (RFC 1035's 253).
const maxHostBytes = 253

// Kind is the kind of a Node.
type Kind uint8

// Kinds of Node.
const (
	KindTerm   Kind = iota + 1 // one token: Text as typed (lower-cased), Words its words
	KindPhrase                 // "quoted words": Words in order, next to each other; Text is them joined by spaces
	KindPrefix                 // token*: Text without the "*"; the last of Words is a prefix
	KindOr                     // alternatives: Kids, two or more Term, Phrase or Prefix nodes
)

func (k Kind) String() string {
	switch k {
	case KindTerm:
		return "term"
	case KindPhrase:
		return "phrase"
	case KindPrefix:
		return "prefix"
	case KindOr:
		return "or"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Node is one term of a parsed query. Words are lower-case runs of letters and digits; every
// node but an Or has at least one. Nodes are values: a Parsed owns its nodes.
type Node struct {
	Kind  Kind
	Text  string
	Words []string
	Kids  []Node
}

// Parsed is a query in the query language, as a tree every backend can render (the FTS5 MATCH
// rendering is package internal/index/fts5). A page matches when it matches every node of Must,
// none of Not, and, when Sites is not empty, its host is one of Sites or a subdomain of one
// (HostInSites). The zero value is the empty query. Must is empty only when the query has no
// word to search for (Empty); Not and Sites are then empty too.
type Parsed struct {
	Must  []Node
	Not   []Node
	Sites []string // host names, lower-case, without a trailing dot
	// Plain says the input was malformed and was read as plain words (see the language above);
	// Notes then says why, for people. Notes can also say that words were dropped.
	Plain bool
	Notes []string
}

// Parse returns q's text in the query language; see Parse.
func (q Query) Parse() Parsed { return Parse(q.Text) }

// Parse reads text in the query language described above. It never fails: malformed input is
// read as plain words and the result says so.
func Parse(text string) Parsed {
	switch {
	case len(text) > MaxQueryBytes:
		return plainWords(cutUTF8(text, MaxQueryBytes),
			fmt.Sprintf("the query is longer than %d bytes: it was cut there and read as plain words", MaxQueryBytes))
	case !utf8.ValidString(text):
		return plainWords(text, "the query is not valid UTF-8: it was read as plain words")
	case strings.IndexFunc(text, isControl) >= 0:
		return plainWords(text, "the query has control characters: it was read as plain words")
	}
	p, bad := parseOperators(text)
	if bad != "" {
		return plainWords(text, bad+": the query was read as plain words")
	}
	return asQuestion(text, p)
}

// lexeme is one item of the input: a quoted phrase or a whitespace-separated token, and whether a
// "-" excluded it; start and end are its bytes in the input, the "-" and quotes included.
type lexeme struct {
	neg, phrase bool
	text        string
	start, end  int
}

// lex splits text into lexemes, or says why it cannot.
func lex(text string) ([]lexeme, string) {
	var out []lexeme
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		neg, start := false, i
		if r == '-' {
			next, _ := utf8.DecodeRuneInString(text[i+1:])
			switch {
			case i+1 == len(text) || unicode.IsSpace(next):
				return nil, `a lone "-" excludes nothing`
			case next == '"' || isWordRune(next):
				neg, r = true, next
				i++
			}
		}
		if r == '"' {
			end := strings.IndexByte(text[i+1:], '"')
			if end < 0 {
				return nil, `a quote (") is not closed`
			}
			out = append(out, lexeme{neg: neg, phrase: true, text: text[i+1 : i+1+end], start: start, end: i + end + 2})
			i += end + 2
			if after, _ := utf8.DecodeRuneInString(text[i:]); i < len(text) && !unicode.IsSpace(after) {
				return nil, `a closing quote (") must be followed by a space`
			}
			continue
		}
		j := i
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			if r == '"' {
				return nil, `a quote (") must start a phrase, not sit inside a word`
			}
			j += size
		}
		out = append(out, lexeme{neg: neg, text: text[i:j], start: start, end: j})
		i = j
	}
	return out, ""
}

// parseOperators parses well-formed input, or says what is malformed.
func parseOperators(text string) (Parsed, string) {
	items, bad := lex(text)
	if bad != "" {
		return Parsed{}, bad
	}
	const orSides = "OR needs a term on each side"
	var p Parsed
	var b budget
	var group []Node // the alternatives of the current required term
	pendingOr := false
	lastPositive := false // the previous item can be the left side of an OR
	flush := func() {
		switch len(group) {
		case 0:
		case 1:
			p.Must = appendNew(p.Must, group[0])
		default:
			p.Must = appendNew(p.Must, Node{Kind: KindOr, Kids: group})
		}
		group = nil
	}
	for _, it := range items {
		if !it.phrase && !it.neg && it.text == "OR" {
			if !lastPositive || pendingOr {
				return Parsed{}, orSides
			}
			pendingOr, lastPositive = true, false
			continue
		}
		if rest, ok := cutPrefixFold(it.text, "site:"); ok && !it.phrase {
			if pendingOr {
				return Parsed{}, orSides
			}
			if it.neg {
				return Parsed{}, `"-site:" is not supported: site: only includes`
			}
			host, ok := siteHost(rest)
			if !ok {
				return Parsed{}, "site: needs a host name (site:example.com)"
			}
			if !contains(p.Sites, host) {
				p.Sites = append(p.Sites, host)
			}
			lastPositive = false
			continue
		}
		n, ok, bad := termNode(it.text, it.phrase)
		if bad != "" {
			return Parsed{}, bad
		}
		if !ok || !b.take(&n) {
			if pendingOr && !ok {
				return Parsed{}, orSides
			}
			pendingOr = false // a dropped alternative leaves the group as it was
			continue
		}
		switch {
		case it.neg:
			if pendingOr {
				return Parsed{}, "OR cannot join an excluded term"
			}
			p.Not = appendNew(p.Not, n)
			lastPositive = false
		case pendingOr:
			group = append(group, n)
			pendingOr, lastPositive = false, true
		default:
			flush()
			group = []Node{n}
			lastPositive = true
		}
	}
	if pendingOr {
		return Parsed{}, orSides
	}
	flush()
	if len(p.Must) == 0 {
		switch {
		case len(p.Not) > 0:
			return Parsed{}, "a query cannot only exclude: it needs a word to search for"
		case len(p.Sites) > 0:
			return Parsed{}, "a site: filter needs a word to search for"
		}
	}
	if b.dropped {
		p.Notes = append(p.Notes, b.note())
	}
	return p, ""
}

// plainWords reads text as plain words (see the language above), with note saying why.
func plainWords(text, note string) Parsed {
	p := Parsed{Plain: true, Notes: []string{note}}
	var b budget
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		return unicode.IsSpace(r) || isControl(r) || r == utf8.RuneError || strings.ContainsRune(`"*()`, r)
	}) {
		if n, ok, _ := termNode(f, false); ok && b.take(&n) {
			p.Must = appendNew(p.Must, n)
		}
	}
	if b.dropped {
		p.Notes = append(p.Notes, b.note())
	}
	return p
}

// termNode makes the node of a phrase or a token; ok is false when it has no word (a token of
// punctuation only, which is skipped); bad says why it is malformed.
func termNode(text string, phrase bool) (n Node, ok bool, bad string) {
	if phrase {
		words := words(text)
		switch len(words) {
		case 0:
			return Node{}, false, `an empty phrase ("")`
		case 1:
			return Node{Kind: KindTerm, Text: words[0], Words: words}, true, ""
		}
		return Node{Kind: KindPhrase, Text: strings.Join(words, " "), Words: words}, true, ""
	}
	kind := KindTerm
	if i := strings.IndexByte(text, '*'); i >= 0 {
		if i != len(text)-1 || len(words(text)) == 0 {
			return Node{}, false, `"*" only ends a prefix, as in asyn*`
		}
		kind, text = KindPrefix, text[:i]
	}
	w := words(text)
	if len(w) == 0 {
		return Node{}, false, ""
	}
	if kind == KindPrefix && utf8.RuneCountInString(w[len(w)-1]) < MinPrefixRunes {
		return Node{}, false, fmt.Sprintf("a prefix needs at least %d letters before the *", MinPrefixRunes)
	}
	return Node{Kind: kind, Text: trimOuter(strings.ToLower(text)), Words: w}, true, ""
}

// budget counts words against MaxQueryTerms. The zero value is an unused budget.
type budget struct {
	used    int
	dropped bool
}

// take counts n's words and reports whether n fits; a phrase that does not fit is shortened to
// what is left, if anything.
func (b *budget) take(n *Node) bool {
	left := MaxQueryTerms - b.used
	if len(n.Words) > left {
		b.dropped = true
		if n.Kind != KindPhrase || left < 2 {
			return false
		}
		n.Words = n.Words[:left]
		n.Text = strings.Join(n.Words, " ")
	}
	b.used += len(n.Words)
	return true
}

func (b *budget) note() string {
	return fmt.Sprintf("only the first %d words of the query were searched", MaxQueryTerms)
}

// words returns the lower-cased runs of letters and digits of s.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !isWordRune(r) })
}

// trimOuter trims s of leading and trailing runes that are not letters, digits or "_", keeping a
// leading "--" before a word (a command-line flag).
func trimOuter(s string) string {
	notIdent := func(r rune) bool { return !isWordRune(r) && r != '_' }
	s = strings.TrimRightFunc(s, notIdent)
	if rest, ok := strings.CutPrefix(s, "--"); ok && rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); isWordRune(r) {
			return s
		}
	}
	return strings.TrimLeftFunc(s, notIdent)
}

// siteHost checks the host of a site: filter: letters, digits, "-" and dots between non-empty
// labels, at most maxHostBytes; a trailing dot is dropped. It returns the host lower-cased.
func siteHost(s string) (string, bool) {
	s = strings.TrimSuffix(strings.ToLower(s), ".")
	if s == "" || len(s) > maxHostBytes {
		return "", false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || strings.IndexFunc(label, func(r rune) bool { return !isWordRune(r) && r != '-' }) >= 0 {
			return "", false
		}
	}
	return s, true
}

// Empty reports whether the query has no word to search for.
func (p Parsed) Empty() bool { return len(p.Must) == 0 }

// Terms returns the words a result is searched and highlighted for: those of the required terms
// and their alternatives, not the excluded ones, each once, in query order.
func (p Parsed) Terms() []string {
	var out []string
	add := func(n Node) {
		for _, w := range n.Words {
			if !contains(out, w) {
				out = append(out, w)
			}
		}
	}
	for _, n := range p.Must {
		add(n)
		for _, k := range n.Kids {
			add(k)
		}
	}
	return out
}

// HostInSites reports whether a page on host passes the query's site: filters: true when there
// are none, or when host (any case, a trailing dot ignored) is one of Sites or a subdomain of one.
func (p Parsed) HostInSites(host string) bool {
	if len(p.Sites) == 0 {
		return true
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	for _, s := range p.Sites {
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}

// String returns the query in the language's canonical form: required terms, then exclusions,
// then site: filters, separated by spaces. It parses back to the same nodes, except that a
// fallback's tokens which read as operators ("site:x") come back as phrases.
func (p Parsed) String() string {
	var parts []string
	for _, n := range p.Must {
		parts = append(parts, n.String())
	}
	for _, n := range p.Not {
		if n.Kind == KindTerm && strings.HasPrefix(n.Text, "-") {
			n = Node{Kind: KindPhrase, Words: n.Words}
		}
		parts = append(parts, "-"+n.String())
	}
	for _, s := range p.Sites {
		parts = append(parts, "site:"+s)
	}
	return strings.Join(parts, " ")
}

// String returns the node in the language's canonical form.
func (n Node) String() string {
	switch n.Kind {
	case KindTerm:
		if _, op := cutPrefixFold(n.Text, "site:"); !op && n.Text != "" {
			return n.Text
		}
		if len(n.Words) == 1 {
			return n.Words[0]
		}
		return `"` + strings.Join(n.Words, " ") + `"`
	case KindPhrase:
		return `"` + strings.Join(n.Words, " ") + `"`
	case KindPrefix:
		return n.Text + "*"
	case KindOr:
		kids := make([]string, len(n.Kids))
		for i, k := range n.Kids {
			kids[i] = k.String()
		}
		return strings.Join(kids, " OR ")
	}
	return ""
}

// appendNew appends n unless an equal node (same canonical form) is already in ns.
func appendNew(ns []Node, n Node) []Node {
	s := n.String()
	for _, m := range ns {
		if m.Kind == n.Kind && m.String() == s {
			return ns
		}
	}
	return append(ns, n)
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// cutPrefixFold is strings.CutPrefix with an ASCII case-insensitive prefix.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// cutUTF8 returns at most n bytes of s, ending at a character boundary.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// isControl reports control characters other than the white space a person can type.
func isControl(r rune) bool { return unicode.IsControl(r) && !unicode.IsSpace(r) }
