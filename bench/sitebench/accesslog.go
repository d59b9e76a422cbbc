package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

// logEntry is one line of the access log (accessLogFormat).
type logEntry struct {
	Status    int
	Bytes     int64
	Method    string
	URI       string // path and query as requested
	UserAgent string
}

// parseLogLine splits one access log line; false when it is not in accessLogFormat.
func parseLogLine(line string) (logEntry, bool) {
	f := strings.Split(strings.TrimRight(line, "\r\n"), "\t")
	if len(f) != 6 {
		return logEntry{}, false
	}
	status, err1 := strconv.Atoi(f[1])
	n, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil {
		return logEntry{}, false
	}
	return logEntry{Status: status, Bytes: n, Method: f[3], URI: f[4], UserAgent: f[5]}, true
}

// readLog returns the entries of the access log at path from byte offset from on, and the
// offset of its end: each program's requests are the lines written while it ran.
func readLog(path string, from int64) ([]logEntry, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, from, fmt.Errorf("read access log: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, from, fmt.Errorf("read access log: %w", err)
	}
	var out []logEntry
	r := bufio.NewReader(f)
	end := from
	for {
		line, err := r.ReadString('\n')
		if len(line) > 0 && strings.HasSuffix(line, "\n") {
			end += int64(len(line))
			e, ok := parseLogLine(line)
			if !ok {
				return nil, end, fmt.Errorf("read access log: line %q is not in the bench's format", line)
			}
			out = append(out, e)
		}
		if err == io.EOF {
			return out, end, nil // a partial last line is left for the next read
		}
		if err != nil {
			return nil, end, fmt.Errorf("read access log: %w", err)
		}
	}
}

// maxExamples bounds the example URIs a tally keeps of each kind.
const maxExamples = 5

// siteTally counts what one program asked the site for.
type siteTally struct {
	Requests int
	Pages    int   // HTML documents answered 200: a path ending in ".html" or "/"
	Robots   int   // requests for /robots.txt
	NonOK    int   // answers other than 200 (404 for a broken link, 304, ...)
	Repeated int   // requests for a method and URI already requested
	Bytes    int64 // body bytes sent
	// Disallowed counts requests under the directory robots.txt disallows.
	Disallowed int

	DisallowedSeen, RepeatedSeen, NonOKSeen []string
	ok                                      map[string]bool // URIs answered 200
}

// tallyLog counts entries; disallow is the directory robots.txt disallows ("/tutorial/").
func tallyLog(entries []logEntry, disallow string) siteTally {
	t := siteTally{ok: make(map[string]bool)}
	note := func(list *[]string, s string) {
		if len(*list) < maxExamples {
			*list = append(*list, s)
		}
	}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		t.Requests++
		t.Bytes += e.Bytes
		id := e.Method + " " + e.URI
		if seen[id] {
			t.Repeated++
			note(&t.RepeatedSeen, e.URI)
		}
		seen[id] = true
		path, _, _ := strings.Cut(e.URI, "?")
		switch {
		case path == "/robots.txt":
			t.Robots++
		case strings.HasPrefix(path, disallow):
			t.Disallowed++
			note(&t.DisallowedSeen, e.URI)
		}
		if e.Status != 200 {
			t.NonOK++
			note(&t.NonOKSeen, strconv.Itoa(e.Status)+" "+e.URI)
			continue
		}
		t.ok[e.URI] = true
		if strings.HasSuffix(path, ".html") || strings.HasSuffix(path, "/") {
			t.Pages++
		}
	}
	return t
}

// onlyIn returns how many URIs a answered 200 that b never got a 200 for, and a few examples.
func onlyIn(a, b siteTally) (int, []string) {
	var all []string
	for u := range a.ok {
		if !b.ok[u] {
			all = append(all, u)
		}
	}
	slices.Sort(all)
	return len(all), all[:min(len(all), maxExamples)]
}
