package main

import (
	"bytes"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// The generated web of the kill -9 tests: kill9Origins origins of kill9Pages pages, 4 links each.
const kill9Origins, kill9Pages = 4, 60

// kill9Web starts the generated web of the kill -9 tests (kill9Origins x kill9Pages);
// the channel closes once it has answered killAfter requests. It stops with the test.
func kill9Web(t *testing.T, killAfter int) (*testweb.Web, <-chan struct{}) {
	t.Helper()
	var (
		mu      sync.Mutex
		count   int
		reached = make(chan struct{})
	)
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: kill9Origins, PagesPerOrigin: kill9Pages, LinksPerPage: 4, Seed: 7}),
		testweb.Options{OnRequest: func(testweb.Request) {
			mu.Lock()
			defer mu.Unlock()
			if count++; count == killAfter {
				close(reached)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	return web, reached
}

// crawlKilled runs this binary's main with args as a real child process and kills it with
// SIGKILL once reached closes. It fails the test unless the child died of that signal (it may
// have finished first: the web is then too small), and returns what the child printed.
func crawlKilled(t *testing.T, args []string, reached <-chan struct{}) *bytes.Buffer {
	t.Helper()
	child, out, err := crawlSignalled(t, args, reached, syscall.SIGKILL, "kill")
	if ws, ok := child.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the crawl was not killed (it may have finished first: raise the web size): %v\n%s", err, out.String())
	}
	return out
}

// crawlSignalled runs this binary's main with args as a real child process, sends it sig once
// reached closes (what names the point in a failure message), and waits for it; it returns the
// finished child, what it printed and Wait's error.
func crawlSignalled(t *testing.T, args []string, reached <-chan struct{}, sig os.Signal, what string) (*exec.Cmd, *bytes.Buffer, error) {
	t.Helper()
	child := exec.Command(os.Args[0], args...)
	child.Env = append(os.Environ(), envRunMain+"=1")
	var out bytes.Buffer
	child.Stdout, child.Stderr = &out, &out
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached:
	case <-time.After(60 * time.Second):
		child.Process.Kill()
		t.Fatalf("the crawl never reached the %s point:\n%s", what, out.String())
	}
	if err := child.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	return child, &out, child.Wait()
}
