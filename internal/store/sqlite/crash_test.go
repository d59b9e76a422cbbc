package sqlite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

const (
	// envCrashDB names the database TestCrashHelper writes to; set only for the child processes
	// that TestCrashKeepsWholeBatches starts, and read only by the tests.
	envCrashDB = "MANDELBOT_SQLITE_CRASH_DB"
	// envCrashSelfKill, when set, makes the child kill itself at a random moment shortly after
	// reporting crashKillAfter batches, instead of waiting for the parent's SIGKILL.
	envCrashSelfKill = "MANDELBOT_SQLITE_CRASH_SELFKILL"
	// crashRounds is how many times a child is killed on the same database, each round resuming
	// from what the previous one left.
	crashRounds = 6
	// crashKillAfter is how many committed batches a child reports before it is killed.
	crashKillAfter = 200
	// crashSelfKillWithin bounds the random delay of a self-kill: a few batches' time, so that the
	// kill lands anywhere in a batch, not only just after a report.
	crashSelfKillWithin = 5 * time.Millisecond
	// crashMaxBatches stops a child that is never killed (its parent died).
	crashMaxBatches = 1_000_000
	// crashNewURLs is the number of new URLs in each batch.
	crashNewURLs = 10
	// crashLine is what the child prints once a batch's Commit has returned.
	crashLine = "committed %d\n"
)

// crashSeed is the URL the first batch updates; batch n updates the first URL of batch n-1.
const crashSeed = "http://crash.test/seed"

func crashURL(n, i int) string  { return fmt.Sprintf("http://crash.test/b%d/%d", n, i) }
func crashOrigin(n int) string  { return fmt.Sprintf("http://b%d.crash.test", n) }
func crashReason(n int) string  { return fmt.Sprintf("fetched by batch %d", n) }
func crashTime(n int) time.Time { return t0.Add(time.Duration(n) * time.Second) }

// crashBatch is batch n of the crash test, every part tagged with n: the update of prev (the
// page the batch's links were found on), the new URLs, and an origin record.
func crashBatch(n int, prev store.URL) store.Batch {
	prev.State, prev.Status, prev.Reason, prev.FetchedAt, prev.NextAt = store.StateFetched, 200, crashReason(n), crashTime(n), time.Time{}
	b := store.Batch{Updates: []store.URL{prev}, Origins: []store.Origin{{Key: crashOrigin(n), PauseStrikes: n}}}
	for i := range crashNewURLs {
		b.New = append(b.New, store.NewURL{URL: crashURL(n, i), Origin: "http://crash.test", Depth: n,
			State: store.StateQueued, DiscoveredAt: crashTime(n)})
	}
	return b
}

// TestCrashHelper is the child of TestCrashKeepsWholeBatches: it resumes the database after the
// last batch it holds and commits batches until it is killed, printing each batch's number once
// Commit has returned.
func TestCrashHelper(t *testing.T) {
	path := os.Getenv(envCrashDB)
	if path == "" {
		t.Skip("runs as a child process of TestCrashKeepsWholeBatches")
	}
	_, selfKill := os.LookupEnv(envCrashSelfKill)
	s, err := Open(t.Context(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	last, prev := 0, store.URL{}
	err = s.EachURL(t.Context(), func(u store.URL) error {
		var n, i int
		if _, err := fmt.Sscanf(u.URL, "http://crash.test/b%d/%d", &n, &i); err == nil && i == 0 && n > last {
			last, prev = n, u
		} else if u.URL == crashSeed && last == 0 {
			prev = u
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if prev.ID == 0 {
		seed, err := s.Commit(t.Context(), store.Batch{New: []store.NewURL{{URL: crashSeed, Origin: "http://crash.test",
			State: store.StateQueued, DiscoveredAt: t0}}})
		if err != nil {
			t.Fatal(err)
		}
		prev = seed[0]
	}
	for n := last + 1; n <= last+crashMaxBatches; n++ {
		added, err := s.Commit(t.Context(), crashBatch(n, prev))
		if err != nil {
			t.Fatalf("batch %d: %v", n, err)
		}
		if _, err := fmt.Fprintf(os.Stdout, crashLine, n); err != nil {
			t.Fatalf("batch %d: report: %v", n, err) // the parent is gone
		}
		if selfKill && n == last+crashKillAfter {
			time.AfterFunc(rand.N(crashSelfKillWithin), func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) })
		}
		prev = added[0]
	}
}

// store.Store.Commit: "either every change is durable or none is", and doc.go: WAL mode survives
// kill -9 "at any moment, losing nothing committed". A child process commits batches in a loop
// and is killed with SIGKILL after reporting crashKillAfter of them: by the parent as soon as it
// reads the report (round 1), or by itself at a random moment a few batches later (the other
// rounds, so the kill also lands inside a transaction). After each kill the store reopens (the
// lock is free again) holding every reported batch whole, and any later batch (in flight, or
// committed before the report was read) whole or not at all; the next round resumes on it.
func TestCrashKeepsWholeBatches(t *testing.T) {
	if testing.Short() {
		t.Skip("commits hundreds of batches in child processes")
	}
	path := filepath.Join(t.TempDir(), "crawl.db")
	last := 0
	for round := 1; round <= crashRounds; round++ {
		reported := runCrashChild(t, path, last, round > 1)
		s, err := Open(t.Context(), path, Options{})
		if err != nil {
			t.Fatalf("round %d: reopen after kill -9: %v", round, err)
		}
		held := checkCrashBatches(t, s)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if t.Failed() {
			t.FailNow() // the next round would resume on a broken store
		}
		if held < reported {
			t.Fatalf("round %d: the store holds batches 1..%d, the child reported %d committed", round, held, reported)
		}
		t.Logf("round %d: child reported batches %d..%d; the store holds 1..%d", round, last+1, reported, held)
		last = held
	}
}

// runCrashChild runs TestCrashHelper on path, which holds batches 1..last, until it is killed
// (by the parent after crashKillAfter reports, or by itself when selfKill), and returns the last
// batch it reported.
func runCrashChild(t *testing.T, path string, last int, selfKill bool) (reported int) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envCrashDB+"="+path)
	if selfKill {
		cmd.Env = append(cmd.Env, envCrashSelfKill+"=1")
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	reported, other := last, ""
	for sc := bufio.NewScanner(stdout); sc.Scan(); {
		var n int
		if _, err := fmt.Sscanf(sc.Text()+"\n", crashLine, &n); err != nil {
			other += sc.Text() + "\n"
			continue
		}
		if n != reported+1 {
			t.Errorf("child reported batch %d after %d", n, reported)
		}
		reported = n
		if !selfKill && reported == last+crashKillAfter {
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			break
		}
	}
	io.Copy(io.Discard, stdout)
	waitErr := cmd.Wait()
	if reported < last+crashKillAfter {
		t.Fatalf("child stopped after batch %d (%v):\n%s%s", reported, waitErr, other, stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(waitErr, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child not killed by SIGKILL: %v\n%s%s", waitErr, other, stderr.String())
	}
	return reported
}

// checkCrashBatches checks that the store holds batches 1..last whole and nothing else, and
// returns last.
func checkCrashBatches(t *testing.T, s *Store) (last int) {
	t.Helper()
	urls := map[string]store.URL{}
	if err := s.EachURL(t.Context(), func(u store.URL) error { urls[u.URL] = u; return nil }); err != nil {
		t.Fatal(err)
	}
	origins := map[string]store.Origin{}
	if err := s.EachOrigin(t.Context(), func(o store.Origin) error { origins[o.Key] = o; return nil }); err != nil {
		t.Fatal(err)
	}
	for key := range origins { // the highest batch any part of the store names
		var n int
		if _, err := fmt.Sscanf(key, "http://b%d.crash.test", &n); err == nil {
			last = max(last, n)
		}
	}
	for u := range urls {
		var n, i int
		if _, err := fmt.Sscanf(u, "http://crash.test/b%d/%d", &n, &i); err == nil {
			last = max(last, n)
		}
	}

	for n := 1; n <= last; n++ {
		var missing []string
		prev := crashSeed
		if n > 1 {
			prev = crashURL(n-1, 0)
		}
		if u := urls[prev]; u.Reason != crashReason(n) || u.State != store.StateFetched || !u.FetchedAt.Equal(crashTime(n)) {
			missing = append(missing, "update of "+prev)
		}
		for i := range crashNewURLs {
			if u, ok := urls[crashURL(n, i)]; !ok || u.Depth != n || !u.DiscoveredAt.Equal(crashTime(n)) {
				missing = append(missing, crashURL(n, i))
			}
		}
		if o, ok := origins[crashOrigin(n)]; !ok || o.PauseStrikes != n {
			missing = append(missing, "origin "+crashOrigin(n))
		}
		if len(missing) > 0 {
			t.Errorf("batch %d of %d is partial: missing %q", n, last, missing)
		}
	}
	if u := urls[crashURL(last, 0)]; u.State != store.StateQueued || u.Reason != "" {
		t.Errorf("%s updated (%q) by batch %d, which left nothing else", u.URL, u.Reason, last+1)
	}
	if want := 1 + last*crashNewURLs; len(urls) != want {
		t.Errorf("%d URLs in the store, want %d (the seed and %d batches)", len(urls), want, last)
	}
	if want := 1 + last; len(origins) != want {
		t.Errorf("%d origins in the store, want %d (crash.test and one per batch)", len(origins), want)
	}
	return last
}
