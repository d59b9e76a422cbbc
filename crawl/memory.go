package crawl

import (
	"github.com/fractle/mandelbot/internal/budget"
)

// MemoryShares is how Config.Memory is divided among the crawl's consumers, in bytes (issue 29).
// Each consumer keeps to its share: a request waits for body memory, the concurrency and the
// page caches are sized from theirs.
type MemoryShares struct {
	// Total is Config.Memory, or DefaultMemory.
	Total int64
	// GoLimit is the Go runtime's soft memory limit for the process (runtime/debug.SetMemoryLimit):
	// it holds Bodies, Connections and the rest of the Go heap.
	GoLimit int64
	// Bodies is the fetch client's budget for response bodies in flight.
	Bodies int64
	// Connections covers requests in flight beside their bodies and idle connections;
	// MaxInFlight is the most requests it holds at once (the cap on Config.Concurrency).
	Connections int64
	MaxInFlight int
	// Frontier bounds the origins' windows of due URLs and the sets of URLs each origin knows:
	// what does not fit waits in the store.
	Frontier int64
	// PageCaches bounds the SQLite page caches of the store's connections together.
	PageCaches int64
	// Reserve is what is left outside the Go limit and the page caches: a fixed 40 MiB for the
	// mapped binary and SQLite's allocations beyond the page caches, which do not shrink with
	// the budget, and a part of the budget for the collector's overshoot of its soft limit.
	Reserve int64
}

// MemoryShares divides c.Memory among the crawl's consumers, or says why it cannot (a *ConfigError
// naming Memory, under MinMemory or negative).
func (c Config) MemoryShares() (MemoryShares, error) {
	s, err := c.shares()
	if err != nil {
		return MemoryShares{}, err
	}
	return memorySharesOf(s), nil
}

func (c Config) shares() (budget.Shares, error) {
	if c.Memory < 0 {
		return budget.Shares{}, configErr("Memory", "must be a number of bytes (0 means DefaultMemory)")
	}
	s, err := budget.Split(c.Memory)
	if err != nil {
		return budget.Shares{}, configErr("Memory", err.Error())
	}
	return s, nil
}

func memorySharesOf(s budget.Shares) MemoryShares {
	return MemoryShares{
		Total: s.Total, GoLimit: s.Of(budget.GoHeap), Bodies: s.Of(budget.Bodies),
		Connections: s.Of(budget.Connections), MaxInFlight: s.MaxInFlight(),
		Frontier: s.Of(budget.Frontier), PageCaches: s.Of(budget.PageCaches), Reserve: s.Of(budget.Reserve),
	}
}
