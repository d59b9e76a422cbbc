// Package robots turns an origin's /robots.txt response into a crawl decision, following the HTTP
// status rules of docs/robots-rules.md section C (rule 21): 2xx is parsed, 3xx is followed up to
// MaxRedirects hops to any origin, 4xx (but 429) means "no robots.txt, everything allowed", and 5xx,
// 429 or a network error means the origin is unreachable and none of it may be crawled.
//
// The package never retries, sleeps or caches by itself: a Decision records what was asked and
// answered, at the time the caller gave, so the caller (the crawl's origin gate, or the robots.txt
// tester) owns caching, backoff and pauses.
package robots
