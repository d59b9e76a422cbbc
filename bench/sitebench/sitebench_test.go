package main

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestParseLogLine(t *testing.T) {
	e, ok := parseLogLine("1763900000.123\t200\t12732\tGET\t/html/index.html?a=b\tWget/1.21.3\n")
	if !ok || e.Status != 200 || e.Bytes != 12732 || e.Method != "GET" || e.URI != "/html/index.html?a=b" || e.UserAgent != "Wget/1.21.3" {
		t.Errorf("parseLogLine = %+v, %v", e, ok)
	}
	for _, bad := range []string{"", "1\t200\t1\tGET\t/", "1\tok\t1\tGET\t/\tua", "1\t200\tx\tGET\t/\tua"} {
		if _, ok := parseLogLine(bad); ok {
			t.Errorf("parseLogLine(%q) accepted", bad)
		}
	}
}

func line(status int, uri string) logEntry {
	return logEntry{Status: status, Bytes: 100, Method: "GET", URI: uri, UserAgent: "x"}
}

// The tally counts HTML pages, robots.txt, errors, repeats, and requests under the directory
// robots.txt disallows, which mandelbot must never make (docs/robots-rules.md: a disallowed URL
// is not fetched).
func TestTallyLog(t *testing.T) {
	got := tallyLog([]logEntry{
		line(200, "/robots.txt"),
		line(200, "/"),
		line(200, "/html/"),
		line(200, "/html/index.html"),
		line(200, "/html/stylesheet.css"),
		line(404, "/html/missing.html"),
		line(200, "/html/index.html"),
		line(200, "/tutorial/basics.source"),
		line(200, "/tutorialx.html"), // not under /tutorial/
	}, "/tutorial/")
	if got.Requests != 9 || got.Pages != 5 || got.Robots != 1 || got.NonOK != 1 || got.Repeated != 1 || got.Disallowed != 1 || got.Bytes != 900 {
		t.Errorf("tally = %+v", got)
	}
	if !slices.Equal(got.DisallowedSeen, []string{"/tutorial/basics.source"}) || !slices.Equal(got.NonOKSeen, []string{"404 /html/missing.html"}) {
		t.Errorf("examples: disallowed %q, non-200 %q", got.DisallowedSeen, got.NonOKSeen)
	}
	other := tallyLog([]logEntry{line(200, "/html/index.html"), line(200, "/only-here.html")}, "/tutorial/")
	if n, ex := onlyIn(other, got); n != 1 || !slices.Equal(ex, []string{"/only-here.html"}) {
		t.Errorf("onlyIn = %d %q", n, ex)
	}
}

// readLog returns the lines after an offset and the new end, leaving a partial line for later.
func TestReadLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "access.log")
	first := "1\t200\t5\tGET\t/a\tua\n"
	if err := os.WriteFile(path, []byte(first+"2\t404\t0\tGET\t/b\tua\n3\t200"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, end, err := readLog(path, int64(len(first)))
	if err != nil || len(got) != 1 || got[0].URI != "/b" || end != int64(len(first))*2 {
		t.Errorf("readLog = %+v, %d, %v", got, end, err)
	}
}

func TestParseStatCPU(t *testing.T) {
	stat := "4242 (nginx: a b) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 30 0 0 20 0 1 0 100 1000000 500 18446744073709551615\n"
	if got, ok := parseStatCPU(stat); !ok || got != 2800*time.Millisecond {
		t.Errorf("parseStatCPU = %v, %v; want 2.8s (280 ticks)", got, ok)
	}
	if _, ok := parseStatCPU("4242 (x) S 1"); ok {
		t.Error("parseStatCPU of a short line: ok")
	}
}

// A real nginx with the bench's configuration serves the files, answers robots.txt with the
// one disallowed directory, lists a directory without index.html, and logs each request in
// the bench's format. Skipped where nginx is not installed (sitebench/setup.sh installs it).
func TestNginx(t *testing.T) {
	bin, err := exec.LookPath("nginx")
	if err != nil {
		t.Skip("nginx is not installed")
	}
	root := t.TempDir()
	for path, body := range map[string]string{"html/index.html": `<a href="a.html">a</a>`, "tutorial/x.source": "select 1;"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := site{Root: root, Dir: t.TempDir(), Port: port, Disallow: "/tutorial/"}
	srv, err := startNginx(context.Background(), bin, s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.stop() })
	get := func(path string) (int, string) {
		resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := resp.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return resp.StatusCode, b.String()
	}
	if code, body := get("/robots.txt"); code != 200 || body != "User-agent: *\nDisallow: /tutorial/\n" {
		t.Errorf("robots.txt: %d %q", code, body)
	}
	if code, body := get("/"); code != 200 || !strings.Contains(body, `href="tutorial/"`) || !strings.Contains(body, `href="html/"`) {
		t.Errorf("/: %d %q, want a listing linking html/ and tutorial/", code, body)
	}
	if code, body := get("/html/"); code != 200 || !strings.Contains(body, "a.html") {
		t.Errorf("/html/: %d %q, want index.html", code, body)
	}
	if code, _ := get("/html/nothing.html"); code != 404 {
		t.Errorf("/html/nothing.html: %d, want 404", code)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	got, _, err := readLog(s.accessLogPath(), 0)
	if err != nil {
		t.Fatal(err)
	}
	tally := tallyLog(got, s.Disallow)
	if tally.Requests != 4 || tally.Robots != 1 || tally.NonOK != 1 || tally.Pages != 2 {
		t.Errorf("access log tally = %+v, want 4 requests: robots.txt, 2 pages, a 404", tally)
	}
}
