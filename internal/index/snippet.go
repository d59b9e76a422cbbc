package index

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a snippet (issue 32 part 4).
const (
	// SnippetWords is the most words a snippet shows: a longer sentence is cut to the
	// SnippetWords around its matches, "…" marking each cut.
	SnippetWords = 32
	// MaxSnippetSentenceBytes bounds a sentence: text without sentence ends (a table, a list of
	// options) is cut in pieces of about this many bytes.
	MaxSnippetSentenceBytes = 400
	// MaxSnippetScanBytes bounds the text Snippet reads of one page.
	MaxSnippetScanBytes = 256 << 10
)

// Snippet chooses the snippet of a page for a query (issue 32 part 4): the sentence of text (a
// page's indexed text; the text keeps no block boundaries, so a heading or a signature without
// a full stop runs into the sentence after it) that holds the most of the query's distinct words (terms,
// Parsed.Terms), then the most matches, the earliest of equals; a sentence that looks like code
// (a ">>>" or "$ " prompt, or mostly symbols: codeLike) only when the query looks like code
// (QueryLooksLikeCode) or no other sentence holds a query word. Words match as the engines
// roughly fold them: case, plurals and the endings -ing, -ed (snippetForm). It returns nil
// when no sentence holds a query word, for the store to fall back on its engine's snippet.
// Matched words have Match set; a sentence longer than SnippetWords words is cut around its
// first matches.
func Snippet(text string, terms []string, codeQuery bool) []Span {
	if len(terms) == 0 || text == "" {
		return nil
	}
	if len(text) > MaxSnippetScanBytes {
		text = text[:MaxSnippetScanBytes]
		for !utf8.ValidString(text) { // cut inside a rune
			text = text[:len(text)-1]
		}
	}
	forms := make([]string, 0, len(terms))
	for _, t := range terms {
		forms = append(forms, snippetForm(t))
	}
	type choice struct {
		s             string
		words, hits   int
		code, present bool
	}
	var best choice
	better := func(c, b choice) bool {
		if !b.present {
			return true
		}
		if c.code != b.code && !codeQuery {
			return !c.code
		}
		if c.words != b.words {
			return c.words > b.words
		}
		return c.hits > b.hits
	}
	eachSentence(text, func(s string) {
		words, hits := countMatches(s, forms)
		if words == 0 {
			return
		}
		c := choice{s: s, words: words, hits: hits, code: codeLike(s), present: true}
		if better(c, best) {
			best = c
		}
	})
	if !best.present {
		return nil
	}
	return markSentence(best.s, forms)
}

// QueryLooksLikeCode reports whether a query as typed looks like code rather than words: it has
// an identifier (snake_case, CamelCase, a.b, --flag: Identifiers), a call's parentheses, an
// operator or a prompt.
func QueryLooksLikeCode(q string) bool {
	return len(Identifiers(q)) > 0 || strings.ContainsAny(q, "(){}[];=<>$") || strings.Contains(q, ">>>")
}

// snippetForm folds a lower- or mixed-case word for matching in a snippet: lower case, the
// plural folded (sStem), then a final -ing or -ed (with a doubled consonant before it) and a
// final -e dropped, so that "configuring", "configured", "configure" and "configures" meet.
func snippetForm(w string) string {
	w = sStem(strings.ToLower(w))
	for _, suf := range []string{"ing", "ed"} {
		if len(w) > len(suf)+3 && strings.HasSuffix(w, suf) {
			w = w[:len(w)-len(suf)]
			if n := len(w); n >= 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
				w = w[:n-1]
			}
			break
		}
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// eachSentence calls fn with each sentence of text: a run ended by '.', '?' or '!' before a space
// (not a dot inside a word or number: "e.g." is cut, "2.4" and "a.b" are not), at most about
// MaxSnippetSentenceBytes (cut at a space), trimmed, not empty.
func eachSentence(text string, fn func(string)) {
	start := 0
	emit := func(end int) {
		if s := strings.TrimSpace(text[start:end]); s != "" {
			fn(s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '.' || c == '?' || c == '!') && i+1 < len(text) && text[i+1] == ' ':
			emit(i + 1)
		case c == ' ' && i-start >= MaxSnippetSentenceBytes:
			emit(i)
		}
	}
	emit(len(text))
}

// eachWord calls fn with each run of letters and digits of s and its byte offsets.
func eachWord(s string, fn func(w string, start, end int)) {
	start := -1
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			fn(s[start:i], start, i)
			start = -1
		}
	}
	if start >= 0 {
		fn(s[start:], start, len(s))
	}
}

// matchesOf returns the mask of forms (snippetForm of the query's words, the first 64) that the
// word w matches: w itself, or, for a CamelCase word, its parts (KeepAliveTimeout matches keep,
// alive and timeout, as the index finds it by them).
func matchesOf(w string, forms []string) uint64 {
	var mask uint64
	see := func(x string) {
		f := snippetForm(x)
		for i, t := range forms[:min(len(forms), 64)] {
			if f == t {
				mask |= 1 << i
			}
		}
	}
	see(w)
	if hasCamel(w) {
		for _, p := range camelParts(w) {
			see(p)
		}
	}
	return mask
}

// countMatches returns how many of forms (snippetForm of the query's words) s holds, and how
// many of its words match one.
func countMatches(s string, forms []string) (words, hits int) {
	var seen uint64
	eachWord(s, func(w string, _, _ int) {
		if m := matchesOf(w, forms); m != 0 {
			hits++
			seen |= m
		}
	})
	return bits.OnesCount64(seen), hits
}

// codeLike reports whether a sentence looks like code: it holds a ">>>" or "$ " prompt, or a
// sixth or more of its non-space characters are symbols of code.
func codeLike(s string) bool {
	if strings.Contains(s, ">>>") || strings.HasPrefix(s, "$ ") || strings.Contains(s, " $ ") {
		return true
	}
	symbols, total := 0, 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		total++
		if strings.ContainsRune("{}()[];=<>$#*/\\|&\"'`_", r) {
			symbols++
		}
	}
	return total > 0 && symbols*6 >= total
}

// markSentence returns s as Spans, its words that match forms marked, cut to the SnippetWords
// words from a little before its first match when it is longer.
func markSentence(s string, forms []string) []Span {
	type word struct {
		start, end int
		match      bool
	}
	var ws []word
	eachWord(s, func(w string, start, end int) {
		ws = append(ws, word{start, end, matchesOf(w, forms) != 0})
	})
	from, to := 0, len(ws)
	if len(ws) > SnippetWords {
		first := 0
		for i, w := range ws {
			if w.match {
				first = i
				break
			}
		}
		from = max(0, min(first-SnippetWords/4, len(ws)-SnippetWords))
		to = from + SnippetWords
	}
	var out []Span
	pos, end := 0, len(s)
	if from > 0 {
		pos = ws[from].start
		out = append(out, Span{Text: "… "})
	}
	if to < len(ws) {
		end = ws[to-1].end
	}
	for _, w := range ws[from:to] {
		if !w.match {
			continue
		}
		if w.start > pos {
			out = append(out, Span{Text: s[pos:w.start]})
		}
		out = append(out, Span{Text: s[w.start:w.end], Match: true})
		pos = w.end
	}
	if end > pos {
		out = append(out, Span{Text: s[pos:end]})
	}
	if to < len(ws) {
		out = append(out, Span{Text: " …"})
	}
	return out
}
