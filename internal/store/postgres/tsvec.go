package postgres

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// A tsvector is built by the crawl process, not by the server (issue 31 part 4: server CPU per
// page): to_tsvector's parser and stemmer were most of PostgreSQL's CPU per page (about 2 ms a
// page of 9.5 KB on this machine, against 0.5 ms to read the same tsvector as a literal). The
// words are searchWords' (lower case, letters and digits), which PostgreSQL's default parser reads
// as one token each when they are ASCII, except that digits, "e", digits at the start of a word is
// a number of its own (sfloat: "12e5abc" is "12e5" and "abc"). Text that is not ASCII is left to
// to_tsvector, whose parser decides what a letter is in the database's locale. Stems come from
// the server's own dictionary (ts_lexize of mandelbot_stem), once per word per process
// (stemCache), so that what a query's to_tsquery stems always matches.
const (
	// maxLexemeBytes: PostgreSQL ignores a longer word (MAXSTRLEN 2 KiB), without a position.
	maxLexemeBytes = 2047
	// maxTSVPos is the last position a tsvector holds (MAXENTRYPOS-1); later words share it.
	maxTSVPos = 1<<14 - 1
	// maxParsedPositions is how many positions to_tsvector keeps per lexeme, maxTSVPositions
	// how many a concatenation (||) keeps (MAXNUMPOS).
	maxParsedPositions = 255
	maxTSVPositions    = 256
	// stemCacheMax bounds the words a process keeps stems of; the cache starts again when full.
	stemCacheMax = 1 << 20
)

// stemCache maps words to their stems in mandelbot_stem. It is safe for concurrent use; the
// zero value is ready.
type stemCache struct {
	mu    sync.Mutex
	stems map[string]string
}

// fill looks up, in one statement of tx, the stems of the words of ws it does not hold.
func (c *stemCache) fill(ctx context.Context, tx pgx.Tx, ws []string) error {
	c.mu.Lock()
	var missing []string
	for _, w := range ws {
		if _, ok := c.stems[w]; !ok {
			missing = append(missing, w)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	rows, _ := tx.Query(ctx, `SELECT w, COALESCE((ts_lexize('mandelbot_stem', w))[1], '') FROM unnest($1::text[]) AS w`, missing)
	got := make(map[string]string, len(missing))
	var w, stem string
	if _, err := pgx.ForEachRow(rows, []any{&w, &stem}, func() error { got[w] = stem; return nil }); err != nil {
		return fmt.Errorf("stems of %d words: %w", len(missing), err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stems == nil || len(c.stems)+len(got) > stemCacheMax {
		c.stems = make(map[string]string, len(got))
	}
	for w, stem := range got {
		c.stems[w] = stem
	}
	return nil
}

// stem returns the stem of a word fill looked up ("" when the dictionary gives none, or it is
// not known).
func (c *stemCache) stem(w string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.stems[w]
	return s, ok
}

// tsvField is one part of an entry's tsvector: searchWords' words and their weight class
// (A, B, C or D).
type tsvField struct {
	words  string
	weight byte
}

// tsvTokens returns the tokens PostgreSQL's default parser reads in ASCII words (searchWords'
// output), and whether it read them all (false: leave the text to to_tsvector).
func tsvTokens(words string) ([]string, bool) {
	if !isPlainASCII(words) {
		return nil, false
	}
	var out []string
	for _, w := range strings.Fields(words) {
		for w != "" {
			n := sfloatPrefix(w)
			if n == 0 || n == len(w) {
				out = append(out, w)
				break
			}
			out = append(out, w[:n])
			w = w[n:]
		}
	}
	return out, true
}

// sfloatPrefix returns the length of the number digits, "e", digits that w starts with, or 0.
func sfloatPrefix(w string) int {
	i := 0
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	if i == 0 || i+1 >= len(w) || w[i] != 'e' || !isDigit(w[i+1]) {
		return 0
	}
	i += 2
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	return i
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

// isNumber reports whether a token is a number to the parser (uint or sfloat), which the
// configuration leaves as it is rather than stemming it.
func isNumber(t string) bool {
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) {
			return sfloatPrefix(t) == len(t)
		}
	}
	return true
}

// tsvWords returns the tokens of every field, and false when one of them must be left to
// to_tsvector.
func tsvWords(fields []tsvField) ([]string, bool) {
	var all []string
	for _, f := range fields {
		ts, ok := tsvTokens(f.words)
		if !ok {
			return nil, false
		}
		for _, t := range ts {
			if !isNumber(t) && len(t) <= maxLexemeBytes {
				all = append(all, t)
			}
		}
	}
	return all, true
}

// tsvLiteral renders the tsvector that the concatenation of setweight(to_tsvector(words),
// weight) over fields makes, as a tsvector literal; ok is false when a field is not ASCII (or
// a stem is missing): the caller lets to_tsvector make it.
func (c *stemCache) tsvLiteral(fields []tsvField) (lit string, ok bool) {
	type pos struct {
		p      int
		weight byte
	}
	vec := map[string][]pos{}
	maxpos := 0
	for _, f := range fields {
		ts, ok := tsvTokens(f.words)
		if !ok {
			return "", false
		}
		field := map[string][]int{}
		p, fieldMax := 0, 0
		for _, t := range ts {
			if len(t) > maxLexemeBytes {
				continue
			}
			lex := t
			if !isNumber(t) {
				s, ok := c.stem(t)
				if !ok {
					return "", false
				}
				lex = s
			}
			p++
			if lex == "" {
				continue // a stop word: it takes a position, no lexeme
			}
			at := min(p, maxTSVPos)
			ps := field[lex]
			if len(ps) < maxParsedPositions && (len(ps) == 0 || ps[len(ps)-1] != at) {
				field[lex] = append(ps, at)
				fieldMax = max(fieldMax, at)
			}
		}
		for lex, ps := range field {
			have := vec[lex]
			for _, q := range ps {
				if len(have) >= maxTSVPositions || len(have) > 0 && have[len(have)-1].p == maxTSVPos {
					break
				}
				have = append(have, pos{min(q+maxpos, maxTSVPos), f.weight})
			}
			vec[lex] = have
		}
		if fieldMax > 0 {
			maxpos = min(maxpos+fieldMax, maxTSVPos)
		}
	}
	lexemes := make([]string, 0, len(vec))
	for lex := range vec {
		lexemes = append(lexemes, lex)
	}
	slices.Sort(lexemes)
	var b strings.Builder
	for i, lex := range lexemes {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteByte('\'')
		for j := 0; j < len(lex); j++ {
			if lex[j] == '\'' || lex[j] == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(lex[j])
		}
		b.WriteString("':")
		for j, q := range vec[lex] {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(q.p))
			if q.weight != 'D' {
				b.WriteByte(q.weight)
			}
		}
	}
	return b.String(), true
}

// literals returns the tsvector literal of each set of fields (nil for one that to_tsvector must
// make), after looking up in tx the stems this process does not know yet.
func (s *Store) literals(ctx context.Context, tx pgx.Tx, sets [][]tsvField) ([]*string, error) {
	var words []string
	for _, fs := range sets {
		if ws, ok := tsvWords(fs); ok {
			words = append(words, ws...)
		}
	}
	if err := s.stems.fill(ctx, tx, words); err != nil {
		return nil, err
	}
	out := make([]*string, len(sets))
	for i, fs := range sets {
		if lit, ok := s.stems.tsvLiteral(fs); ok {
			out[i] = &lit
		}
	}
	return out, nil
}
