package testweb

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// docs/robots-rules.md rule 21: the statuses a robots.txt answers, each to be read by its
// class (2xx rules, 4xx none, 429 and 5xx unreachable).
func TestRobotsAnsweringStatuses(t *testing.T) {
	for _, code := range []int{200, 401, 403, 404, 410, 429, 500, 503} {
		w := start(t, RobotsAnswering(code), Options{})
		got := get(t, newClient(t, w, 0), w.URL("a", RobotsPath))
		if got.status != code {
			t.Errorf("RobotsAnswering(%d): status %d", code, got.status)
		}
		if want := statusLine(code); got.body != want {
			t.Errorf("RobotsAnswering(%d): body %q, want %q", code, got.body, want)
		}
	}
}

// The i-th request gets Script[i]; the last step repeats (rule 21, a 5xx that turns to
// 200; rule 23, a 503 that ends).
func TestScriptProgression(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{{
		Path:  "/p",
		Title: "Page",
		Script: []Step{
			{Status: 500},
			{Status: 503, Header: RetryAfterSeconds(7)},
			{Status: 200, Body: "custom", Header: http.Header{"Content-Type": {"text/x-custom"}}},
			{},
		},
	}}}}, Options{})
	c := newClient(t, w, 0)
	type seen struct {
		Status               int
		RetryAfter, Ctype    string
		Body                 string
		HasTitle, IsStatusLn bool
	}
	var got []seen
	for range 5 {
		a := get(t, c, w.URL("a", "/p"))
		got = append(got, seen{a.status, a.header.Get("Retry-After"), a.header.Get("Content-Type"), "",
			strings.Contains(a.body, "<title>Page</title>"), a.body == statusLine(a.status)})
		if a.body == "custom" {
			got[len(got)-1].Body = a.body
		}
	}
	want := []seen{
		{Status: 500, Ctype: "text/plain; charset=utf-8", IsStatusLn: true},
		{Status: 503, RetryAfter: "7", Ctype: "text/plain; charset=utf-8", IsStatusLn: true},
		{Status: 200, Ctype: "text/x-custom", Body: "custom"},
		{Status: 200, Ctype: "text/html; charset=utf-8", HasTitle: true},
		{Status: 200, Ctype: "text/html; charset=utf-8", HasTitle: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{500, 503, 200, 200, 200}, statuses(w, "a")); diff != "" {
		t.Errorf("logged statuses mismatch (-want +got):\n%s", diff)
	}
}

// A 2xx step with no body serves the page's content with that status and headers;
// a page Status applies when there is no script (a 404 page with content).
func TestStepAndPageStatusesServeContent(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{
		{Path: "/gone", Status: 410, Title: "Gone for good"},
		{Path: "/partial", Title: "Partial", Header: XRobotsTag("noindex"), Script: []Step{{Status: 203}}},
	}}}, Options{})
	c := newClient(t, w, 0)
	if got := get(t, c, w.URL("a", "/gone")); got.status != 410 || !strings.Contains(got.body, "<h1>Gone for good</h1>") {
		t.Errorf("/gone: %d %q, want 410 with the rendered page", got.status, got.body)
	}
	got := get(t, c, w.URL("a", "/partial"))
	if got.status != 203 || !strings.Contains(got.body, "<h1>Partial</h1>") || got.header.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("/partial: %d %v %q, want 203 with the page and its X-Robots-Tag", got.status, got.header, got.body)
	}
}

// docs/robots-rules.md rule 21: a connection reset is a network error. A fresh
// connection: the client sees ECONNRESET, never a response.
func TestResetIsSeenAsConnectionReset(t *testing.T) {
	w := start(t, RobotsReset(), Options{})
	_, err := tryGet(newClient(t, w, 0), w.URL("a", RobotsPath))
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("GET robots.txt: err = %v, want ECONNRESET", err)
	}
	reqs := w.Requests()
	if len(reqs) != 1 || reqs[0].Action != Reset || reqs[0].Status != 0 {
		t.Fatalf("log = %v, want one reset with status 0", reqs)
	}
}

// The trap Reset's doc warns about: net/http's Transport replays an idempotent request
// once when a reused keep-alive connection fails, so the client meets the next step.
func TestResetOnReusedConnectionIsReplayedByTransport(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{
		{Path: "/warm-up"},
		{Path: "/flaky", Script: []Step{{Do: Reset}, {Status: 200}}},
	}}}, Options{})
	c := newClient(t, w, 0)
	get(t, c, w.URL("a", "/warm-up")) // leaves an idle keep-alive connection
	got, err := tryGet(c, w.URL("a", "/flaky"))
	if err != nil {
		t.Fatalf("GET /flaky on a reused connection: %v (want the replay to succeed)", err)
	}
	if got.status != 200 {
		t.Errorf("GET /flaky: status %d, want 200 from the replay", got.status)
	}
	if n := w.Count("a", "/flaky"); n != 2 {
		t.Errorf("/flaky requested %d times, want 2 (reset, then replay)", n)
	}
}

// docs/robots-rules.md rule 21: a timeout is a network error. Hang holds the request
// until the client's 100 ms timeout; the handler is then released (WaitIdle returns)
// and the request was logged even though it was never answered.
func TestHangIsReleasedByClientTimeout(t *testing.T) {
	w := start(t, RobotsHang(), Options{})
	_, err := tryGet(newClient(t, w, 100*time.Millisecond), w.URL("a", RobotsPath))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("GET robots.txt: err = %v, want a timeout", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := w.WaitIdle(ctx); err != nil {
		t.Fatalf("the hanging handler was not released after the client gave up: %v", err)
	}
	reqs := w.Requests()
	if len(reqs) != 1 || reqs[0].Action != Hang || reqs[0].Path != RobotsPath {
		t.Fatalf("log = %v, want the hung robots.txt request", reqs)
	}
}

// Close releases requests that hang, without the client giving up. OnRequest tells the
// test that the request has arrived: no sleeping.
func TestHangIsReleasedByClose(t *testing.T) {
	arrived := make(chan Request, 1)
	w, err := Start(RobotsHang(), Options{OnRequest: func(r Request) { arrived <- r }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	c := newClient(t, w, 0) // no timeout: only Close can end the request
	errc := make(chan error, 1)
	go func() {
		_, err := tryGet(c, w.URL("a", RobotsPath))
		errc <- err
	}()
	if r := <-arrived; r.Action != Hang {
		t.Fatalf("arrived %v, want a hang", r)
	}
	w.Close()
	if err := <-errc; err == nil {
		t.Fatalf("GET of a hanging robots.txt succeeded after Close, want an error")
	}
}

// Stall sends the head and half the body, then hangs: the client has a response but
// its body read times out.
func TestStallTimesOutWhileReadingTheBody(t *testing.T) {
	body := strings.Repeat("x", 1000)
	w := start(t, []Site{{Key: "a", Pages: []Page{{Path: "/slow", Body: body, ContentType: "text/plain", Script: []Step{{Do: Stall}}}}}}, Options{})
	c := newClient(t, w, 200*time.Millisecond)
	resp, err := c.Get(w.URL("a", "/slow"))
	if err != nil {
		t.Fatalf("GET /slow: %v, want the head to arrive", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.ContentLength != 1000 {
		t.Errorf("head: status %d, length %d, want 200 and 1000", resp.StatusCode, resp.ContentLength)
	}
	got, err := io.ReadAll(resp.Body)
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("reading the body: %d bytes, err = %v, want a timeout", len(got), err)
	}
	if len(got) != 500 {
		t.Errorf("read %d bytes before the stall, want 500", len(got))
	}
	if r := w.Requests(); len(r) != 1 || r[0].Action != Stall || r[0].Status != 200 {
		t.Errorf("log = %v, want one stall with status 200", r)
	}
}

// Drop closes the connection without an answer: an EOF, not a reset.
func TestDropIsSeenAsEOF(t *testing.T) {
	w := start(t, []Site{{Key: "a", Robots: &Page{Script: []Step{{Do: Drop}}}}}, Options{})
	_, err := tryGet(newClient(t, w, 0), w.URL("a", RobotsPath))
	if err == nil || !errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("GET robots.txt: err = %v, want EOF", err)
	}
}

// docs/robots-rules.md rule 23: Retry-After in seconds and as an HTTP-date; the date form
// and the Date header follow the injected clock.
func TestRetryAfterForms(t *testing.T) {
	clock := newFakeClock()
	fixed := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	w := start(t, []Site{{Key: "a", Pages: []Page{
		{Path: "/seconds", Script: []Step{{Status: 503, Header: RetryAfterSeconds(120)}}},
		{Path: "/date", Script: []Step{{Status: 503, Header: RetryAfterDate(fixed)}}},
		{Path: "/in", Script: []Step{{Status: 429, RetryDateIn: 90 * time.Second}}},
	}}}, Options{Now: clock.Now})
	c := newClient(t, w, 0)
	clock.Advance(time.Hour)
	now := clock.Now()
	tests := []struct {
		path, want string
		status     int
	}{
		{"/seconds", "120", 503},
		{"/date", "Wed, 02 Jan 2030 03:04:05 GMT", 503},
		{"/in", now.Add(90 * time.Second).Format(http.TimeFormat), 429},
	}
	for _, tt := range tests {
		got := get(t, c, w.URL("a", tt.path))
		if got.status != tt.status || got.header.Get("Retry-After") != tt.want {
			t.Errorf("%s: %d Retry-After %q, want %d %q", tt.path, got.status, got.header.Get("Retry-After"), tt.status, tt.want)
		}
		if d := got.header.Get("Date"); d != now.Format(http.TimeFormat) {
			t.Errorf("%s: Date %q, want the fake clock %q", tt.path, d, now.Format(http.TimeFormat))
		}
	}
	for _, r := range w.Requests() {
		if !r.At.Equal(now) {
			t.Errorf("request %v logged at %v, want the fake clock %v", r, r.At, now)
		}
	}
}

// docs/robots-rules.md rule 22: revalidation with If-None-Match / If-Modified-Since.
func TestConditionalRequests(t *testing.T) {
	w := start(t, RobotsCacheable(), Options{})
	c := newClient(t, w, 0)
	u := w.URL("a", RobotsPath)
	first := get(t, c, u)
	if first.status != 200 || first.header.Get("ETag") != `"v1"` || first.header.Get("Cache-Control") != "max-age=3600" {
		t.Fatalf("first fetch: %d %v", first.status, first.header)
	}
	lm := first.header.Get("Last-Modified")
	tests := []struct {
		name   string
		hdr    []string
		status int
	}{
		{"matching etag", []string{"If-None-Match", `"v1"`}, 304},
		{"weak matching etag in a list", []string{"If-None-Match", `"v0", W/"v1"`}, 304},
		{"other etag", []string{"If-None-Match", `"v2"`}, 200},
		{"etag decides over date", []string{"If-None-Match", `"v2"`, "If-Modified-Since", lm}, 200},
		{"same date", []string{"If-Modified-Since", lm}, 304},
		{"older date", []string{"If-Modified-Since", "Wed, 01 Jan 2025 00:00:00 GMT"}, 200},
		{"bad date", []string{"If-Modified-Since", "yesterday"}, 200},
	}
	for _, tt := range tests {
		got := get(t, c, u, tt.hdr...)
		if got.status != tt.status {
			t.Errorf("%s: status %d, want %d", tt.name, got.status, tt.status)
		}
		if tt.status == 304 && (got.body != "" || got.header.Get("ETag") != `"v1"`) {
			t.Errorf("%s: 304 with body %q and ETag %q, want no body and the ETag", tt.name, got.body, got.header.Get("ETag"))
		}
	}
}

func TestCompressAndGzipFile(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{
		{Path: "/z", Title: "Zipped", Compress: true},
		Gzipped(SitemapXML("/sitemap.xml.gz", "{a}/z")),
	}}}, Options{})
	c := newClient(t, w, 0)
	gunzip := func(s string) string {
		t.Helper()
		zr, err := gzip.NewReader(strings.NewReader(s))
		if err != nil {
			t.Fatalf("gunzip: %v", err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("gunzip: %v", err)
		}
		return string(b)
	}
	plain := get(t, c, w.URL("a", "/z"), "Accept-Encoding", "identity")
	if plain.header.Get("Content-Encoding") != "" || !strings.Contains(plain.body, "<title>Zipped</title>") {
		t.Fatalf("identity: %v %q", plain.header, plain.body)
	}
	if plain.header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("Vary = %q, want Accept-Encoding", plain.header.Get("Vary"))
	}
	for _, ae := range []string{"gzip", "br, GZIP;q=0.5", "*"} {
		z := get(t, c, w.URL("a", "/z"), "Accept-Encoding", ae)
		if z.header.Get("Content-Encoding") != "gzip" || gunzip(z.body) != plain.body {
			t.Errorf("Accept-Encoding %q: encoding %q, want gzip of the plain body", ae, z.header.Get("Content-Encoding"))
		}
	}
	if z := get(t, c, w.URL("a", "/z"), "Accept-Encoding", "gzip;q=0"); z.header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 was answered with Content-Encoding %q", z.header.Get("Content-Encoding"))
	}

	gz := get(t, c, w.URL("a", "/sitemap.xml.gz"), "Accept-Encoding", "identity")
	if gz.header.Get("Content-Encoding") != "" || gz.header.Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Errorf("sitemap.xml.gz headers %v: want no Content-Encoding, the XML type", gz.header)
	}
	if !bytes.HasPrefix([]byte(gz.body), []byte{0x1f, 0x8b}) {
		t.Fatalf("sitemap.xml.gz is not a gzip file: % x", gz.body[:min(4, len(gz.body))])
	}
	if want := "<loc>" + w.URL("a", "/z") + "</loc>"; !strings.Contains(gunzip(gz.body), want) {
		t.Errorf("gunzipped sitemap lacks %q (references are expanded before compression)", want)
	}
}

// docs/robots-rules.md rule 25: several X-Robots-Tag headers combine, so the web sends
// repeated fields; rule 24 needs a page whose Content-Type is absent.
func TestHeadersRepeatAndContentTypeCanBeAbsent(t *testing.T) {
	w := start(t, []Site{{Key: "a", Pages: []Page{
		{Path: "/two", Title: "Two tags", Header: XRobotsTag("otherbot: noindex", "mandelbot: nofollow")},
		{Path: "/untyped", Body: "<html><head><meta name=robots content=noindex></head></html>", ContentType: NoContentType},
	}}}, Options{})
	c := newClient(t, w, 0)
	two := get(t, c, w.URL("a", "/two"))
	if diff := cmp.Diff([]string{"otherbot: noindex", "mandelbot: nofollow"}, two.header.Values("X-Robots-Tag")); diff != "" {
		t.Errorf("X-Robots-Tag mismatch (-want +got):\n%s", diff)
	}
	untyped := get(t, c, w.URL("a", "/untyped"))
	if v, ok := untyped.header["Content-Type"]; ok {
		t.Errorf("Content-Type = %q, want none", v)
	}
}
