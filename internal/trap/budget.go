package trap

import "fmt"

// DefaultPageBudget is the default per-origin page budget (--max-pages-per-origin, issue 29):
// generous, so that deep legitimate sites are crawled in full (two and a half times the
// 100,000-page site the issue names; at the default one-second delay, three days of one
// origin), but finite, so that a trap no heuristic recognises still ends. The budget counts the
// pages of an origin requested in every run of a crawl, not only the current one.
const DefaultPageBudget = 250_000

// PageBudget counts the pages requested from each origin against a limit
// (--max-pages-per-origin), so that a trap the heuristics miss (a calendar
// with plausible URLs) still ends. Create it with NewPageBudget. It is not
// safe for concurrent use: one owner (the crawl's scheduler) takes from it.
type PageBudget struct {
	limit int
	taken map[string]int
}

// NewPageBudget returns a budget of limit pages per origin; limit <= 0 means
// no limit (Take always succeeds, and still counts).
func NewPageBudget(limit int) *PageBudget {
	return &PageBudget{limit: limit, taken: make(map[string]int)}
}

// Limit is the per-origin limit; 0 when there is none.
func (b *PageBudget) Limit() int { return max(b.limit, 0) }

// Take counts one page of origin and reports true, or reports false without
// counting when the origin has spent its budget.
func (b *PageBudget) Take(origin string) bool {
	if b.Spent(origin) {
		return false
	}
	b.taken[origin]++
	return true
}

// Give returns one page to origin's budget: a request that was taken but
// not made (cancelled, say).
func (b *PageBudget) Give(origin string) {
	if b.taken[origin] > 0 {
		b.taken[origin]--
	}
}

// Restore sets origin's count, when a crawl resumes with pages already
// requested.
func (b *PageBudget) Restore(origin string, n int) { b.taken[origin] = max(n, 0) }

// Taken is how many pages origin has had.
func (b *PageBudget) Taken(origin string) int { return b.taken[origin] }

// Spent reports whether origin has had all its pages.
func (b *PageBudget) Spent(origin string) bool {
	return b.limit > 0 && b.taken[origin] >= b.limit
}

// Verdict is the verdict for a URL of origin: rejected with the
// PageBudgetSpent reason when the budget is spent, passing otherwise.
func (b *PageBudget) Verdict(origin string) Verdict {
	if !b.Spent(origin) {
		return Verdict{}
	}
	return Verdict{PageBudgetSpent, fmt.Sprintf("trap %s: %s has had its %d pages (--max-pages-per-origin)", PageBudgetSpent, origin, b.limit)}
}
