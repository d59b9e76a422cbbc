package postgres

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
)

// A tsvector is built by the crawl process, not by the server (issue 31 part 4: server CPU per
// page): to_tsvector's parser and stemmer were most of PostgreSQL's CPU per page (about 2 ms a page
// of 9.5 KB on this machine, against 0.5 ms to read the same tsvector as a literal, and less again
// in the binary format it is sent in: tsvcodec.go). The words are searchWords' (lower case, letters
// and digits), which PostgreSQL's default parser reads as one token each when they are ASCII,
// except that digits, "e", digits at the start of a word is a number of its own (sfloat: "12e5abc"
// is "12e5" and "abc"). Text that is not ASCII is left to to_tsvector, whose parser decides what a
// letter is in the database's locale. Stems come from the server's own dictionary (ts_lexize of
// mandelbot_stem), once per word per process (stemCache), so that what a query's to_tsquery stems
// always matches.
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

// stemCache maps words to their lexemes in mandelbot_stem, each lexeme numbered once (two
// words of one stem share its number), so that an entry's tsvector is built with slices indexed
// by lexeme rather than maps of strings (issue 31: the fold's cost per document). Numbers are
// their own lexemes, as the configuration leaves them. It is safe for concurrent use: fill
// writes, builds read. The zero value is ready.
type stemCache struct {
	mu      sync.RWMutex
	ids     map[string]int32 // word → the number of its lexeme in lexemes, or stopWord
	lexemes []string
	byLex   map[string]int32
}

// stopWord is the lexeme number of a word the dictionary gives no stem: it takes a position and
// has no lexeme.
const stopWord = -1

// fill looks up, in one statement of tx, the stems of the words of ws (tokens, none longer than
// maxLexemeBytes) it does not hold; numbers need no look-up.
func (c *stemCache) fill(ctx context.Context, tx pgx.Tx, ws []string) error {
	c.mu.RLock()
	var missing, numbers []string
	for _, w := range ws {
		if _, ok := c.ids[w]; !ok {
			if isNumber(w) {
				numbers = append(numbers, w)
			} else {
				missing = append(missing, w)
			}
		}
	}
	c.mu.RUnlock()
	if len(missing)+len(numbers) == 0 {
		return nil
	}
	slices.Sort(missing)
	missing = slices.Compact(missing)
	got := make(map[string]string, len(missing)+len(numbers))
	for _, n := range numbers {
		got[n] = n
	}
	if len(missing) > 0 {
		rows, _ := tx.Query(ctx, `SELECT w, COALESCE((ts_lexize('mandelbot_stem', w))[1], '') FROM unnest($1::text[]) AS w`, missing)
		var w, stem string
		if _, err := pgx.ForEachRow(rows, []any{&w, &stem}, func() error { got[w] = stem; return nil }); err != nil {
			return fmt.Errorf("stems of %d words: %w", len(missing), err)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil || len(c.ids)+len(got) > stemCacheMax {
		c.ids, c.byLex, c.lexemes = make(map[string]int32, len(got)), make(map[string]int32, len(got)), nil
	}
	for w, stem := range got {
		if stem == "" {
			c.ids[w] = stopWord
			continue
		}
		id, ok := c.byLex[stem]
		if !ok {
			id = int32(len(c.lexemes))
			c.lexemes = append(c.lexemes, stem)
			c.byLex[stem] = id
		}
		c.ids[w] = id
	}
	return nil
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

// lexState is what a build knows of one lexeme of the entry: its positions in the field being
// read (to_tsvector's rules) and in the whole entry (||'s rules).
type lexState struct {
	seen       bool
	field      int // 1 + the index of the field fieldCount and fieldLast are of
	fieldCount int // positions kept in that field
	fieldLast  int // the last of them, in the field
	n          int // positions kept in the entry
	last       int // the last of them
	off        int // where its positions go in the tsvector's order
}

// tsvEntry is one position of a lexeme in an entry.
type tsvEntry struct {
	lex    int32
	pos    int
	weight byte
}

// tsvScratch is the reusable memory of one build: state by lexeme number, the lexemes seen in
// the order they were, the positions in the order they were kept. A build leaves it as it found
// it (all states zero).
type tsvScratch struct {
	state   []lexState
	touched []int32
	entries []tsvEntry
	placed  []tsvEntry
}

var tsvScratchPool = sync.Pool{New: func() any { return new(tsvScratch) }}

// build makes the tsvector that the concatenation of setweight(to_tsvector(words), weight)
// over fields makes, in the binary format (tsvcodec.go), from the fields' tokens (tsvTokens);
// ok is false when a stem is missing: the caller lets to_tsvector make it. The caller holds
// c.mu for reading.
func (c *stemCache) build(tokens [][]string, fields []tsvField) (v tsvector, ok bool) {
	sc := tsvScratchPool.Get().(*tsvScratch)
	defer tsvScratchPool.Put(sc)
	defer sc.reset()
	if n := len(c.lexemes); len(sc.state) < n {
		sc.state = append(sc.state, make([]lexState, n-len(sc.state))...)
	}
	maxpos := 0
	for fi, ts := range tokens {
		p, fieldMax := 0, 0
		for _, t := range ts {
			if len(t) > maxLexemeBytes {
				continue
			}
			id, ok := c.ids[t]
			if !ok {
				return tsvector{}, false
			}
			p++
			if id == stopWord {
				continue // a stop word: it takes a position, no lexeme
			}
			at := min(p, maxTSVPos)
			st := &sc.state[id]
			if !st.seen {
				st.seen = true
				sc.touched = append(sc.touched, id)
			}
			if st.field != fi+1 {
				st.field, st.fieldCount, st.fieldLast = fi+1, 0, 0
			}
			if st.fieldCount >= maxParsedPositions || st.fieldCount > 0 && st.fieldLast == at {
				continue // to_tsvector keeps no more of this lexeme in this field
			}
			st.fieldCount, st.fieldLast = st.fieldCount+1, at
			fieldMax = max(fieldMax, at)
			if st.n >= maxTSVPositions || st.n > 0 && st.last == maxTSVPos {
				continue // || keeps no more of this lexeme in the entry
			}
			g := min(at+maxpos, maxTSVPos)
			st.n, st.last = st.n+1, g
			sc.entries = append(sc.entries, tsvEntry{id, g, fields[fi].weight})
		}
		if fieldMax > 0 {
			maxpos = min(maxpos+fieldMax, maxTSVPos)
		}
	}
	// Lexemes in PostgreSQL's order (bytewise, as Go's), so that tsvectorrecv finds them sorted;
	// each one's positions in the order they were kept (ascending).
	slices.SortFunc(sc.touched, func(a, b int32) int { return strings.Compare(c.lexemes[a], c.lexemes[b]) })
	off := 0
	for _, id := range sc.touched {
		st := &sc.state[id]
		st.off, off = off, off+st.n
	}
	sc.placed = slices.Grow(sc.placed[:0], len(sc.entries))[:len(sc.entries)]
	for _, e := range sc.entries {
		st := &sc.state[e.lex]
		sc.placed[st.off] = e
		st.off++
	}
	b := binary.BigEndian.AppendUint32(make([]byte, 0, tsvectorSize(c.lexemes, sc.touched, len(sc.placed))), uint32(len(sc.touched)))
	for i := 0; i < len(sc.placed); {
		lex := sc.placed[i].lex
		j := i + 1
		for j < len(sc.placed) && sc.placed[j].lex == lex {
			j++
		}
		b = append(b, c.lexemes[lex]...)
		b = append(b, 0)
		b = binary.BigEndian.AppendUint16(b, uint16(j-i))
		for _, e := range sc.placed[i:j] {
			b = binary.BigEndian.AppendUint16(b, weightBits(e.weight)<<14|uint16(e.pos))
		}
		i = j
	}
	return tsvector{b}, true
}

// tsvectorSize is the length of the binary tsvector of the lexemes ids (numbers in all) with
// positions positions in all.
func tsvectorSize(all []string, ids []int32, positions int) int {
	n := 4 + 3*len(ids) + 2*positions
	for _, id := range ids {
		n += len(all[id])
	}
	return n
}

// weightBits is a weight class's two bits in a position (WEP_SETWEIGHT): A 3, B 2, C 1, D 0.
func weightBits(w byte) uint16 {
	switch w {
	case 'A':
		return 3
	case 'B':
		return 2
	case 'C':
		return 1
	}
	return 0
}

// reset zeroes the states a build touched.
func (sc *tsvScratch) reset() {
	for _, id := range sc.touched {
		sc.state[id] = lexState{}
	}
	sc.touched, sc.entries = sc.touched[:0], sc.entries[:0]
}

// vectors returns the tsvector of each set of fields (nil for one that to_tsvector must make),
// after looking up in tx the stems this process does not know yet. Each field is tokenized
// once.
func (s *Store) vectors(ctx context.Context, tx pgx.Tx, sets [][]tsvField) ([]tsvector, error) {
	tokens := make([][][]string, len(sets))
	var words []string
	seen := map[string]bool{}
	s.stems.mu.RLock()
	for i, fs := range sets {
		ts, ok := make([][]string, len(fs)), true
		for j, f := range fs {
			if ts[j], ok = tsvTokens(f.words); !ok {
				break
			}
			for _, t := range ts[j] {
				if _, known := s.stems.ids[t]; !known && len(t) <= maxLexemeBytes && !seen[t] {
					seen[t] = true
					words = append(words, t)
				}
			}
		}
		if ok {
			tokens[i] = ts
		}
	}
	s.stems.mu.RUnlock()
	if err := s.stems.fill(ctx, tx, words); err != nil {
		return nil, err
	}
	out := make([]tsvector, len(sets))
	s.stems.mu.RLock()
	defer s.stems.mu.RUnlock()
	for i, fs := range sets {
		if tokens[i] == nil {
			continue
		}
		if v, ok := s.stems.build(tokens[i], fs); ok {
			out[i] = v
		}
	}
	return out, nil
}
