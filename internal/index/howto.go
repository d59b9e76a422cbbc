package index

import (
	"slices"
	"strings"
)

// A query that reads as a task, "<verb>ing <things>" ("setting up ssl", "compiling on
// windows"), asks how to do it (issue 32, "tutorials and how-tos lose"): the page that says so
// is the how-to, whose title and URL name the things and call the page a how-to, tutorial or
// guide ("SSL/TLS Strong Encryption: How-To" at ssl/ssl_howto.html), and seldom repeat the verb.
// So for the title-and-URL rule (TitleURLBoost) such a page's title holds the task's verb, and
// the particle after it ("up"), when it names the page a how-to (howToWords) and holds the other
// words itself.
var (
	// howToWords are the words of a title or URL path that call a page a how-to ("How-To",
	// "How to", written as two words, counts too).
	howToWords = []string{"howto", "tutorial", "tutorials", "guide", "guides"}
	// taskParticles may follow the verb of a task ("setting up", "backing out").
	taskParticles = []string{"up", "out", "down", "off", "on", "in"}
)

// MinTaskVerbStem is the shortest stem before "ing" of a query's first word that makes the
// query read as a task: "setting" (sett-ing) and "compiling" do, "string" (str-ing) does not.
const MinTaskVerbStem = 4

// taskWords returns the mask of the words of terms that say the query is a task, the verb and
// its particle (see above), or 0 when it reads as none: its first word ends in "ing" after
// MinTaskVerbStem bytes or more and at least one word follows the verb and its particle.
func taskWords(terms []string) uint64 {
	if len(terms) < 2 || len(terms) > 64 {
		return 0
	}
	v := terms[0]
	if !strings.HasSuffix(v, "ing") || len(v)-len("ing") < MinTaskVerbStem {
		return 0
	}
	mask := uint64(1)
	if slices.Contains(taskParticles, terms[1]) {
		if len(terms) < 3 {
			return 0
		}
		mask |= 2
	}
	return mask
}

// namesHowTo reports whether s (a title or a URL path) calls its page a how-to: it holds one of
// howToWords, or "how" and "to" as two words in a row.
func namesHowTo(s string) bool {
	w := words(s)
	for i, x := range w {
		if slices.Contains(howToWords, x) || x == "how" && i+1 < len(w) && w[i+1] == "to" {
			return true
		}
	}
	return false
}

// howToHolds returns task (taskWords' mask) when r's title or URL path calls it a how-to, else
// 0: the words of the task that its title holds for the title-and-URL rule.
func howToHolds(r *Result, task uint64) uint64 {
	if task != 0 && (namesHowTo(r.Title) || namesHowTo(urlPath(r.URL))) {
		return task
	}
	return 0
}
