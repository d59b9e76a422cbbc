package robotstxt

import (
	"strings"
	"testing"
	"time"
)

// robots-semantics.md rule 19: Test allocates nothing, for plain paths and
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

// robots-semantics.md rule 19: matching is linear in target x pattern at
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
