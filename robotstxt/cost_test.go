package robotstxt

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// docs/robots-rules.md rule 19: Test allocates nothing, for plain paths and
// for paths that need normalising (non-ASCII, lower-case or unreserved
// escapes, spaces, a missing leading "/"), with small and bucketed groups.
func TestRule19_TestDoesNotAllocate(t *testing.T) {
	small := Parse(robotsOf("User-agent: *", "Disallow: /private", "Allow: /*.css$", "Disallow: /*?session=")).For(ourAgent)
	var lines []string
	lines = append(lines, "User-agent: Mandelbot")
	for i := range 300 {
		c := string(rune('a' + i%26))
		lines = append(lines, "Disallow: /"+c+"/"+strings.Repeat(c, i%5), "Allow: /"+c+"*.html$", "Disallow: *"+c+"=1")
	}
	big := Parse(robotsOf(lines...)).For(ourAgent)
	long := "/" + strings.Repeat("\u00e9", 3000) // 6,000 octets, 18,000 normalised: the heap case is above this
	targets := []string{
		"/", "/private/x", "/a/aa", "/b/page.html", "/q?session=1&x=2", "/robots.txt",
		"/caf\u00e9/\u65e5\u672c", "/a%2fb%7Ec", "/%41%42%43", "/with space", "", "?x=1",
		"/a%2Ab*", "/" + strings.Repeat("x", 4000), "/" + strings.Repeat("%7e", 1000), long[:2000],
	}
	for _, g := range []*Group{small, big} {
		for _, tg := range targets {
			g.Test(tg) // compile first
		}
		allocs := testing.AllocsPerRun(50, func() {
			for _, tg := range targets {
				g.Test(tg)
			}
		})
		if allocs != 0 {
			t.Errorf("%d rules: %.1f allocations per run, want 0", len(g.Rules()), allocs)
		}
	}
	if a := testing.AllocsPerRun(50, func() { small.Test(long) }); a > 1 {
		t.Errorf("a %d-octet normalised target: %.1f allocations, want at most 1", 3*len(long), a)
	}
	r := Parse(robotsOf(lines...))
	if a := testing.AllocsPerRun(50, func() { r.For("Mandelbot/1.0 (+https://fractle.example)") }); a != 0 {
		t.Errorf("For: %.1f allocations, want 0", a)
	}
}

// docs/robots-rules.md rule 19: matching is linear in target x pattern at
// worst, with no backtracking blow-up: 200 rules "/*a*a*...*a*b" against a
// 16 KiB target of "a"s (which none of them matches) take well under a
// millisecond on average. The bound is generous so a loaded CI machine
// passes; an exponential matcher would not finish at all.
func TestRule19_MatchingIsLinear(t *testing.T) {
	pattern := "/" + strings.Repeat("*a", 30) + "*b"
	lines := []string{"User-agent: *"}
	for i := range 200 {
		lines = append(lines, "Disallow: "+pattern+strings.Repeat("a", i%3))
	}
	g := Parse(robotsOf(lines...)).For(ourAgent)
	target := "/" + strings.Repeat("a", 16<<10)
	if v := g.Test(target); !v.Allowed {
		t.Fatalf("Test = %+v, want allowed (no b)", v)
	}
	const runs = 300
	start := time.Now()
	for range runs {
		g.Test(target)
	}
	avg := time.Since(start) / runs
	t.Logf("average Test: %v", avg)
	if avg > 5*time.Millisecond {
		t.Errorf("average Test took %v, want well under 1 ms (bound 5 ms)", avg)
	}
	// The same with a target that needs normalising (the stack-buffer path).
	target = "/%61" + strings.Repeat("a", 8<<10)
	start = time.Now()
	for range runs {
		g.Test(target)
	}
	if avg := time.Since(start) / runs; avg > 5*time.Millisecond {
		t.Errorf("normalised target: average Test took %v, bound 5 ms", avg)
	}
}

// docs/robots-rules.md rules 10 and 11: parsing never fails, and never
// takes more than linear time either, whatever the shape of the input.
// Each body is parsed at 32 KB and at 512 KB: sixteen times the input
// takes 16 to 40 times as long (sorting, caches and the garbage collector
// add to linear), a quadratic cost would take 256 times. The bound, 100
// times, best of three runs each, leaves room for a loaded machine.
func TestRule11_ParsingIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing test")
	}
	shapes := map[string]func(i int) string{
		"distinct agents, one group": func(i int) string { return "User-agent: bot" + strconv.Itoa(i) + "\n" },
		"one agent, many groups":     func(i int) string { return "User-agent: bot\nDisallow: /" + strconv.Itoa(i) + "\n" },
		"agents named twice":         func(i int) string { return "User-agent: b" + strconv.Itoa(i/2) + "\nAllow: /x\n" },
		"distinct sitemaps":          func(i int) string { return "Sitemap: https://e.com/" + strconv.Itoa(i) + "\n" },
		"wildcard rules":             func(i int) string { return "Disallow: /*a*" + strconv.Itoa(i) + "*$\n" },
		"comments, CR only":          func(i int) string { return "# " + strconv.Itoa(i) + ": #:\r" },
		"no colon":                   func(i int) string { return "junk " + strconv.Itoa(i) + "\n" },
	}
	build := func(line func(int) string, size int) []byte {
		const tail = "\nDisallow: /x\n" // so that the last User-agent lines form a group
		var b strings.Builder
		b.WriteString("User-agent: *\n")
		for i := 0; b.Len() < size; i++ {
			b.WriteString(line(i))
		}
		return []byte(b.String()[:size-len(tail)] + tail)
	}
	best := func(body []byte) time.Duration {
		d := time.Duration(1 << 62)
		for range 5 { // the best of five, in the thread's CPU time: a shared machine preempts single runs
			d = min(d, onThreadCPU(t, func() {
				r := Parse(body)
				r.For("bot7").Test("/a/b")
			}))
		}
		return d
	}
	for name, line := range shapes {
		small, large := best(build(line, 32000)), best(build(line, 512000))
		t.Logf("%-28s 32 KB %8v, 512 KB %8v", name, small, large)
		if large > 100*small+5*time.Millisecond {
			t.Errorf("%s: 16x the input took %.0fx the time", name, float64(large)/float64(small))
		}
	}
}
