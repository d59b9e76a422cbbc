package index

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// Every operator of the query language (issue 11, "A small, documented query language"), read
// as written: the canonical form shows the parse, and no note is given.
func TestParseOperators(t *testing.T) {
	for in, want := range map[string]string{
		"vacuum":                            "vacuum",
		"Create  INDEX":                     "create index",
		`"Full Text  Search"`:               `"full text search"`,
		"json -jsonb":                       "json -jsonb",
		`replication -"hot standby"`:        `replication -"hot standby"`,
		`-"hot standby" replication`:        `replication -"hot standby"`,
		"asyn*":                             "asyn*",
		"-asyn* await":                      "await -asyn*",
		"vacuum OR analyze":                 "vacuum OR analyze",
		`vacuum OR "routine vacuuming"`:     `vacuum OR "routine vacuuming"`,
		"a OR b OR cd*":                     "a OR b OR cd*",
		"wal site:PostgreSQL.org.":          "wal site:postgresql.org",
		"wal site:a.example site:b.example": "wal site:a.example site:b.example",
		"SITE:example.com wal":              "wal site:example.com",
		"or and not":                        "or and not", // lower-case or is a word
		"vacuum vacuum VACUUM":              "vacuum",
		"(vacuum)":                          "vacuum",
		"pg_stat_activity":                  "pg_stat_activity",
		"pg_hba.conf,":                      "pg_hba.conf",
		"--flag":                            "--flag",
		"tab\tand\nnewline":                 "tab and newline",
		";-) vacuum":                        "vacuum",
	} {
		p := Parse(in)
		if got := p.String(); got != want || p.Plain || len(p.Notes) != 0 {
			t.Errorf("Parse(%q) = %q plain=%v notes=%q; want %q and no note", in, got, p.Plain, p.Notes, want)
		}
	}
}

// OR binds tighter than the implicit AND: "a b OR c d" is a AND (b OR c) AND d.
func TestParseORPrecedence(t *testing.T) {
	p := Parse("a b OR c d")
	if len(p.Must) != 3 || p.Must[1].Kind != KindOr || len(p.Must[1].Kids) != 2 ||
		p.Must[1].Kids[0].Text != "b" || p.Must[1].Kids[1].Text != "c" || p.Must[2].Text != "d" {
		t.Fatalf("%+v", p)
	}
}

// An identifier is one term: its text as typed (lower-cased, outer punctuation trimmed) and its
// words, which a backend that splits it searches as a phrase.
func TestParseIdentifierTerm(t *testing.T) {
	for in, want := range map[string]Node{
		"pg_stat_activity":  {Kind: KindTerm, Text: "pg_stat_activity", Words: []string{"pg", "stat", "activity"}},
		"PyObject_GetAttr(": {Kind: KindTerm, Text: "pyobject_getattr", Words: []string{"pyobject", "getattr"}},
		"--dry-run":         {Kind: KindTerm, Text: "--dry-run", Words: []string{"dry", "run"}},
		"pg_stat*":          {Kind: KindPrefix, Text: "pg_stat", Words: []string{"pg", "stat"}},
	} {
		p := Parse(in)
		if len(p.Must) != 1 || !nodeEqual(p.Must[0], want) {
			t.Errorf("Parse(%q).Must = %+v, want [%+v]", in, p.Must, want)
		}
	}
}

// Malformed input is never an error: the query is read as plain words (every word required,
// operators taken as words or separators) and a note says so (issue 11: "bad syntax is never an
// error page: it falls back to plain words and says so").
func TestParseMalformedFallsBackToPlainWords(t *testing.T) {
	for in, want := range map[string]struct{ plain, note string }{
		`"unbalanced quote`:      {"unbalanced quote", "quote"},
		`vacuum "full`:           {"vacuum full", "quote"},
		"vacuum - full":          {"vacuum full", "-"},
		"vacuum -":               {"vacuum", "-"},
		"OR vacuum":              {"or vacuum", "OR"},
		"vacuum OR":              {"vacuum or", "OR"},
		"a OR OR b":              {"a or b", "OR"},
		"a OR -b":                {"a or b", "OR"},
		"vacuum *":               {"vacuum", "*"},
		"*":                      {"", "*"},
		"x* vacuum":              {"x vacuum", "prefix"},
		"as*ync":                 {"as ync", "*"},
		"vacuum site:":           {"vacuum site", "site:"},
		"vacuum site:a/b":        {"vacuum site a b", "site:"},
		"vacuum -site:a.com":     {"vacuum site a com", "site:"},
		"-vacuum":                {"vacuum", "exclude"},
		"site:example.com":       {"site example com", "word"},
		"vacuum\x07full":         {"vacuum full", "control"},
		"vacuum\x00":             {"vacuum", "control"},
		"caf\xff":                {"caf", "UTF-8"},
		`"" vacuum`:              {"vacuum", "empty"},
		`"hot standby"replica`:   {"hot standby replica", "quote"},
		`"hot standby"* replica`: {"hot standby replica", "quote"},
	} {
		p := Parse(in)
		got := strings.Join(p.Terms(), " ")
		if !p.Plain || got != want.plain || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], want.note) {
			t.Errorf("Parse(%q): plain=%v terms=%q notes=%q; want plain %q and a note about %q", in, p.Plain, got, p.Notes, want.plain, want.note)
		}
		for _, n := range p.Must {
			if n.Kind != KindTerm {
				t.Errorf("Parse(%q): fallback has a %v node", in, n.Kind)
			}
		}
		if len(p.Not) != 0 || len(p.Sites) != 0 {
			t.Errorf("Parse(%q): fallback kept operators: %+v", in, p)
		}
	}
}

// The plain-word fallback keeps an identifier whole, as the normal parse does.
func TestParseFallbackKeepsIdentifiers(t *testing.T) {
	p := Parse(`pg_stat_activity "`)
	if !p.Plain || len(p.Must) != 1 || p.Must[0].Text != "pg_stat_activity" {
		t.Fatalf("%+v", p)
	}
}

// Input longer than MaxQueryBytes is cut at a character boundary and read as plain words.
func TestParseLongInput(t *testing.T) {
	in := strings.Repeat("é", MaxQueryBytes) // 2 bytes each
	if p := Parse("\xff" + in); len(p.Must) != 1 || len(p.Must[0].Text) < MaxQueryBytes-2 {
		t.Errorf("an invalid byte early in a long query: %+v", p.Must)
	}
	p := Parse(in)
	if !p.Plain || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "512") {
		t.Fatalf("plain=%v notes=%q", p.Plain, p.Notes)
	}
	if len(p.Must) != 1 || len(p.Must[0].Text) > MaxQueryBytes || !utf8.ValidString(p.Must[0].Text) {
		t.Fatalf("must %d nodes, text of %d bytes", len(p.Must), len(p.Must[0].Text))
	}
}

// At most MaxQueryTerms words are searched; the rest are dropped with a note, the operators of
// the kept part still apply.
func TestParseTooManyWords(t *testing.T) {
	var words []string
	for i := range 20 {
		words = append(words, "w"+strings.Repeat("x", i+1))
	}
	p := Parse(`-"a b" ` + strings.Join(words, " "))
	n := 0
	for _, x := range append(append([]Node{}, p.Must...), p.Not...) {
		n += len(x.Words)
	}
	if p.Plain || n != MaxQueryTerms || len(p.Not) != 1 || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "16") {
		t.Fatalf("%d words, plain=%v notes=%q", n, p.Plain, p.Notes)
	}
}

// No words at all: nothing to search, and not a syntax error.
func TestParseEmpty(t *testing.T) {
	for _, in := range []string{"", "   ", ";-)", "&&"} {
		if p := Parse(in); !p.Empty() || p.Plain || len(p.Notes) != 0 {
			t.Errorf("Parse(%q) = %+v, want empty, no note", in, p)
		}
	}
	if p := Parse(`""`); !p.Empty() || !p.Plain {
		t.Errorf(`Parse("\"\"") = %+v, want empty plain`, p)
	}
	if p := Parse("vacuum"); p.Empty() {
		t.Error("vacuum is empty")
	}
}

// Terms are the words a result is highlighted for: required and alternative words, not the
// excluded ones.
func TestParsedTerms(t *testing.T) {
	got := Parse(`vacuum OR analyze "full scan" -jsonb pg_stat* site:a.example`).Terms()
	if want := []string{"vacuum", "analyze", "full", "scan", "pg", "stat"}; !slices.Equal(got, want) {
		t.Errorf("Terms = %q, want %q", got, want)
	}
}

// The canonical form reads back as the same parse.
func TestParseStringRoundTrip(t *testing.T) {
	for _, in := range []string{
		`a b OR "c d" -e -"f g" h* site:x.example`,
		"pg_stat_activity --flag a.b.c",
		`vacuum "full`,      // a fallback: its canonical form is plain words
		"site:x.example OR", // a fallback with a term that looks like an operator
	} {
		p := Parse(in)
		q := Parse(p.String())
		if q.String() != p.String() || (!p.Plain && !parsedEqual(p, q)) {
			t.Errorf("%q: %q reparses as %q (%+v vs %+v)", in, p.String(), q.String(), p, q)
		}
	}
}

// HostInSites: a site: filter covers the host and its subdomains, nothing else.
func TestHostInSites(t *testing.T) {
	p := Parse("wal site:postgresql.org")
	for host, want := range map[string]bool{
		"postgresql.org": true, "www.postgresql.org": true, "WWW.PostgreSQL.org": true, "postgresql.org.": true,
		"evilpostgresql.org": false, "postgresql.org.evil": false, "": false,
	} {
		if got := p.HostInSites(host); got != want {
			t.Errorf("HostInSites(%q) = %v", host, got)
		}
	}
	if !Parse("wal").HostInSites("anything.example") {
		t.Error("no site: filter must admit every host")
	}
}

// Query.Parse parses the query's text.
func TestQueryParse(t *testing.T) {
	if got := (Query{Text: "a OR b"}).Parse().String(); got != "a OR b" {
		t.Errorf("%q", got)
	}
}

func nodeEqual(a, b Node) bool {
	if a.Kind != b.Kind || a.Text != b.Text || !slices.Equal(a.Words, b.Words) || len(a.Kids) != len(b.Kids) {
		return false
	}
	for i := range a.Kids {
		if !nodeEqual(a.Kids[i], b.Kids[i]) {
			return false
		}
	}
	return true
}

func parsedEqual(a, b Parsed) bool {
	return slices.EqualFunc(a.Must, b.Must, nodeEqual) && slices.EqualFunc(a.Not, b.Not, nodeEqual) && slices.Equal(a.Sites, b.Sites)
}

// Parse never panics and keeps its promises on any input.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`a "b c" -d e* OR f site:g.h`, `"`, "-", "OR", "*", "site:", "\x00", "a\xffb", `-"" OR`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		p := Parse(in)
		words := 0
		for _, n := range append(append([]Node{}, p.Must...), p.Not...) {
			if n.Kind == KindOr {
				for _, k := range n.Kids {
					words += len(k.Words)
				}
			}
			words += len(n.Words)
			if n.Kind != KindOr && len(n.Words) == 0 {
				t.Fatalf("%q: a node without words: %+v", in, n)
			}
		}
		if words > MaxQueryTerms {
			t.Fatalf("%q: %d words", in, words)
		}
		if p.Plain && (len(p.Notes) == 0 || len(p.Not) != 0 || len(p.Sites) != 0) {
			t.Fatalf("%q: fallback without a note or with operators: %+v", in, p)
		}
		if len(p.Must) == 0 && (len(p.Not) != 0 || len(p.Sites) != 0) {
			t.Fatalf("%q: exclusions or sites without a required term: %+v", in, p)
		}
	})
}

// Issue 11: a question typed as plain words searches its subject (question.go), with a note;
// anything else is left as it is.
func TestParseQuestion(t *testing.T) {
	for _, c := range []struct {
		in, terms string
		note      bool
	}{
		{"what is mvcc", "mvcc", true},
		{"How do I change a user password", "change user password", true},
		{"how to create a database", "create database", true},
		{"what is pg_stat_activity", "pg stat activity", true},
		{"what is it", "what is it", false},
		{"mvcc what is", "mvcc what is", false},
		{`what is "hot standby"`, "what is hot standby", false},
		{`"what" is mvcc`, "what is mvcc", false},
		{"what is mvcc -intro", "what is mvcc", false},
		{"what is vacuum OR analyze", "what is vacuum analyze", false},
		{"what is vacuum site:a.test", "what is vacuum", false},
	} {
		p := Parse(c.in)
		if got := strings.Join(p.Terms(), " "); got != c.terms || c.note != (len(p.Notes) == 1) {
			t.Errorf("Parse(%q): terms %q, notes %q; want %q, a note: %v", c.in, got, p.Notes, c.terms, c.note)
		}
	}
}

// Issue 11, the phrase boost: the query's required words as one phrase, in the order typed.
func TestWholePhrase(t *testing.T) {
	for in, want := range map[string]string{
		"string concatenation":       "string concatenation",
		`timestamp "with time" zone`: "timestamp with time zone",
		"wal_level setting":          "wal level setting",
		"vacuum":                     "",
		`"hot standby"`:              "",
		"vacuum -full storage":       "vacuum storage",
		"asyn* commit":               "",
		"vacuum OR analyze tables":   "",
	} {
		n, ok := Parse(in).WholePhrase()
		if got := n.Text; ok != (want != "") || got != want || (ok && n.Kind != KindPhrase) {
			t.Errorf("WholePhrase(%q) = %q (%v, %v), want %q", in, got, n.Kind, ok, want)
		}
	}
}
