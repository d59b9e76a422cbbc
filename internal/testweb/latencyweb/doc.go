// Package latencyweb is a fake web for crawls at the politeness limit (issue 31): N origins on
// loopback, each on an address of its own in 127/8 (127.10.0.1, 127.10.0.2, ...) and all on one
// port, so that thousands of origins need no thousands of ports. Every answer is held back a set
// latency with jitter. Its request log is read by Web.Gate, the request-log gate check of a
// crawl: never two requests in flight to one origin, the delay held between an origin's answer
// and its next request, robots.txt first and obeyed, every page once.
//
// It is used by bench/politebench (pages/s against origins / (delay + latency)) and by the
// cluster test on the latency web (cmd/mandelbot). A crawler reaches the origins by IP address:
// `mandelbot crawl` needs --allow-private.
package latencyweb
