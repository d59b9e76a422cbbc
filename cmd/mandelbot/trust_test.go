package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// crawlInterrupted runs this binary's main with args as a real child process and sends it
// SIGINT (Ctrl-C) once reached closes; it returns the exit status and what the child printed.
func crawlInterrupted(t *testing.T, args []string, reached <-chan struct{}) (int, string) {
	t.Helper()
	child, out, err := crawlSignalled(t, args, reached, os.Interrupt, "interrupt")
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return child.ProcessState.ExitCode(), out.String()
}

func stateCounts(t *testing.T, data string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, l := range exportLines(t, "--data", data) {
		out[l["state"].(string)]++
	}
	return out
}

// issue 27, problem 1, its exact scenario: `crawl --allow-private --delay 100ms --max-pages 30`
// of a loopback site, interrupted with Ctrl-C, then resumed as the README says with
// `crawl --data DIR --delay 100ms --max-pages 30` (no --allow-private). The resume uses the
// crawl's saved --allow-private: it fetches pages, turns no URL into an error, and the summary
// says which settings came from the crawl. A flag given again overrides its saved value and the
// summary says so. (The delay is 10ms here: the test is about the settings, not the gap.)
func TestIssue27_ResumeWithoutAllowPrivateFetches(t *testing.T) {
	web, reached := kill9Web(t, 8)
	data := t.TempDir()
	seed := "http://" + web.Addr(testweb.GenKey(0)) + "/"
	code, out := crawlInterrupted(t, []string{"crawl", "--data", data, "--allow-private", "--delay", "10ms", "--max-pages", "30", seed}, reached)
	if code != exitInterrupted {
		t.Fatalf("first run: exit %d, want %d (interrupted)\n%s", code, exitInterrupted, out)
	}
	before := stateCounts(t, data)
	if before["queued"] == 0 {
		t.Fatalf("nothing left queued after the interrupt: %v", before)
	}
	code, stdout, stderr := runCLI(t, "", "crawl", "--data", data, "--delay", "10ms", "--max-pages", "30")
	if code != exitOK && code != exitStopped {
		t.Fatalf("resume without --allow-private: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "Settings kept from the crawl: --allow-private") {
		t.Errorf("the summary does not say --allow-private came from the crawl:\n%s", stdout)
	}
	after := stateCounts(t, data)
	if after["error"] != 0 || after["fetched"] <= before["fetched"] {
		t.Errorf("states before the resume %v, after %v: want more fetched and no error", before, after)
	}
	code, stdout, stderr = runCLI(t, "", "crawl", "--data", data, "--delay", "10ms", "--max-pages", "2")
	if code != exitOK && code != exitStopped {
		t.Fatalf("resume with --max-pages 2: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "--max-pages 2 (was 30)") {
		t.Errorf("the summary does not say --max-pages 2 replaced the crawl's 30:\n%s", stdout)
	}
	t.Logf("resume with --max-pages 2:\n%s", stdout)
}

// issue 27: a resume that would strand queued URLs is refused before any request, naming the
// flag: here an --exclude that matches URLs the crawl still has queued.
func TestIssue27_ResumeThatWouldStrandNamesTheFlag(t *testing.T) {
	web, reached := kill9Web(t, 8)
	data := t.TempDir()
	args := append([]string{"crawl", "--data", data, "--delay", "10ms"}, resolveArgs(web)...)
	code, out := crawlInterrupted(t, append(args, web.URL(testweb.GenKey(0), "/")), reached)
	if code != exitInterrupted {
		t.Fatalf("first run: exit %d\n%s", code, out)
	}
	requests := len(web.Requests())
	code, stdout, stderr := runCLI(t, "", append(args, "--exclude", "/p/")...)
	if code != exitUsage || !strings.Contains(stderr, "--exclude /p/ would strand") {
		t.Errorf("resume with an --exclude matching queued URLs: exit %d, want %d naming --exclude\n%s\n%s", code, exitUsage, stdout, stderr)
	}
	if n := len(web.Requests()) - requests; n != 0 {
		t.Errorf("%d requests sent by the refused resume", n)
	}
	t.Logf("refused resume: %s", stderr)
}

// issue 27, problem 4 ("messages a person can act on"): a seed typed without a scheme is
// answered without a package name and with the likely fix; `search` with no query says what to
// give; the summary echoes the flags given and suggests export with the user's own --data.
func TestIssue27_MessagesAPersonCanActOn(t *testing.T) {
	code, _, errOut := runCLI(t, "", "crawl", "--data", t.TempDir(), "example.com")
	if code != exitUsage || strings.Contains(errOut, "urlnorm") || !strings.Contains(errOut, "did you mean http://example.com/?") {
		t.Errorf("crawl example.com: exit %d, %q; want 2, no package name, the http://example.com/ suggestion", code, errOut)
	}
	code, _, errOut = runCLI(t, "", "search", "--data", t.TempDir())
	if code != exitUsage || strings.Contains(errOut, "arg(s)") || !strings.Contains(errOut, "give the words to search for") {
		t.Errorf("search without a query: exit %d, %q; want 2 and what to give", code, errOut)
	}
	web := startWeb(t, testweb.RobotsOK())
	data := t.TempDir()
	args := append([]string{"crawl", "--data", data, "--delay", "0", "--exclude", "/nothing here"}, resolveArgs(web)...)
	code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "mandelbot export --data "+data) || strings.Contains(out, "export --store") {
		t.Errorf("the summary does not suggest export with the --data given:\n%s", out)
	}
	if !strings.Contains(out, "Flags given: --data "+data+" --delay none --exclude '/nothing here' --resolve ") {
		t.Errorf("the summary does not echo the flags given:\n%s", out)
	}
}
