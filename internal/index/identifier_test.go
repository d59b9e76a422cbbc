package index

import (
	"slices"
	"strings"
	"testing"
)

// Identifiers are findable whole and by part (issue 11, "Clean text"): the whole token first,
// then the parts between separators, then the parts of CamelCase.
func TestSplitIdentifier(t *testing.T) {
	for in, want := range map[string][]string{
		"snake_case":       {"snake_case", "snake", "case"},
		"CamelCase":        {"camelcase", "camel", "case"},
		"a.b.c":            {"a.b.c", "a", "b", "c"},
		"--flag":           {"--flag", "flag"},
		"--dry-run":        {"--dry-run", "dry", "run"},
		"PyObject_GetAttr": {"pyobject_getattr", "pyobject", "getattr", "py", "object", "get", "attr"},
		"pg_stat_activity": {"pg_stat_activity", "pg", "stat", "activity"},
		"pg_hba.conf":      {"pg_hba.conf", "pg", "hba", "conf"},
		"HTTPServer":       {"httpserver", "http", "server"},
		"XMLHttpRequest":   {"xmlhttprequest", "xml", "http", "request"},
		"utf8Decode":       {"utf8decode", "utf8", "decode"},
		"__init__":         {"__init__", "init"},
		"os.path.join()":   {"os.path.join", "os", "path", "join"},
		"getX":             {"getx", "get", "x"},
		"a_a_b":            {"a_a_b", "a", "b"},
		"vacuum":           {"vacuum"},
		"Vacuum":           {"vacuum"},
		"ALLCAPS":          {"allcaps"},
		"":                 nil,
		"--":               nil,
		"...":              nil,
	} {
		if got := SplitIdentifier(in); !slices.Equal(got, want) {
			t.Errorf("SplitIdentifier(%q) = %q, want %q", in, got, want)
		}
	}
}

// A token longer than MaxIdentifierBytes is kept whole and not split; at most
// MaxIdentifierParts parts are returned.
func TestSplitIdentifierLimits(t *testing.T) {
	long := strings.Repeat("ab_", MaxIdentifierBytes)
	if got := SplitIdentifier(long); len(got) != 1 {
		t.Errorf("a %d-byte token gave %d tokens", len(long), len(got))
	}
	var parts []string
	for i := range MaxIdentifierParts + 5 {
		parts = append(parts, string(rune('a'+i)))
	}
	got := SplitIdentifier(strings.Join(parts, "_"))
	if len(got) != 1+MaxIdentifierParts || got[1] != "a" {
		t.Errorf("%d tokens: %q", len(got), got)
	}
}

// Identifiers picks from running text the tokens worth splitting: those with a separator inside,
// a case change inside, or a leading "--"; each once, in order, as written.
func TestIdentifiers(t *testing.T) {
	text := "Call PyObject_GetAttr(obj, name), or run it with --dry-run; see pg_stat_activity and " +
		"pg_stat_activity. The end. Ordinary words, PostgreSQL, 3.14 and -x stay out: a - b."
	want := []string{"PyObject_GetAttr", "--dry-run", "pg_stat_activity", "PostgreSQL", "3.14"}
	if got := Identifiers(text); !slices.Equal(got, want) {
		t.Errorf("Identifiers = %q, want %q", got, want)
	}
	if got := Identifiers("plain words only, nothing else."); len(got) != 0 {
		t.Errorf("Identifiers of plain words = %q", got)
	}
	many := strings.Repeat("a_b ", 3) + strings.Repeat("x_", 1) + "y"
	if got := Identifiers(many); !slices.Equal(got, []string{"a_b", "x_y"}) {
		t.Errorf("%q", got)
	}
}

// At most MaxIdentifiersPerText identifiers are returned for one text.
func TestIdentifiersLimit(t *testing.T) {
	var b strings.Builder
	for i := range MaxIdentifiersPerText + 10 {
		b.WriteString("id_")
		b.WriteString(strings.Repeat("z", i%50+1))
		b.WriteString(string(rune('a' + i/50%26)))
		b.WriteString(string(rune('a' + i/1300%26)))
		b.WriteByte(' ')
	}
	if got := Identifiers(b.String()); len(got) != MaxIdentifiersPerText {
		t.Errorf("%d identifiers, want the cap %d", len(got), MaxIdentifiersPerText)
	}
}

func FuzzSplitIdentifier(f *testing.F) {
	for _, s := range []string{"PyObject_GetAttr", "--flag", "a.b.c", "ÉtéÀ_b", "\xff_a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SplitIdentifier(s)
		if len(got) > 1+MaxIdentifierParts {
			t.Fatalf("%q: %d tokens", s, len(got))
		}
		for i, tok := range got {
			if tok == "" || (i > 0 && strings.IndexFunc(tok, func(r rune) bool { return !isWordRune(r) }) >= 0) {
				t.Fatalf("%q: bad token %q in %q", s, tok, got)
			}
		}
		_ = Identifiers(s)
	})
}

// Issue 11: identifiers findable by part; the parts a tokenizer does not find itself.
func TestIdentifierParts(t *testing.T) {
	got := IdentifierParts("Call PyObject_GetAttr on it", "HTTPServer and pg_stat_activity, --dry-run", "plain words")
	if want := "py object get attr http server"; got != want {
		t.Errorf("IdentifierParts = %q, want %q", got, want)
	}
}

// identifiersReference is Identifiers as issue 11 wrote it (strings.FieldsFunc, and camelParts
// for the CamelCase test): the allocation-free version (issue 8, the indexer's CPU) must return
// exactly what it did.
func identifiersReference(text string) []string {
	var out []string
	seen := map[string]bool{}
	runs := strings.FieldsFunc(text, func(r rune) bool {
		return !isWordRune(r) && !strings.ContainsRune(identifierConnectors, r)
	})
	for _, run := range runs {
		t := trimOuter(run)
		if seen[t] {
			continue
		}
		ok := strings.IndexFunc(t, isWordRune) >= 0 &&
			(strings.HasPrefix(t, "--") || strings.IndexFunc(t, func(r rune) bool { return !isWordRune(r) }) >= 0 ||
				len(camelParts(t)) > 1)
		if !ok {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == MaxIdentifiersPerText {
			break
		}
	}
	return out
}

// identifierSamples are texts that exercise every branch of Identifiers: connectors at the edges
// and inside, CamelCase boundaries of each kind, non-ASCII letters and digits, invalid UTF-8.
var identifierSamples = []string{
	"Call PyObject_GetAttr(obj, name), or run it with --dry-run; see pg_stat_activity.",
	"HTTPServer XMLHttpRequest iOS eBay ABC A aB Ab AB ABc a1B 1A ÉtéÀ_b ÀÉté éÀ ǅungla ǅUNGLA",
	"--x -- --- -x- $var #id user@host a/b/c Foo::bar ::: ... __init__ _x x_ a..b 3.14 ٣Ab",
	"\xff_a a\xffB \xffAb Ab\xff \x00A\x00 plain words only, nothing else.",
	strings.Repeat("id_x ", 3) + "fooBar fooBar FooBar",
}

// Issue 8: the allocation-free Identifiers returns what the reference returns.
func TestIdentifiersMatchesReference(t *testing.T) {
	for _, s := range identifierSamples {
		if got, want := Identifiers(s), identifiersReference(s); !slices.Equal(got, want) {
			t.Errorf("Identifiers(%q) = %q, reference %q", s, got, want)
		}
	}
}

func FuzzIdentifiersMatchesReference(f *testing.F) {
	for _, s := range identifierSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Identifiers(s), identifiersReference(s); !slices.Equal(got, want) {
			t.Fatalf("Identifiers(%q) = %q, reference %q", s, got, want)
		}
		if got, want := hasCamelBoundary(s), len(camelParts(s)) > 1; got != want {
			t.Fatalf("hasCamelBoundary(%q) = %v, camelParts %q", s, got, camelParts(s))
		}
	})
}

// BenchmarkIdentifierParts is the indexer's per-page call on a page of prose with a few
// identifiers in it.
func BenchmarkIdentifierParts(b *testing.B) {
	body := strings.Repeat("The planner chooses a plan with the lowest estimated cost; see pg_stat_activity and EXPLAIN ANALYZE for HTTPServer details. ", 80)
	b.ReportAllocs()
	for b.Loop() {
		IdentifierParts("Chapter 14. Performance Tips", "Using EXPLAIN", body)
	}
}
