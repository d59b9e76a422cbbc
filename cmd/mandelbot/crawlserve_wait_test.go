package main

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// envRequireAll makes a missing browser a failure instead of a skip (CI installs Chromium).
const envRequireAll = "MANDELBOT_REQUIRE_ALL"

// chromiumDOM loads url in headless Chromium and returns the DOM after the page loaded, or skips
// the test when Chromium is not installed (fails under MANDELBOT_REQUIRE_ALL=1).
func chromiumDOM(t *testing.T, url string) string {
	t.Helper()
	var bin string
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		if os.Getenv(envRequireAll) == "1" {
			t.Fatal("chromium is not installed, and " + envRequireAll + "=1")
		}
		t.Skip("chromium is not installed (apt-get install chromium)")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--user-data-dir="+t.TempDir(),
		"--dump-dom", url).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom %s: %v", url, err)
	}
	return string(out)
}

// servedCrawlChild runs `crawl --serve 127.0.0.1:0` over web as a child process and returns it
// with its stdout lines and the base URL of the site once it says it serves the finished crawl.
func servedCrawlChild(t *testing.T, web *testweb.Web, extra ...string) (*exec.Cmd, *lines, <-chan error, string) {
	t.Helper()
	args := append([]string{"crawl", "--data", t.TempDir(), "--delay", "0", "--serve", "127.0.0.1:0"}, resolveArgs(web)...)
	child := exec.Command(os.Args[0], append(append(args, extra...), web.Seeds()...)...)
	child.Env = append(os.Environ(), envRunMain+"=1")
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := newLines()
	child.Stderr = stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill() }) // a no-op once it has exited
	printed, ended := newLines(), make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			printed.Write([]byte(sc.Text() + "\n"))
		}
		ended <- child.Wait()
	}()
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case line := <-printed.ch:
			if rest, ok := strings.CutPrefix(line, "Serving the finished crawl on "); ok {
				base, _, _ := strings.Cut(rest, " ")
				return child, printed, ended, base
			}
		case err := <-ended:
			t.Fatalf("crawl --serve ended without serving the finished crawl: %v\n%s\n%s", err, printed.String(), stderr.String())
		case <-deadline.C:
			t.Fatalf("crawl --serve never said it serves the finished crawl:\n%s\n%s", printed.String(), stderr.String())
		}
	}
}

// Issue 27, part 5: `crawl --serve` keeps serving the finished crawl until Ctrl-C, and says so on
// the terminal with the address and how to stop; the site shows the finished crawl (in Chromium),
// /metrics the Go and process collectors, and the tester fetches with the crawl's permissions. Ctrl-C in that phase does not change the crawl's
// exit status: 0 for a crawl that finished, 3 for one stopped at --max-pages, never 130.
func TestCrawlServeKeepsServingUntilCtrlC(t *testing.T) {
	for _, tt := range []struct {
		name  string
		extra []string
		code  int
	}{
		{"done", nil, exitOK},
		{"at a limit", []string{"--max-pages", "1"}, exitStopped},
	} {
		t.Run(tt.name, func(t *testing.T) {
			web := startWeb(t, hostileSite())
			child, printed, ended, base := servedCrawlChild(t, web, tt.extra...)
			if out := printed.String(); !strings.Contains(out, "Ctrl-C") || !strings.Contains(out, "--serve-exit") {
				t.Errorf("the terminal does not say how to stop:\n%s", out)
			}
			if !strings.Contains(printed.String(), "Exit status "+map[int]string{0: "0", 3: "3"}[tt.code]) {
				t.Errorf("the summary came after the serving line, or says another status:\n%s", printed.String())
			}
			if code, metrics := httpGet(t, base+"/metrics"); code != 200 ||
				!strings.Contains(metrics, "process_resident_memory_bytes") || !strings.Contains(metrics, "go_goroutines") ||
				!strings.Contains(metrics, "mandelbot_urls{") {
				t.Errorf("/metrics of the finished crawl: %d, lacks the store, Go or process metrics", code)
			}
			// The tester fetches with the crawl's own permissions: --resolve pins the site to loopback.
			check := base + "/robots?" + url.Values{"robots_url": {web.URL("a", "/robots.txt")}, "urls": {"/vault/x"}}.Encode()
			if code, body := httpGet(t, check); code != http.StatusOK || !strings.Contains(body, "DISALLOWED") {
				t.Errorf("the tester of crawl --serve: %d, no verdict for the crawled site's robots.txt", code)
			}
			dom := chromiumDOM(t, base+"/dashboard")
			if !strings.Contains(dom, web.Origin("a")) {
				t.Errorf("the dashboard in Chromium does not show the crawled origin %s", web.Origin("a"))
			}
			select {
			case err := <-ended:
				t.Fatalf("the command ended by itself while it should serve: %v", err)
			default:
			}
			if err := child.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			var code int
			select {
			case err := <-ended:
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
			case <-time.After(serveShutdownTimeout + 5*time.Second):
				t.Fatal("crawl --serve did not stop after Ctrl-C")
			}
			if code != tt.code {
				t.Errorf("exit status %d after Ctrl-C while serving the finished crawl, want the crawl's %d\n%s", code, tt.code, printed.String())
			}
			if !strings.HasSuffix(printed.String(), "Stopped.\n") {
				t.Errorf("stdout does not end with Stopped.:\n%s", printed.String())
			}
		})
	}
}

// Issue 27, part 5: --serve-exit restores the stop-when-done behaviour; it needs --serve.
func TestCrawlServeExit(t *testing.T) {
	web := startWeb(t, hostileSite())
	args := append([]string{"crawl", "--data", t.TempDir(), "--delay", "0", "--serve", "127.0.0.1:0", "--serve-exit"}, resolveArgs(web)...)
	done := make(chan struct{})
	var code int
	var out, errOut string
	go func() {
		defer close(done)
		code, out, errOut = runCLI(t, "", append(args, web.Seeds()...)...)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("crawl --serve --serve-exit did not end when the crawl did")
	}
	if code != exitOK || strings.Contains(out, "Serving the finished crawl") || !strings.Contains(out, "Stopped.") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "", "crawl", "--data", t.TempDir(), "--serve-exit", "http://a.test/"); code != exitUsage || !strings.Contains(errOut, "--serve-exit") {
		t.Errorf("--serve-exit without --serve: exit %d, %q; want a usage error naming it", code, errOut)
	}
}
