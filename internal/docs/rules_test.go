package docs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// rulesDoc is the rule book, relative to the repository root.
const rulesDoc = "docs/robots-rules.md"

// ruleHeading is a section of the rule book for one rule: "### Rule 23: ...".
var ruleHeading = regexp.MustCompile(`(?m)^#{1,6}[ \t]+Rule[ \t]+0*([0-9]+)\b`)

// ruleTest is a test named after a rule, or a range of rules: TestRule06_..., TestRule24to26_...
var ruleTest = regexp.MustCompile(`(?m)^func[ \t]+(TestRule0*([0-9]+)(?:to0*([0-9]+))?[A-Za-z0-9_]*)[ \t]*\(`)

// ruleCitation is a comment citing the rule book by file name, old or new: "robots-semantics.md
// rule 6", "robots-rules.md rules 4-7", "robots-semantics.md rules 24 and 25". A comment that
// continues on the next line is joined first (see joinComments).
var ruleCitation = regexp.MustCompile(`robots-(?:semantics|rules)\.md,?[ \t]+[Rr]ules?[ \t]+` +
	`([0-9]+(?:[ \t]*[-–][ \t]*[0-9]+)?(?:(?:[ \t]*,[ \t]*and[ \t]+|[ \t]*,[ \t]*|[ \t]+and[ \t]+)[0-9]+(?:[ \t]*[-–][ \t]*[0-9]+)?)*)`)

// ruleRange is one number or range inside a citation's list.
var ruleRange = regexp.MustCompile(`([0-9]+)(?:[ \t]*[-–][ \t]*([0-9]+))?`)

// commentBreak is a line break inside a // comment.
var commentBreak = regexp.MustCompile(`\n[ \t]*//[ \t]*`)

// maxRule bounds a range so that a typo such as "rules 4-700" cannot make the test loop long;
// a number past it is reported as missing like any other.
const maxRule = 1000

// repoRoot is the directory holding the root module's go.mod, found from the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module github.com/fractle/mandelbot\n") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("the repository root (go.mod of github.com/fractle/mandelbot) was not found above the test")
		}
		dir = parent
	}
}

// documentedRules returns the rule numbers docs/robots-rules.md has a heading for, and reports
// a rule with two headings.
func documentedRules(t *testing.T, doc string) map[int]bool {
	t.Helper()
	rules := map[int]bool{}
	for _, m := range ruleHeading.FindAllStringSubmatch(doc, -1) {
		n, _ := strconv.Atoi(m[1])
		if rules[n] {
			t.Errorf("%s: two headings for rule %d", rulesDoc, n)
		}
		rules[n] = true
	}
	return rules
}

// goFiles calls visit with the path (relative to root) and contents of every .go file in the
// repository, bench/ included, skipping hidden directories and testdata.
func goFiles(t *testing.T, root string, visit func(rel, src string)) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(d.Name(), ".go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		visit(filepath.ToSlash(rel), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// span returns the rule numbers from lo to hi (hi 0: lo alone), at most up to maxRule.
func span(lo, hi int) []int {
	if hi < lo {
		hi = lo
	}
	var out []int
	for n := lo; n <= min(hi, maxRule); n++ {
		out = append(out, n)
	}
	return out
}

// missing reports, in rule order, the uses of rules the doc lacks.
func missing(t *testing.T, documented map[int]bool, used map[int][]string, what string) {
	t.Helper()
	var nums []int
	for n := range used {
		if !documented[n] {
			nums = append(nums, n)
		}
	}
	sort.Ints(nums)
	for _, n := range nums {
		t.Errorf("%s has no heading \"Rule %d\", but %s it: %s", rulesDoc, n, what, strings.Join(used[n], ", "))
	}
}

// Issue 30: a maintainer must be able to look up every rule a test is named after. Every
// TestRuleNN (and TestRuleNNtoMM) in any _test.go of the repository needs a "Rule NN" heading in
// docs/robots-rules.md.
func TestRulesDocHasEveryTestedRule(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, rulesDoc))
	if err != nil {
		t.Fatalf("the rule book is missing: %v", err)
	}
	documented := documentedRules(t, string(doc))
	used := map[int][]string{}
	tests := 0
	goFiles(t, root, func(rel, src string) {
		if !strings.HasSuffix(rel, "_test.go") {
			return
		}
		for _, m := range ruleTest.FindAllStringSubmatch(src, -1) {
			lo, _ := strconv.Atoi(m[2])
			hi, _ := strconv.Atoi(m[3]) // 0 when there is no range
			for _, n := range span(lo, hi) {
				used[n] = append(used[n], fmt.Sprintf("%s (%s)", m[1], rel))
			}
			tests++
		}
	})
	// The repository has about a hundred such tests; finding few means the scan is broken.
	if tests < 50 {
		t.Fatalf("found only %d TestRuleNN tests under %s: the scan is broken", tests, root)
	}
	t.Logf("%d TestRuleNN tests name %d rules; %s has %d rule headings", tests, len(used), rulesDoc, len(documented))
	missing(t, documented, used, "these tests are named after")
}

// Issue 30: a comment that cites the rule book by rule number ("robots-semantics.md rule 23",
// "robots-rules.md rules 4-7") must find that rule in docs/robots-rules.md too.
func TestRulesDocHasEveryCitedRule(t *testing.T) {
	root := repoRoot(t)
	doc, err := os.ReadFile(filepath.Join(root, rulesDoc))
	if err != nil {
		t.Fatalf("the rule book is missing: %v", err)
	}
	documented := documentedRules(t, string(doc))
	used := map[int][]string{}
	citations := 0
	goFiles(t, root, func(rel, src string) {
		if strings.HasPrefix(rel, "internal/docs/") {
			return // this package's examples of citations are not citations
		}
		src = commentBreak.ReplaceAllString(src, " ")
		for _, m := range ruleCitation.FindAllStringSubmatch(src, -1) {
			for _, r := range ruleRange.FindAllStringSubmatch(m[1], -1) {
				lo, _ := strconv.Atoi(r[1])
				hi, _ := strconv.Atoi(r[2])
				for _, n := range span(lo, hi) {
					if len(used[n]) < 3 { // a few examples are enough to find the rest
						used[n] = append(used[n], rel)
					}
				}
			}
			citations++
		}
	})
	if citations < 50 {
		t.Fatalf("found only %d rule citations under %s: the scan is broken", citations, root)
	}
	t.Logf("%d citations name %d rules", citations, len(used))
	missing(t, documented, used, "comments cite")
}

// The scanners read what the repository writes: test names with and without "_", ranges, and
// citations in their several forms, across a comment's line break.
func TestRulesDocScanners(t *testing.T) {
	src := "func TestRule06_AgentToken(t *testing.T) {\nfunc TestRule24to26_EndToEnd(t *testing.T) {\n" +
		"func TestRule25HeaderAgentScope(t *testing.T) {\nfunc TestRules(t *testing.T) {\n"
	var got []string
	for _, m := range ruleTest.FindAllStringSubmatch(src, -1) {
		got = append(got, m[2]+"-"+m[3])
	}
	if want := "6- 24-26 25-"; strings.Join(got, " ") != want {
		t.Errorf("test names read as %q, want %q", got, want)
	}
	comments := "// robots-semantics.md rule 6 (revised)\n// see robots-rules.md rules 4-7 and 12–18, and\n" +
		"// robots-semantics.md\n// rules 1, 10 and 11.\n// robots-semantics.md section C (rule 21)\n"
	var nums []int
	for _, m := range ruleCitation.FindAllStringSubmatch(commentBreak.ReplaceAllString(comments, " "), -1) {
		for _, r := range ruleRange.FindAllStringSubmatch(m[1], -1) {
			lo, _ := strconv.Atoi(r[1])
			hi, _ := strconv.Atoi(r[2])
			nums = append(nums, span(lo, hi)...)
		}
	}
	if got, want := fmt.Sprint(nums), "[6 4 5 6 7 12 13 14 15 16 17 18 1 10 11]"; got != want {
		t.Errorf("citations read as %s, want %s", got, want)
	}
	if got := documentedRules(t, "# Rules\n### Rule 1: x\n## Rule 07 y\nRule 9 in text\n#### Rule 23\n"); fmt.Sprint(got) != "map[1:true 7:true 23:true]" {
		t.Errorf("headings read as %v", got)
	}
}
