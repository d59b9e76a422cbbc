package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/store"
)

// stateOrder is the order states are listed in summaries.
var stateOrder = []store.State{
	store.StateFetched, store.StateQueued, store.StateRobotsDisallowed, store.StateRobotsUnreachable,
	store.StatePaused, store.StateError, store.StateOutOfScope,
}

// runLimits are the limits a run was given, for the words of its stop reason.
type runLimits struct {
	maxPages         int
	maxTime, maxWait time.Duration
}

// stopLine words why a run stopped, in the flags' terms: the summary's first line, which
// scripts read ("Crawl ended: nothing left to crawl"). err is what the run returned.
func stopLine(s crawl.Stats, l runLimits, err error) string {
	switch s.StopReason {
	case crawl.StopFinished:
		return "nothing left to crawl"
	case crawl.StopWaiting:
		return fmt.Sprintf("nothing due before %s (longer than --max-wait %s); run again to resume",
			s.NextDue.UTC().Format(time.RFC3339), l.maxWait)
	case crawl.StopMaxPages:
		return fmt.Sprintf("--max-pages %d reached", l.maxPages)
	case crawl.StopMaxTime:
		return fmt.Sprintf("--max-time %s reached", l.maxTime)
	case crawl.StopInterrupted:
		return "interrupted"
	case crawl.StopGaveUp:
		return "no origin answered: giving up (see --give-up-after)"
	case crawl.StopError:
		if err != nil {
			return "error: " + err.Error()
		}
	}
	return s.StopReason.String()
}

// writeSummary prints the one-screen summary of a crawl run; stop is its stopLine. location
// names the store ("": a temporary one), storeArgs the flags another command reads it with, as
// the user gave them (--data DIR, or --store URL); notes are printed under the figures, a line
// each.
func writeSummary(w io.Writer, s crawl.Stats, stop string, counts map[store.State]int, location, storeArgs string, notes ...string) {
	var b strings.Builder
	fmt.Fprintf(&b, "Crawl ended: %s\n\n", stop)
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	elapsed := s.Now.Sub(s.Started).Round(100_000_000)
	fmt.Fprintf(tw, "This run\tpages answered\t%d\t(%.1f/s over %s)\n", s.Pages, s.Rate(), elapsed)
	// The robots.txt requests that failed are counted here, not under "given up" (issue 27:
	// the summary agrees with the log's robots.txt warnings).
	fmt.Fprintf(tw, "\trobots.txt requests\t%d\t(%d unreachable: no answer, 5xx or 429)\n", s.Robots, s.RobotsOutcomes[crawl.RobotsUnreachable])
	fmt.Fprintf(tw, "\tdisallowed by robots.txt\t%d\t(never requested)\n", s.Disallowed)
	fmt.Fprintf(tw, "\t503/429 answers\t%d\t(origin paused each time)\n", s.Paused)
	fmt.Fprintf(tw, "\tgiven up (no answer)\t%d\t(%d retries)\n", s.Errors, s.Retries)
	fmt.Fprintf(tw, "\tnew URLs recorded\t%d\t(%d out of scope)\n", s.Discovered, s.OutOfScope)
	fmt.Fprintf(tw, "\tlinks skipped\t%d\t(not http(s), or unparsable)\n", s.BadURLs)
	fmt.Fprintf(tw, "\torigins\t%d\t(%d paused, %d robots.txt unreachable)\n", s.Origins, s.OriginsPaused, s.OriginsBlocked)
	if s.Refused > 0 { // issue 27: the address policy, not the origins, kept them from being fetched
		fmt.Fprintf(tw, "\torigins left queued\t%d\t(non-public addresses: --allow-private or --resolve allows them)\n", s.Refused)
	}
	if s.LeasesLost > 0 { // a shared store only (issue 12)
		fmt.Fprintf(tw, "\tleases lost\t%d\t(origins another process took over; their work was left to it)\n", s.LeasesLost)
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	fmt.Fprintf(tw, "Whole crawl\tknown URLs\t%d\t\n", total)
	for _, st := range stateOrder {
		if n := counts[st]; n > 0 {
			fmt.Fprintf(tw, "\t%s\t%d\t\n", st, n)
		}
	}
	tw.Flush()
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	for _, n := range notes {
		b.WriteString(n + "\n")
	}
	if location == "" {
		fmt.Fprintf(&b, "\nStore: temporary, removed on exit (keep it with --data DIR)\n")
	} else {
		fmt.Fprintf(&b, "\nStore: %s (mandelbot export %s)\n", location, storeArgs)
	}
	io.WriteString(w, b.String())
}
