package main

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// serveStartBudget bounds how long a test waits for `serve` to print its address.
const serveStartBudget = 10 * time.Second

// lines is a writer that hands each complete line to a channel, so a test can wait for the
// "Serving on" line instead of sleeping.
type lines struct {
	mu  sync.Mutex
	buf []byte
	all strings.Builder
	ch  chan string
}

func newLines() *lines { return &lines{ch: make(chan string, 64)} }

func (l *lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all.Write(p)
	l.buf = append(l.buf, p...)
	for {
		i := strings.IndexByte(string(l.buf), '\n')
		if i < 0 {
			return len(p), nil
		}
		select {
		case l.ch <- string(l.buf[:i]):
		default: // nobody is waiting for more lines; they are still in all
		}
		l.buf = l.buf[i+1:]
	}
}

func (l *lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.all.String()
}

// waitServing reads lines until "Serving on http://ADDR" and returns the base URL.
func waitServing(t *testing.T, ch <-chan string, done <-chan error, output func() string) string {
	t.Helper()
	deadline := time.NewTimer(serveStartBudget)
	defer deadline.Stop()
	for {
		select {
		case line := <-ch:
			if base, ok := strings.CutPrefix(line, "Serving on "); ok {
				return base
			}
		case err := <-done:
			t.Fatalf("serve ended before listening: %v\n%s", err, output())
		case <-deadline.C:
			t.Fatalf("serve printed no address within %s:\n%s", serveStartBudget, output())
		}
	}
}

func httpGet(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// `mandelbot serve --addr 127.0.0.1:0` prints the address it really bound, serves GET
// /api/search with exactly what `mandelbot search --json` prints (docs/design.md: one JSON shape for
// CLI and API), and stops cleanly when its context ends.
func TestServeAPIMatchesSearchJSONAndStops(t *testing.T) {
	data, _ := crawlHostile(t)
	_, want, _ := runCLI(t, "", "search", "--data", data, "--json", "quasar")

	out := newLines()
	root := newRootCommand()
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--data", data})
	root.SetOut(out)
	root.SetErr(out)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	base := waitServing(t, out.ch, done, out.String)
	if !strings.HasPrefix(base, "http://127.0.0.1:") || strings.HasSuffix(base, ":0") {
		t.Fatalf("printed address %q: want the port actually bound", base)
	}

	code, got := httpGet(t, base+"/api/search?q=quasar")
	if code != http.StatusOK || got != want {
		t.Errorf("GET /api/search: %d\n%s\nwant exactly what `search --json` prints:\n%s", code, got, want)
	}
	if code, body := httpGet(t, base+"/?q="+url.QueryEscape("quasar vault")); code != http.StatusOK || !strings.Contains(body, "not crawled · blocked by robots.txt") {
		t.Errorf("GET /?q=quasar+vault: %d, no link-only marker", code)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve returned %v", err)
		}
	case <-time.After(serveShutdownTimeout + 5*time.Second):
		t.Fatal("serve did not stop after its context ended")
	}
	if !strings.HasSuffix(out.String(), "Stopped.\n") {
		t.Errorf("output %q", out.String())
	}
	if _, err := http.Get(base + "/"); err == nil {
		t.Error("the server still answers after stopping")
	}
}

// SIGTERM (and SIGINT) stop the real process gracefully, with exit status 0.
func TestServeStopsOnSIGTERM(t *testing.T) {
	data, _ := crawlHostile(t)
	child := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--data", data)
	child.Env = append(os.Environ(), envRunMain+"=1")
	stdout, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := newLines() // written by exec's copying goroutine: read it only through its lock
	child.Stderr = stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { child.Process.Kill() }) // a no-op once it has exited
	ch, ended := make(chan string, 64), make(chan error, 1)
	var printed strings.Builder
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			printed.WriteString(sc.Text() + "\n")
			ch <- sc.Text()
		}
		ended <- child.Wait()
	}()
	base := waitServing(t, ch, ended, stderr.String)
	if code, _ := httpGet(t, base+"/dashboard"); code != http.StatusOK {
		t.Fatalf("GET /dashboard: %d", code)
	}
	if err := child.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		if err != nil {
			t.Fatalf("after SIGTERM: %v\n%s", err, stderr.String())
		}
	case <-time.After(serveShutdownTimeout + 5*time.Second):
		t.Fatal("serve did not exit after SIGTERM")
	}
	if got := printed.String(); !strings.HasSuffix(got, "Stopped.\n") {
		t.Errorf("stdout %q", got)
	}
}

func TestServeUsageErrors(t *testing.T) {
	data, _ := crawlHostile(t)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--data", data, "--addr", "8080"}, "--addr"},
		{[]string{"serve", "--data", data, "--agent", "Mandel bot"}, "--agent"},
		{[]string{"serve", "--data", data, "--agent", ""}, "--agent"},
		{[]string{"serve", "--data", data + "/nope", "--addr", "127.0.0.1:0"}, "no crawl at"},
		{[]string{"serve", "--data", data, "extra"}, "unknown command"},
		{[]string{"serve", "--data", data, "--resolve", "a.test:80"}, "--resolve"},
	} {
		if code, _, errOut := runCLI(t, "", tt.args...); code != exitUsage || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tt.args, code, errOut, exitUsage, tt.want)
		}
	}
}

// Only loopback addresses are quiet: the pages show everything the crawl learned.
func TestServeExposureWarning(t *testing.T) {
	for _, tt := range []struct {
		addr string
		warn bool
	}{
		{"127.0.0.1:8080", false}, {"127.0.0.2:80", false}, {"[::1]:8080", false}, {"localhost:8080", false}, {"LocalHost:1", false},
		{":8080", true}, {"0.0.0.0:8080", true}, {"[::]:8080", true}, {"192.168.1.5:8080", true}, {"example.com:80", true},
		{"localhoſt:80", true},
	} {
		if got := exposure(tt.addr) != ""; got != tt.warn {
			t.Errorf("exposure(%q) warns = %v, want %v", tt.addr, got, tt.warn)
		}
	}
}

// net/http sets no timeouts by default (docs/design.md traps); serve sets every one.
func TestServeHTTPServerLimits(t *testing.T) {
	s := newHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler))
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 || s.MaxHeaderBytes <= 0 {
		t.Errorf("server limits unset: %+v", s)
	}
	if s.WriteTimeout <= serveReadHeaderTimeout || s.MaxHeaderBytes < 32<<10 {
		t.Errorf("WriteTimeout %s, MaxHeaderBytes %d", s.WriteTimeout, s.MaxHeaderBytes)
	}
}

// Issue 27, part 5: the tester of `mandelbot serve` fetches a robots.txt by URL with the
// crawler's address protections: a loopback site is refused (403) unless serve was started with
// --resolve for its host (or --allow-private); the fetch then sends the crawler's User-Agent.
func TestServeTesterFetchPermissions(t *testing.T) {
	data, web := crawlHostile(t)
	direct := "http://" + web.Addr("a") + "/robots.txt" // 127.0.0.1:PORT
	for _, tt := range []struct {
		flags     []string
		robotsURL string
		code      int
		want      string
	}{
		{nil, direct, http.StatusForbidden, "loopback or private"},
		{resolveArgs(web), direct, http.StatusForbidden, "loopback or private"}, // --resolve allows only what it pins
		{resolveArgs(web), web.URL("a", "/robots.txt"), http.StatusOK, "DISALLOWED"},
		{[]string{"--allow-private"}, direct, http.StatusOK, "DISALLOWED"},
	} {
		check := "/robots?" + url.Values{"robots_url": {tt.robotsURL}, "urls": {"/vault/x"}}.Encode()
		out := newLines()
		root := newRootCommand()
		root.SetArgs(append([]string{"serve", "--addr", "127.0.0.1:0", "--data", data}, tt.flags...))
		root.SetOut(out)
		root.SetErr(out)
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- root.ExecuteContext(ctx) }()
		base := waitServing(t, out.ch, done, out.String)
		before := web.Count("a", "/robots.txt")
		code, body := httpGet(t, base+check)
		if code != tt.code || !strings.Contains(body, tt.want) {
			t.Errorf("serve %v: GET %s: %d, want %d and %q", tt.flags, check, code, tt.code, tt.want)
		}
		if n := web.Count("a", "/robots.txt") - before; (tt.code == http.StatusOK) != (n == 1) {
			t.Errorf("serve %v: %d robots.txt request(s)", tt.flags, n)
		}
		cancel()
		<-done
	}
	for _, r := range web.RequestsTo("a") {
		if r.Path == "/robots.txt" && !strings.HasPrefix(r.Header.Get("User-Agent"), "Mandelbot") {
			t.Errorf("User-Agent %q", r.Header.Get("User-Agent"))
		}
	}
}
