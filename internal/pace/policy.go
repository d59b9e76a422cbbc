package pace

import (
	"fmt"
	"net/http"
	"time"
)

const (
	// DefaultFactor multiplies the duration of an origin's last answer into the gap before its
	// next request: with 2, the crawler keeps one request per origin on the wire at most a third
	// of the time, however slow the origin gets. (Heritrix's delay factor is 5 with a 3 s floor;
	// the floor here is --delay, 1 s by default, and 2 keeps a fast origin at --delay: an answer
	// under 500 ms adds nothing.)
	DefaultFactor = 2
	// DefaultMax caps the adaptive gap (the ceiling), as MaxHonoredCrawlDelay caps a robots.txt
	// Crawl-delay: an origin that takes 5 s per answer gets 10 s; one that times out gets a
	// minute, not two. A --delay above it still wins: the floor is never lowered.
	DefaultMax = time.Minute
	// ErrorStep is the least adaptive gap after an answer that failed (none came, or a 5xx):
	// the gap then at least doubles from the one before, starting here.
	ErrorStep = time.Second
	// MinGap is the least adaptive gap that counts: below it the gap is nothing. An answer in
	// under MinGap/Factor (125 ms) shows a server at ease, its duration mostly the network's
	// round trip, and a gap of a few milliseconds only slows a crawl of a fast server at
	// --delay 0 (a one-site crawl of 1,000 loopback pages took 3.2-3.8 s with it, against
	// 0.9-1.0 s), for no one's benefit.
	MinGap = 250 * time.Millisecond
)

// Policy is the adaptive gap's configuration. The zero value uses DefaultFactor and DefaultMax.
// A Policy is a plain value, safe to share.
type Policy struct {
	Factor float64
	Max    time.Duration
}

// Gap is an origin's adaptive gap and why; the zero Gap adds nothing to the configured delay.
type Gap struct {
	D      time.Duration
	Reason string // for people: how D was decided; "" when D is 0
}

// Next returns the gap after an answer that took took (from the request's start to the answer
// read, or to giving up when none came) with status (0: no answer, a timeout or a network
// error), given the gap before it:
//   - after an answer that failed (no answer, or a 5xx): Factor × took, or twice the gap before
//     (at least ErrorStep), whichever is larger;
//   - after any other answer: Factor × took, or half the gap before, whichever is larger, so a
//     slowed origin relaxes step by step as answers come back fast;
//
// and never more than Max; a gap under MinGap is none.
func (p Policy) Next(prev Gap, took time.Duration, status int) Gap {
	factor, ceiling := p.Factor, p.Max
	if factor <= 0 {
		factor = DefaultFactor
	}
	if ceiling <= 0 {
		ceiling = DefaultMax
	}
	took = max(took, 0)
	scaled := time.Duration(float64(took) * factor)
	var g Gap
	failed := status == 0 || status >= 500
	switch {
	case failed && max(2*prev.D, ErrorStep) >= scaled:
		g = Gap{max(2*prev.D, ErrorStep), fmt.Sprintf("grew after %s", what(status))}
	case failed:
		g = Gap{scaled, fmt.Sprintf("%s, which took %s × %g", what(status), round(took), factor)}
	case prev.D/2 > scaled:
		g = Gap{prev.D / 2, fmt.Sprintf("relaxing: half of %s (the last answer took %s)", round(prev.D), round(took))}
	default:
		g = Gap{scaled, fmt.Sprintf("the last answer took %s × %g", round(took), factor)}
	}
	if g.D >= ceiling {
		g = Gap{ceiling, g.Reason + fmt.Sprintf(", capped at %s", ceiling)}
	}
	if g.D < MinGap {
		return Gap{}
	}
	return g
}

func what(status int) string {
	if status == 0 {
		return "no answer (a timeout or a network error)"
	}
	return fmt.Sprintf("answer %d %s", status, http.StatusText(status))
}

// round keeps reasons short: milliseconds under a minute, seconds above.
func round(d time.Duration) time.Duration {
	if d >= time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Millisecond)
}
