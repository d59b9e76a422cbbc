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
