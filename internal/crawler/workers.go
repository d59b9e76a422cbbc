package crawler

import (
	"context"
	"sync"
)

// workers runs the worker goroutines: each takes tasks from tasks, performs them with do and
// hands back their reports and results on results. The scheduler starts them as the tasks in
// flight need them (need), up to Options.Concurrency, rather than all of them at the start
// (issue 26): a crawl of 100 origins at one request each has about 200 tasks in flight at most,
// and 312 more idle goroutines were only stacks for the garbage collector to scan, shrink and
// grow again. Not safe for concurrent use: the scheduler's.
type workers struct {
	ctx     context.Context // the tasks' (workCtx: canceled when the run stops its requests)
	do      func(ctx context.Context, t task, report func(result)) result
	tasks   <-chan task
	results chan<- result
	started int
	wg      sync.WaitGroup
}

// need starts workers until there are at least n. The scheduler calls it before each dispatch
// with the tasks in flight, the one dispatched included: each of the others holds at most one
// worker until it has handed back its result (never blocked: results holds reportsPerTask per
// task in flight), so a worker is free, or soon will be, to take the new task.
func (w *workers) need(n int) {
	for w.started < n {
		w.started++
		w.wg.Add(1)
		go w.run()
	}
}

func (w *workers) run() {
	defer w.wg.Done()
	report := func(r result) { w.results <- r }
	for t := range w.tasks {
		w.results <- w.do(w.ctx, t, report)
	}
}

// wait waits for every worker started to end; the caller has closed tasks.
func (w *workers) wait() { w.wg.Wait() }
