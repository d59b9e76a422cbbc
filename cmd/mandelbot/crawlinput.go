package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
)

// maxSeedsFileLine bounds one line of a --seeds-file (a URL is at most 8 KiB once normalized;
// room for surrounding space).
const maxSeedsFileLine = 64 << 10

// readSeedsFile reads seed URLs from path ("-": stdin), one a line; blank lines and lines
// starting with # are skipped. The URLs are checked with the command-line seeds.
func readSeedsFile(path string, stdin io.Reader) ([]string, error) {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, usageErrorf("--seeds-file: %v", err)
		}
		defer f.Close()
		r = f
	}
	var seeds []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxSeedsFileLine)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		seeds = append(seeds, line)
	}
	if err := sc.Err(); err != nil {
		return nil, usageErrorf("--seeds-file %s: %v", path, err)
	}
	if len(seeds) == 0 {
		return nil, usageErrorf("--seeds-file %s holds no URL", path)
	}
	return seeds, nil
}

// compilePatterns compiles --include or --exclude values.
func compilePatterns(flag string, values []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(values))
	for _, v := range values {
		re, err := regexp.Compile(v)
		if err != nil {
			return nil, usageErrorf("%s %q is not a regular expression: %v", flag, v, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// parseHeaders turns --header 'Name: value' values into a header; the crawl refuses names it
// owns (User-Agent and the framing fields).
func parseHeaders(values []string) (http.Header, error) {
	h := http.Header{}
	for _, v := range values {
		name, value, ok := strings.Cut(v, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, usageErrorf("--header %q: want 'Name: value'", v)
		}
		h.Add(name, value)
	}
	return h, nil
}
