package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fractle/mandelbot/crawl"
)

// defaultOf is each crawl Default constant the README's settings table names, as the command's
// --help prints a flag's default.
var defaultOf = map[string]string{
	"DefaultScope": crawl.DefaultScope, "DefaultAgent": crawl.DefaultAgent,
	"DefaultMaxDepth": limitText(crawl.DefaultMaxDepth), "DefaultMaxPages": limitText(crawl.DefaultMaxPages),
	"DefaultMaxPagesPerOrigin": limitText(crawl.DefaultMaxPagesPerOrigin),
	"DefaultDelay":             crawl.DefaultDelay.String(), "DefaultGiveUpAfter": durationText(crawl.DefaultGiveUpAfter),
	"DefaultMaxWait": crawl.DefaultMaxWait.String(), "DefaultRevisit": crawl.DefaultRevisit.String(),
	"DefaultPerOrigin": fmt.Sprint(crawl.DefaultPerOrigin), "DefaultConcurrency": fmt.Sprint(crawl.DefaultConcurrency),
	"DefaultRobotsTTL": crawl.DefaultRobotsTTL.String(), "DefaultAs404After": crawl.DefaultAs404After.String(),
	"DefaultMaxPause": crawl.DefaultMaxPause.String(), "DefaultLeaseTTL": crawl.DefaultLeaseTTL.String(),
	"DefaultMemory":      sizeValue{n: ptr(int64(crawl.DefaultMemory))}.String(),
	"DefaultWARCMaxSize": fmt.Sprint(crawl.DefaultWARCMaxSize), "DefaultCalendarYears": fmt.Sprint(crawl.DefaultCalendarYears),
}

func ptr[T any](v T) *T { return &v }

func limitText(n int) string { return limitValue{n: &n}.String() }

func durationText(d time.Duration) string { return d.String() }

// configDocs returns the doc comment of every crawl.Config field, by name (a field with none
// shares the comment of the fields above it).
func configDocs(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../crawl/config.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Config" {
			return true
		}
		last := ""
		for _, fl := range ts.Type.(*ast.StructType).Fields.List {
			if fl.Doc != nil {
				last = fl.Doc.Text()
			}
			for _, name := range fl.Names {
				docs[name.Name] = last // a comment above a run of fields is all of theirs
			}
		}
		return false
	})
	return docs
}

// issue 27 ("the settings table of the README and the crawl package docs say the same thing for
// every setting"): each row's flag exists with the default the row gives; its crawl.Config field
// exists, and the field's doc comment names the constant the row says a zero field means, whose
// value is that same default; "saved" rows are the settings a crawl remembers.
func TestSettingsTableAgreesWithCLIAndCrawlDocs(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	flags := newCrawlCommand().Flags()
	docs := configDocs(t)
	cfg := reflect.TypeOf(crawl.Config{})
	rows := 0
	saved := map[string]bool{}
	for _, line := range strings.Split(string(readme), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "| `--") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 6 {
			continue // another table's row
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		flag, field, def, zero := strings.Trim(cells[0], "`-"), strings.Trim(cells[1], "`"), strings.Trim(cells[2], "`"), strings.Trim(cells[3], "`")
		rows++
		fl := flags.Lookup(flag)
		if fl == nil {
			t.Errorf("README row %q: no flag --%s", line, flag)
			continue
		}
		want := def
		if def == "—" {
			want = fl.DefValue
			if want != "[]" && want != "" {
				t.Errorf("--%s: README says no default, --help says %q", flag, fl.DefValue)
			}
		}
		if fl.DefValue != want {
			t.Errorf("--%s: README default %q, the flag's %q", flag, def, fl.DefValue)
		}
		if _, ok := cfg.FieldByName(field); !ok {
			t.Errorf("--%s: crawl.Config has no field %s", flag, field)
			continue
		}
		if strings.HasPrefix(zero, "Default") {
			if v, ok := defaultOf[zero]; !ok || v != def {
				t.Errorf("--%s: README default %q, crawl.%s is %q", flag, def, zero, v)
			}
		}
		if !strings.Contains(docs[field], zero) {
			t.Errorf("crawl.Config.%s's doc does not say a zero value means %q:\n%s", field, zero, docs[field])
		}
		if cells[5] == "saved" {
			saved[field] = true
		}
	}
	if rows < 20 {
		t.Fatalf("found %d rows of the settings table in the README", rows)
	}
	for _, f := range []string{"Scope", "Include", "Exclude", "AllowPrivate", "Resolve", "Agent", "MaxDepth", "MaxPages", "MaxPagesPerOrigin"} {
		if !saved[f] {
			t.Errorf("the README does not mark %s as saved with the crawl", f)
		}
	}
}
