package postgres

import (
	"testing"

	"github.com/fractle/mandelbot/internal/index"
)

// Issue 11 item 4: the query language as a tsquery. Every word is a quoted lexeme, so input can
// never reach tsquery syntax: quotes, backslashes, &, |, !, :, <-> and parentheses in what a
// person types are word separators by the time they get here.
func TestTSQueryRendering(t *testing.T) {
	for in, want := range map[string]string{
		"vacuum":                 `'vacuum'`,
		"Create INDEX":           `'create' & 'index'`,
		`"hot standby"`:          `('hot' <-> 'standby')`,
		"asyn*":                  `'asyn':*`,
		"pg_stat*":               `('pg' <-> 'stat':*)`,
		"a OR b c":               `('a' | 'b') & 'c'`,
		`json -jsonb -"hot sb"`:  `'json' & !('jsonb') & !(('hot' <-> 'sb'))`,
		"pg_stat_activity":       `('pg' <-> 'stat' <-> 'activity')`,
		"wal site:example.org":   `'wal'`,
		`a'b & c|d !e <-> (f):*`: `('a' <-> 'b') & ('c' <-> 'd') & 'e' & 'f'`, // "*" inside: plain words
		`Café`:                   `'cafe'`,
	} {
		got, err := tsQuery(index.Parse(in))
		if err != nil || got != want {
			t.Errorf("tsQuery(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := tsQuery(index.Parse("  ")); err == nil {
		t.Error("an empty query rendered")
	}
}

// The title probe of issue 32's page named for all of the query but one word (index/named.go):
// every set's words are title lexemes (weight A) ANDed, the sets ORed, each word quoted; an
// empty set is left out.
func TestTitleQueryRendering(t *testing.T) {
	for _, c := range []struct {
		sets [][]string
		want string
	}{
		{[][]string{{"custom", "error"}, {"error", "pages"}}, `('custom':A & 'error':A) | ('error':A & 'pages':A)`},
		{[][]string{{"café", `a'b`}, nil}, `('cafe':A & 'a':A & 'b':A)`},
		{nil, ``},
	} {
		if got := titleQuery(c.sets); got != c.want {
			t.Errorf("titleQuery(%q) = %q, want %q", c.sets, got, c.want)
		}
	}
}
