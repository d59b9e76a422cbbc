package fts5

import (
	"database/sql"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite" // the real FTS5

	"github.com/fractle/mandelbot/internal/index"
)

// The rendering of each operator of the query language (issue 11).
func TestMatchRendering(t *testing.T) {
	for in, want := range map[string]string{
		"vacuum":                         `"vacuum"`,
		"Create INDEX":                   `"create" AND "index"`,
		`"hot standby"`:                  `"hot standby"`,
		"asyn*":                          `"asyn"*`,
		"pg_stat*":                       `"pg_stat"*`,
		"a OR b c":                       `("a" OR "b") AND "c"`,
		`a OR "b c" OR de*`:              `("a" OR "b c" OR "de"*)`,
		"json -jsonb":                    `("json") NOT "jsonb"`,
		`json xml -jsonb -"hot standby"`: `("json" AND "xml") NOT "jsonb" NOT "hot standby"`,
		"pg_stat_activity":               `"pg_stat_activity"`,
		"wal site:postgresql.org":        `"wal"`, // sites are the caller's filter
		`vacuum "unbalanced`:             `"vacuum" AND "unbalanced"`,
	} {
		got, err := Match(index.Parse(in))
		if err != nil || got != want {
			t.Errorf("Match(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// Issue 8 (an entry's text and anchor text in two tables): Any renders the required nodes as
// alternatives, and Exclusions the exclusions as one alternative.
func TestAnyAndExclusionsRendering(t *testing.T) {
	for in, want := range map[string][2]string{
		"vacuum":                         {`"vacuum"`, ``},
		"Create INDEX":                   {`"create" OR "index"`, ``},
		"a OR b c":                       {`("a" OR "b") OR "c"`, ``},
		"json -jsonb":                    {`"json"`, `"jsonb"`},
		`json xml -jsonb -"hot standby"`: {`"json" OR "xml"`, `("jsonb" OR "hot standby")`},
		`"hot standby" asyn* -x`:         {`"hot standby" OR "asyn"*`, `"x"`},
	} {
		p := index.Parse(in)
		anyExpr, nodes, err := Any(p)
		if err != nil || anyExpr != want[0] || strings.Join(nodes, " OR ") != want[0] {
			t.Errorf("Any(%q) = %q, %q, %v; want %q", in, anyExpr, nodes, err, want[0])
		}
		if got, err := Exclusions(p); err != nil || got != want[1] {
			t.Errorf("Exclusions(%q) = %q, %v; want %q", in, got, err, want[1])
		}
	}
	if _, _, err := Any(index.Parse("")); !errors.Is(err, index.ErrEmptyQuery) {
		t.Errorf("Any of an empty query: %v, want ErrEmptyQuery", err)
	}
}

// A node built by hand cannot break out of its string either: quotes are doubled, control
// characters become spaces.
func TestMatchQuotesHandBuiltNodes(t *testing.T) {
	p := index.Parsed{Must: []index.Node{{Kind: index.KindTerm, Text: "a\"b) OR c\x00d", Words: []string{"a"}}}}
	got, err := Match(p)
	if want := `"a""b) OR c d"`; err != nil || got != want {
		t.Errorf("Match = %q, %v; want %q", got, err, want)
	}
	if _, err := Match(index.Parsed{Must: []index.Node{{Kind: 99, Text: "x", Words: []string{"x"}}}}); err == nil {
		t.Error("an unknown kind rendered")
	}
	if _, err := Match(index.Parse(" ;-) ")); !errors.Is(err, index.ErrEmptyQuery) {
		t.Errorf("empty query: %v", err)
	}
}

// openFTS returns an in-memory FTS5 table like the store's (title, body; unicode61 with
// diacritics removed) holding docs under rowids 1, 2, ...
func openFTS(t testing.TB, docs [][2]string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE VIRTUAL TABLE fts USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2')`); err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		if _, err := db.Exec(`INSERT INTO fts (rowid, title, body) VALUES (?, ?, ?)`, i+1, d[0], d[1]); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func search(t testing.TB, db *sql.DB, query string) ([]int, error) {
	t.Helper()
	expr, err := Match(index.Parse(query))
	if err != nil {
		return nil, err
	}
	rows, err := db.Query(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid`, expr)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

var sampleDocs = [][2]string{
	{"Routine Vacuuming", "The autovacuum daemon runs VACUUM and ANALYZE."},              // 1
	{"pg_stat_activity", "One row per server process, from pg_stat_activity."},           // 2
	{"Hot Standby", "Hot standby is the ability to query a server in recovery."},         // 3
	{"JSON Types", "json and jsonb store JSON data."},                                    // 4
	{"Asynchronous Commit", "An asynchronous commit returns before the WAL is flushed."}, // 5
	{"XML", "The xml type; see also json."},                                              // 6
	{"Standby servers", "A standby is hot when it answers queries."},                     // 7
}

// What each operator matches, on the real FTS5.
func TestMatchSemanticsOnSQLite(t *testing.T) {
	db := openFTS(t, sampleDocs)
	for q, want := range map[string][]int{
		"vacuum":                  {1},
		"VACUUM analyze":          {1},
		"standby hot":             {3, 7},
		`"hot standby"`:           {3},
		`standby -"hot standby"`:  {7},
		"asyn*":                   {5},
		"synch*":                  nil,
		"json -jsonb":             {6},
		"jsonb OR xml":            {4, 6},
		"json jsonb OR xml":       {4, 6},
		"pg_stat_activity":        {2},
		"pg_stat*":                {2},
		"stat_activity":           {2},
		"vacuum site:example.com": {1}, // the site filter is not FTS5's
		`vacuum "unbalanced`:      nil, // plain words, both required
	} {
		got, err := search(t, db, q)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v, %v; want %v", q, got, err, want)
		}
	}
}

// FTS5 syntax typed by a user is never syntax: column filters, NEAR, ^, +, braces and bare
// operators are words or separators (issue 11: "correct quoting so no user input can inject FTS5
// syntax").
func TestMatchNoInjection(t *testing.T) {
	db := openFTS(t, sampleDocs)
	for q, want := range map[string][]int{
		"body:vacuum":         nil, // as a column filter it would find doc 1
		"title:standby":       nil,
		"{title}: standby":    nil,    // as a column filter it would find 3 and 7; here "title" is a word
		"NEAR(hot standby)":   nil,    // as NEAR it would find 3 and 7; here "near(hot" is a term
		"^hot":                {3, 7}, // as ^ (first token) it would find 3 only
		"hot + standby":       {3, 7},
		"hot AND NOT standby": nil, // lower-case and upper-case AND and NOT are words here
		`"hot" "standby"`:     {3, 7},
		`hot"standby`:         {3, 7}, // malformed: plain words
		"* OR )":              nil,
		"vacuum)":             {1},
		"(vacuum":             {1},
	} {
		got, err := search(t, db, q)
		if errors.Is(err, index.ErrEmptyQuery) {
			err = nil
		}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %v, %v; want %v", q, got, err, want)
		}
	}
}

// Any input renders to an expression FTS5 accepts. Random strings over the language's and
// FTS5's syntax characters; FuzzMatch explores further.
func TestMatchAlwaysValidOnSQLite(t *testing.T) {
	db := openFTS(t, sampleDocs)
	atoms := []string{"hot", "standby", "OR", "AND", "NOT", "NEAR", "-", "*", `"`, "(", ")", ":", "^", "+", "{", "}",
		"site:", "x.org", "pg_stat", "é", "'", ";", ",", "--", "\x00", "\t", " ", " ", " ", "OR"}
	rng := rand.New(rand.NewPCG(11, 11))
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(atoms[rng.IntN(len(atoms))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		q := b.String()
		if _, err := search(t, db, q); err != nil && !errors.Is(err, index.ErrEmptyQuery) {
			t.Fatalf("%q: %v", q, err)
		}
	}
}

func FuzzMatch(f *testing.F) {
	for _, s := range []string{`a "b c" -d ef* OR g site:h.i`, `"`, `-"x"`, "NEAR(a b, 2)", "title:x", `a"b`, "\x00"} {
		f.Add(s)
	}
	db := openFTS(f, sampleDocs)
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := search(t, db, q); err != nil && !errors.Is(err, index.ErrEmptyQuery) {
			t.Fatalf("%q: %v", q, err)
		}
	})
}

// AllOfAny (the title probe of index/named.go): an entry matches when its column holds every
// word of one set; a word is an FTS5 string (a quote in it is no syntax), an empty set is left
// out; InColumns keeps the match to the title.
func TestAllOfAnyOnSQLite(t *testing.T) {
	for _, c := range []struct {
		sets [][]string
		want string
	}{
		{[][]string{{"hot", "standby"}, {"json"}}, `("hot" AND "standby") OR ("json")`},
		{[][]string{{`a"b`}, nil}, `("a""b")`},
		{nil, ``},
	} {
		if got := AllOfAny(c.sets); got != c.want {
			t.Errorf("AllOfAny(%q) = %q, want %q", c.sets, got, c.want)
		}
	}
	db := openFTS(t, sampleDocs)
	for _, c := range []struct {
		sets [][]string
		want []int
	}{
		{[][]string{{"standby", "hot"}}, []int{3}}, // 7 says "hot" in its body only
		{[][]string{{"standby", "hot"}, {"xml"}}, []int{3, 6}},
		{[][]string{{"asynchronous", "wal"}, {"vacuum", "analyze"}}, nil},
	} {
		rows, err := db.Query(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rowid`, InColumns(AllOfAny(c.sets), "title"))
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for rows.Next() {
			var id int
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			got = append(got, id)
		}
		rows.Close()
		if !slices.Equal(got, c.want) {
			t.Errorf("titles holding one of %q: %v, want %v", c.sets, got, c.want)
		}
	}
}
