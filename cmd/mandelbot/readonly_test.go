package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// nobody is the unprivileged user the read-only tests run the command as (the tests run as
// root, whom file permissions do not stop).
const nobody = 65534

// asNobody returns the command `mandelbot ARGS...` run as nobody, from a copy of the test
// binary nobody may execute.
func asNobody(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to run a child as another user")
	}
	dir, err := os.MkdirTemp("", "mandelbot-bin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "mandelbot")
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, self, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), envRunMain+"=1", "HOME=/")
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return cmd
}

// readOnlyCopy copies the crawl in data to a directory nobody can read but not write: the
// database 0444 in a 0555 directory, as a user without write permission sees a crawl.
func readOnlyCopy(t *testing.T, data string) string {
	t.Helper()
	parent, err := os.MkdirTemp("", "mandelbot-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(parent, "data"), 0o755); os.RemoveAll(parent) })
	dir := filepath.Join(parent, "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || strings.HasSuffix(e.Name(), ".lock") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(data, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o444); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{parent, dir} {
		if err := os.Chmod(d, 0o555); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Issue 10, "read-only really read-only": search, export and serve work for a user who may
// only read the crawl (README: they open the store read-only).
func TestReadOnlyCommandsForUserWithoutWritePermission(t *testing.T) {
	data, _ := crawlHostile(t)
	ro := readOnlyCopy(t, data)
	for _, args := range [][]string{
		{"search", "--data", ro, "quasar"},
		{"export", "--data", ro},
		{"export", "--data", ro, "--robots"},
	} {
		out, err := asNobody(t, args...).CombinedOutput()
		if err != nil || (args[0] == "search" && !strings.Contains(string(out), "quasar")) {
			t.Errorf("%v as a user without write permission: %v\n%s", args, err, out)
		}
	}

	serve := asNobody(t, "serve", "--addr", "127.0.0.1:0", "--data", ro)
	stdout, err := serve.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	serve.Stderr = serve.Stdout
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { serve.Process.Signal(syscall.SIGTERM); serve.Wait() }()
	lines := bufio.NewScanner(stdout)
	var base string
	for lines.Scan() {
		if addr, ok := strings.CutPrefix(lines.Text(), "Serving on "); ok {
			base = addr
			break
		}
		t.Log(lines.Text())
	}
	if base == "" {
		t.Fatal("serve did not start")
	}
	go io.Copy(io.Discard, stdout)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, path := range []string{"/?q=quasar", "/dashboard", "/metrics", "/api/search?q=quasar"} {
		req, _ := http.NewRequestWithContext(ctx, "GET", base+path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s as a user without write permission: %d\n%s", path, resp.StatusCode, body)
		}
	}
}

// Issue 10: the same user reads the crawl while a crawl run by another user writes it (its
// files readable, its directory not writable): the WAL reader cannot write the shared-memory
// file, yet sees what the crawl has saved.
func TestReadOnlyCommandsBesideRunningCrawl(t *testing.T) {
	web := startWeb(t, testweb.PagePaused(503, testweb.RetrySeconds))
	parent, err := os.MkdirTemp("", "mandelbot-live-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(parent, "data")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	root := newRootCommand()
	root.SetArgs(append(append([]string{"crawl", "--data", data, "--delay", "0"}, resolveArgs(web)...), web.URL("a", "/")))
	root.SetOut(io.Discard)
	root.SetErr(&logs)
	ran := make(chan error, 1)
	go func() { ran <- root.ExecuteContext(ctx) }()
	defer func() { cancel(); <-ran }()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(logs.String(), "origin paused") {
		if time.Now().After(deadline) {
			t.Fatalf("the crawl never paused:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond) // polling for the crawl's log line, not waiting out a pause
	}
	if _, err := os.Stat(filepath.Join(data, "crawl.db-shm")); err != nil {
		t.Fatalf("the running crawl has no shared-memory file: %v", err)
	}
	home := web.URL("a", "/")
	out, err := asNobody(t, "export", "--data", data).CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"url":"`+home+`"`) || !strings.Contains(string(out), `"state":"fetched"`) {
		t.Errorf("export beside a running crawl, as a user without write permission: %v\n%s", err, out)
	}
}
