// Package testweb serves a fake web of many origins on loopback: the test bed of the
// crawler, the bundled sample web of `mandelbot demo` and the load of the benchmarks.
//
// A web is a list of [Site] values, each one origin (scheme, host, port) listening on its
// own 127.0.0.1 port. A site answers [Page] values looked up by exact path and query; a
// page may follow a Script of [Step] values (the i-th request gets Script[i], the last
// repeats) to answer a status, redirect, reset the connection, hang or stall. Every request
// is written to a bounded log before it is answered, so a test can check what a crawler
// asked for and in which order, even when the client gave up.
//
// Scenario text refers to sites by key: "{b}/robots.txt" is expanded to the real URL of
// the site with key "b" (for example "http://b.test:41234/robots.txt") in links, redirect
// targets, header values and raw bodies. The crawler reaches the sites by their host names
// through its --resolve flag (see [Web.Resolve]); a plain net/http client can use
// [Web.DialContext].
//
// Ready scenarios of docs/robots-rules.md sections C and D are built by the Robots*,
// PagePaused and related functions and listed with their expected outcome by
// [Scenarios]; [Sample] is the small demo web and [Generate] a large synthetic one.
// [Web.BeforeRobots] and [Web.DuringPause] check rules 20 and 23 on the log.
//
// A crawler test reads like this:
//
//	web, err := testweb.Start(testweb.RobotsRedirects(6), testweb.Options{Now: clock.Now})
//	if err != nil {
//		t.Fatal(err)
//	}
//	t.Cleanup(web.Close)
//	args := []string{"crawl", "--data", t.TempDir()}
//	for _, r := range web.Resolve() {
//		args = append(args, "--resolve", r)
//	}
//	args = append(args, web.Seeds("a")...)
//	// ... run the crawl, then:
//	if n := web.Count("a", "/private/secret"); n == 0 { ... } // 6 hops: robots.txt counts as 4xx
//	if bad := web.BeforeRobots(); len(bad) > 0 { ... }
//
// The package imports neither "testing" nor anything outside the standard library, so the
// demo binary can link it.
package testweb
