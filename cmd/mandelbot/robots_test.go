package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runCLI runs the command in-process and returns its exit status and output.
func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// seed 000 "Disallow: /secret, Allow: /secret/readme.txt" example, through the CLI contract:
// one line per URL in order, exit 1 when any is disallowed.
func TestRobotsTest_OneLinePerURLInOrder(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: Mandelbot\nDisallow: /secret\nAllow: /secret/readme.txt\n")
	code, out, _ := runCLI(t, "", "robots", "test", robots,
		"https://www.example.com/secret/doc.html",
		"https://www.example.com/secret/readme.txt",
		"https://www.example.com/secret/readme.txt?v=1")
	want := "DISALLOWED\thttps://www.example.com/secret/doc.html\n" +
		"ALLOWED\thttps://www.example.com/secret/readme.txt\n" +
		"ALLOWED\thttps://www.example.com/secret/readme.txt?v=1\n"
	if out != want || code != exitFailure {
		t.Fatalf("exit %d, output:\n%s\nwant exit 1 and:\n%s", code, out, want)
	}
}

func TestRobotsTest_AllAllowedExitsZero(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /private\n")
	code, out, _ := runCLI(t, "", "robots", "test", robots, "http://a.example/public", "/also/public")
	if code != exitOK || strings.Count(out, "ALLOWED\t") != 2 {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

// --explain names the deciding line and rule on stdout, and the group and ignored lines on stderr
// (rule 3: misspelled fields are ignored and reported; rule 7: the group chosen).
func TestRobotsTest_ExplainSaysWhy(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /\n\nUser-agent: mandelbot/2.1\nDisalow: /typo\nDisallow: /secret # c\n")
	code, out, errOut := runCLI(t, "", "robots", "test", "--explain", robots, "https://x.example/secret/a", "https://x.example/open")
	if code != exitFailure {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one line per URL, got %q", out)
	}
	if lines[0] != "DISALLOWED\thttps://x.example/secret/a\tline 6: Disallow: /secret" {
		t.Errorf("line 1 = %q", lines[0])
	}
	if !strings.HasPrefix(lines[1], "ALLOWED\thttps://x.example/open\t") || !strings.Contains(lines[1], "no rule") {
		t.Errorf("line 2 = %q", lines[1])
	}
	for _, want := range []string{"group: the one naming Mandelbot", "line 5", "Disalow: /typo"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// seed 000 "no group applies" example, explained.
func TestRobotsTest_ExplainNoGroupApplies(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: Anotherbot\nDisallow: /private\n")
	code, out, errOut := runCLI(t, "", "robots", "test", "--explain", robots, "https://x.example/private")
	if code != exitOK || !strings.Contains(out, "no group applies to Mandelbot") || !strings.Contains(errOut, "none applies") {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, out, errOut)
	}
}

func TestRobotsTest_AgentFlag(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: Anotherbot\nDisallow: /private\n")
	code, out, _ := runCLI(t, "", "robots", "test", "--agent", "AnotherBot", robots, "https://x.example/private")
	if code != exitFailure || !strings.HasPrefix(out, "DISALLOWED\t") {
		t.Fatalf("exit %d, %q", code, out)
	}
}

func TestRobotsTest_StdinAndURLsFile(t *testing.T) {
	list := writeFile(t, "urls.txt", "# a comment\nhttps://x.example/a\r\n\n  https://x.example/b/c  \n/b\n")
	code, out, _ := runCLI(t, "User-agent: *\nDisallow: /b\n", "robots", "test", "--urls", list, "-", "https://x.example/first")
	want := "ALLOWED\thttps://x.example/first\nALLOWED\thttps://x.example/a\nDISALLOWED\thttps://x.example/b/c\nDISALLOWED\t/b\n"
	if code != exitFailure || out != want {
		t.Fatalf("exit %d, got:\n%s\nwant:\n%s", code, out, want)
	}
}

func TestRobotsTest_JSON(t *testing.T) {
	robots := writeFile(t, "robots.txt", "Sitemap: https://x.example/sm.xml\nUser-agent: *\nDisallow: /*.pdf$\nbogus line\n")
	code, out, _ := runCLI(t, "", "robots", "test", "--json", robots, "https://x.example/doc.pdf", "https://x.example/doc.pdf?load=1")
	if code != exitFailure {
		t.Fatalf("exit %d", code)
	}
	var doc struct {
		Agent   string
		Group   struct{ Selection string }
		Notes   []struct{ Line int }
		Results []struct {
			URL     string
			Allowed bool
			Line    int
			Rule    string
		}
		Sitemaps []string
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if doc.Agent != "Mandelbot" || doc.Group.Selection != "by_star" || len(doc.Results) != 2 ||
		doc.Results[0].Allowed || doc.Results[0].Line != 3 || doc.Results[0].Rule != "Disallow: /*.pdf$" ||
		!doc.Results[1].Allowed || len(doc.Sitemaps) != 1 || len(doc.Notes) == 0 || doc.Notes[0].Line != 4 {
		t.Fatalf("unexpected report: %+v", doc)
	}
}

// Issue 2: bad input gets a clear message and exit 2, and no verdict is printed for a guess.
func TestRobotsTest_BadInputExitsTwo(t *testing.T) {
	robots := writeFile(t, "robots.txt", "User-agent: *\nDisallow: /\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{"robots", "test", filepath.Join(t.TempDir(), "nope.txt"), "https://x.example/"}, "no such file"},
		{"directory", []string{"robots", "test", t.TempDir(), "https://x.example/"}, "is a directory"},
		{"no URL", []string{"robots", "test", robots}, "no URL to test"},
		{"no arguments", []string{"robots", "test"}, "requires at least 1 arg"},
		{"not a URL", []string{"robots", "test", robots, "https://x.example/ok", "example.com/page"}, `URL 2 "example.com/page"`},
		{"other scheme", []string{"robots", "test", robots, "ftp://x.example/a"}, "not an absolute http(s) URL"},
		{"missing --urls file", []string{"robots", "test", "--urls", "/nonexistent/list", robots}, "read --urls"},
		{"unknown flag", []string{"robots", "test", "--frobnicate", robots, "/a"}, "unknown flag"},
		{"empty agent", []string{"robots", "test", "--agent", "", robots, "/a"}, "--agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, "", tt.args...)
			if code != exitUsage || out != "" || !strings.Contains(errOut, tt.want) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2, no output, stderr containing %q", code, out, errOut, tt.want)
			}
		})
	}
}

// rule 11: parsing never fails, so binary junk or an HTML page is still a parse with notes.
func TestRobotsTest_JunkAndHTMLAreParsedNotCrashes(t *testing.T) {
	junk := writeFile(t, "junk", "\x00\xff\xfe\x01binary\x00junk\nDisallow /x\n")
	html := writeFile(t, "html", "<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>oops</body></html>\n")
	for _, p := range []string{junk, html} {
		code, out, errOut := runCLI(t, "", "robots", "test", "--explain", p, "https://x.example/x")
		if code != exitOK || !strings.HasPrefix(out, "ALLOWED\t") || !strings.Contains(errOut, "notes") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", filepath.Base(p), code, out, errOut)
		}
	}
}

// docs/robots-rules.md rule 21, through the CLI: a fetched robots.txt follows the crawler's status
// rules.
func TestRule21_RobotsTestFetchesWithCrawlerSemantics(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/ok/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.UserAgent(), "Mandelbot/") {
			http.Error(w, "who are you", http.StatusBadRequest)
			return
		}
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	})
	mux.HandleFunc("/gone/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "forbidden", http.StatusForbidden) })
	mux.HandleFunc("/down/robots.txt", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "busy", http.StatusServiceUnavailable) })
	mux.HandleFunc("/moved/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/ok/robots.txt", http.StatusMovedPermanently)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	tests := []struct {
		path string
		code int
		want string
	}{
		{"/ok/robots.txt", exitFailure, "DISALLOWED\t" + srv.URL + "/private\tline 2: Disallow: /private\n"},
		{"/moved/robots.txt", exitFailure, "DISALLOWED\t" + srv.URL + "/private\tline 2: Disallow: /private\n"},
		{"/gone/robots.txt", exitOK, "ALLOWED\t" + srv.URL + "/private\trobots.txt answered 403: treated as absent, everything allowed\n"},
		{"/down/robots.txt", exitFailure, "DISALLOWED\t" + srv.URL + "/private\trobots.txt answered 503: origin unreachable"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, "", "robots", "test", "--explain", srv.URL+tt.path, srv.URL+"/private")
		if code != tt.code || !strings.HasPrefix(out, tt.want) {
			t.Errorf("%s: exit %d, stdout %q (stderr %q); want exit %d and %q", tt.path, code, out, errOut, tt.code, tt.want)
		}
	}
}

func TestRobotsTest_UnreadableURLExitsTwo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	code, out, errOut := runCLI(t, "", "robots", "test", "http://"+addr+"/robots.txt", "http://"+addr+"/a")
	if code != exitUsage || out != "" || !strings.Contains(errOut, "robots.txt") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// seed 000: a robots.txt applies only to its own origin; the tester warns when asked otherwise.
func TestRobotsTest_WarnsAboutOtherOrigins(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow:\n"))
	}))
	t.Cleanup(srv.Close)
	_, _, errOut := runCLI(t, "", "robots", "test", "--explain", srv.URL+"/robots.txt", "https://elsewhere.example/a")
	if !strings.Contains(errOut, "each origin has its own robots.txt") {
		t.Fatalf("no origin warning in %q", errOut)
	}
}

// Issue 10: a robots.txt file cut at the 500 KiB limit is reported without --explain too (the
// verdicts alone would hide that later rules were not read), and --json on a file says it was
// read from a file, not "answered 0"; no internal rule number is printed.
func TestRobotsTestFileMessages(t *testing.T) {
	big := "User-agent: *\nDisallow: /a\n" + strings.Repeat("# padding padding padding padding\n", 600<<10/34) + "Disallow: /late\n"
	robots := writeFile(t, "robots.txt", big)
	code, out, errOut := runCLI(t, "", "robots", "test", robots, "https://x.example/late")
	if code != exitOK || !strings.Contains(errOut, "warning: "+robots+" is longer than 500 KiB") {
		t.Errorf("cut file without --explain: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, out, _ = runCLI(t, "", "robots", "test", "--json", robots, "https://x.example/a")
	if strings.Contains(out, "answered 0") || !strings.Contains(out, "read from a file") {
		t.Errorf("--json on a file: %s", out)
	}
	_, _, errOut = runCLI(t, "", "robots", "test", "--explain", robots, "https://x.example/a")
	if regexp.MustCompile(`\brule \d+`).MatchString(errOut) {
		t.Errorf("--explain names an internal rule number: %s", errOut)
	}
}
