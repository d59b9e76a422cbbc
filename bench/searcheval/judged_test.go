package main

import (
	"os"
	"strings"
	"testing"
)

func TestParseQuerySet(t *testing.T) {
	in := "# site: x 1.0\n\nvacuum\tword\tsql-vacuum.html routine-vacuuming.html\nto_char\tfunction\tfunctions-formatting.html\n"
	qs, err := ParseQuerySet(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(qs.Header) != 1 || qs.Header[0] != "site: x 1.0" || len(qs.Queries) != 2 {
		t.Fatalf("%+v", qs)
	}
	if q := qs.Queries[0]; q.Query != "vacuum" || q.Line != 3 || len(q.Relevant) != 2 || q.Relevant[0] != "sql-vacuum.html" {
		t.Errorf("%+v", q)
	}
}

func TestParseQuerySetRejects(t *testing.T) {
	for name, in := range map[string]string{
		"two fields":     "vacuum\tword\n",
		"unknown class":  "vacuum\tverb\ta.html\n",
		"no page":        "vacuum\tword\t \n",
		"absolute path":  "vacuum\tword\t/a.html\n",
		"parent path":    "vacuum\tword\t../a.html\n",
		"fragment":       "vacuum\tword\ta.html#x\n",
		"duplicate":      "vacuum\tword\ta.html\nVACUUM\tword\tb.html\n",
		"empty query":    " \tword\ta.html\n",
		"nothing at all": "# only a header\n",
	} {
		if _, err := ParseQuerySet(strings.NewReader(in)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The committed set parses, has the 40 queries issue 11 asks for at least, and names the
// site's package version in its header.
func TestCommittedQuerySet(t *testing.T) {
	f, err := os.Open("queries.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, err := ParseQuerySet(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs.Queries) < 40 {
		t.Errorf("%d queries, issue 11 asks for at least 40", len(qs.Queries))
	}
	if !strings.Contains(strings.Join(qs.Header, "\n"), "postgresql-doc-15") {
		t.Errorf("the header does not name the package")
	}
}
