package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// runLoop GETs every URL of its file, in order, against a real fake web, and reports what it
// got: 200s, a 404, and every body read.
func TestRunLoop(t *testing.T) {
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: 2, PagesPerOrigin: 3}), testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	urls := []string{web.URL("g0", "/robots.txt"), web.URL("g0", "/"), web.URL("g1", "/p/2"), web.URL("g1", "/nothing")}
	file := filepath.Join(t.TempDir(), "urls.txt")
	if err := writeLines(file, urls); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runLoop(file, 1, web.Resolve(), &out); err != nil {
		t.Fatal(err)
	}
	var rep loopReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report %q: %v", out.String(), err)
	}
	if rep.Requests != 4 || rep.Errors != 0 || rep.NonOK != 1 || rep.Bytes < 1000 || rep.Conns < 1 {
		t.Errorf("report = %+v, want 4 requests, 0 errors, 1 not 200, bodies read", rep)
	}
	log := web.Requests()
	if len(log) != len(urls) {
		t.Fatalf("the web logged %d requests, want %d", len(log), len(urls))
	}
	for i, r := range log { // one worker: the file's order
		if got := web.URL(r.Key, r.Path); got != urls[i] {
			t.Errorf("request %d was %s, want %s", i+1, got, urls[i])
		}
		if ua := r.Header.Get("User-Agent"); ua != loopUserAgent {
			t.Errorf("request %d: User-Agent %q", i+1, ua)
		}
	}
}

func TestRunLoopReportsUnreachable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "urls.txt")
	if err := writeLines(file, []string{"http://g0.test:1/"}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := runLoop(file, 2, nil, &out); err != nil {
		t.Fatal(err)
	}
	var rep loopReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 1 || !strings.Contains(rep.FirstErr, "not a pinned address") {
		t.Errorf("report = %+v, want 1 error: not pinned", rep)
	}
}
