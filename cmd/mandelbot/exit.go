package main

import (
	"fmt"
)

// Exit statuses, the one place they are defined (README.md, "Exit status").
const (
	// exitOK: the command did what was asked (a crawl: it ran until nothing was due).
	exitOK = 0
	// exitFailure: the command failed while running, or its answer is "no" (robots test:
	// something is disallowed), or a crawl could fetch nothing (every seed's origin unreachable).
	exitFailure = 1
	// exitUsage: bad flags or arguments, or input that could not be read.
	exitUsage = 2
	// exitStopped: a crawl stopped at --max-time or --max-pages with work left; re-running
	// resumes it.
	exitStopped = 3
	// exitInterrupted: stopped by Ctrl-C (SIGINT) or SIGTERM, once everything received was
	// saved (128 + SIGINT, as shells report it).
	exitInterrupted = 130
)

// exitError carries an exit status out of a command. A nil err means "exit quietly".
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

// crawlEnd is how a crawl run ended, as far as its exit status is concerned. The zero value is
// a crawl that did what was asked.
type crawlEnd struct {
	// Interrupted: Ctrl-C or SIGTERM stopped the run.
	Interrupted bool
	// NothingFetched: every seed's origin was unreachable (refused, DNS, timeouts, robots.txt
	// unreachable), so not one page was fetched; Reason says why in one line.
	NothingFetched bool
	// AtLimit: the run stopped at --max-time or --max-pages with work left.
	AtLimit bool
	// Reason is the one-line reason printed for NothingFetched.
	Reason string
	// Failed is the error that stopped the crawl (a store or WARC write that failed, a full
	// disk), nil if none.
	Failed error
}

// code is the exit status of a crawl that ended as e. Interrupted wins (the operator asked to
// stop), then a crawl that fetched nothing, then a stop at a limit.
func (e crawlEnd) code() int {
	switch {
	case e.Interrupted:
		return exitInterrupted
	case e.Failed != nil, e.NothingFetched:
		return exitFailure
	case e.AtLimit:
		return exitStopped
	}
	return exitOK
}

// exitLine is the summary line naming the exit status that applies, e.g.
// "Exit status 3: stopped at a limit with work left (re-run to resume)".
func (e crawlEnd) exitLine() string {
	switch c := e.code(); c {
	case exitInterrupted:
		return fmt.Sprintf("Exit status %d: interrupted; everything received is saved (re-run to resume)", c)
	case exitFailure:
		if e.Failed != nil {
			return fmt.Sprintf("Exit status %d: the crawl failed: %s", c, oneLine(e.Failed.Error()))
		}
		return fmt.Sprintf("Exit status %d: nothing could be fetched (the reason is on standard error)", c) // said once (issue 27)
	case exitStopped:
		return fmt.Sprintf("Exit status %d: stopped at a limit with work left (re-run to resume)", c)
	default:
		return fmt.Sprintf("Exit status %d: done", c)
	}
}

// err is what runCrawl returns for e: nil for exit 0, otherwise an exitError whose message is
// the reason when nothing was fetched, and quiet (the summary said it) otherwise.
func (e crawlEnd) err() error {
	switch c := e.code(); c {
	case exitOK:
		return nil
	case exitFailure:
		if e.Failed != nil {
			return &exitError{code: c, err: fmt.Errorf("the crawl failed: %w", e.Failed)}
		}
		return &exitError{code: c, err: fmt.Errorf("crawl: nothing could be fetched: %s", e.Reason)}
	default:
		return &exitError{code: c}
	}
}
