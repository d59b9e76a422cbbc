package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

func TestParseResolve(t *testing.T) {
	for _, c := range []struct {
		in               string
		host, port, addr string
		wantErr          bool
	}{
		{in: "g0.test:41234:127.0.0.1", host: "g0.test", port: "41234", addr: "127.0.0.1"},
		{in: "a.test:80:[::1]", host: "a.test", port: "80", addr: "::1"},
		{in: "a.test:80:::1", host: "a.test", port: "80", addr: "::1"},
		{in: "a.test:80", wantErr: true},
		{in: "a.test:80:", wantErr: true},
		{in: ":80:127.0.0.1", wantErr: true},
		{in: "a.test:80:example.com", wantErr: true}, // an address, not a name
	} {
		host, port, addr, err := parseResolve(c.in)
		if (err != nil) != c.wantErr || host != c.host || port != c.port || addr != c.addr {
			t.Errorf("parseResolve(%q) = %q, %q, %q, %v", c.in, host, port, addr, err)
		}
	}
}

// The loop's dialer reaches a pinned host (in any ASCII case) and nothing else, so the
// ceiling cannot leave loopback.
func TestPinnedDialer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	d, err := newPinnedDialer([]string{"g0.test:" + port + ":127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.DialContext(context.Background(), "tcp", "G0.Test:"+port)
	if err != nil {
		t.Fatalf("dial pinned host: %v", err)
	}
	c.Close()
	for _, addr := range []string{"g1.test:" + port, "g0.test:1", "127.0.0.1:" + port} {
		if c, err := d.DialContext(context.Background(), "tcp", addr); err == nil {
			c.Close()
			t.Errorf("dial %s: connected, want refused", addr)
		}
	}
}

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
