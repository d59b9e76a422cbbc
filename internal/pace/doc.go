// Package pace decides the adaptive part of the gap between two requests to one origin (issue
// 29, "a delay that listens to the server"): a multiple of how long the origin took to answer
// (Heritrix's delay factor), growing after timeouts and 5xx answers and relaxing as answers come
// back fast, within a ceiling. The configured delay (--delay, --site-delay, a robots.txt
// Crawl-delay) stays the floor: the gap an origin gets is the larger of the two.
//
// The package is pure: no I/O, no clock (durations are inputs), no global state.
package pace
