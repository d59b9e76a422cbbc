// Package frontier decides what the crawler may request next. It holds the per-origin queues
// and is the origin gate of docs/design.md: a request is only ever handed out for an origin whose
// robots.txt decision is known and usable, that is not paused (rule 23), that is under its
// concurrency cap (requests on the wire: an answer being processed no longer counts), and whose
// politeness delay has passed. URLs that robots.txt disallows are
// handed back as skips, never as requests; a skip waits for no gap and no request in flight
// (origin.disallowedHead), only for a pause. Origins not loaded yet are loaded in the order they
// came, taking turns with the requests that are ready (loads.go).
//
// The Frontier does no I/O and reads no clock: every method takes "now", and the caller (the
// crawl loop) performs the steps it returns and reports their outcomes. It is not safe for
// concurrent use: one goroutine, the crawl's scheduler, owns it.
package frontier
