package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Corpus is the benchmark input as read from disk: every site that has a
// robots.txt file, with the URLs of its links file when it has one.
//
// The layout is the one of /work/shared/corpus: DIR/robots/SITE holds the
// robots.txt of SITE byte for byte, DIR/links/SITE (optional) holds absolute
// URLs of that site, one a line. A links file without a robots file is not a
// site of the benchmark: there is nothing to parse, so it is listed in
// OrphanLinks and otherwise ignored.
//
// A Corpus is not modified after LoadCorpus returns; it is safe to read from
// several goroutines.
type Corpus struct {
	// Sites are in lexical order of their names. Every site has a
	// robots file; URLs is nil when it has no links file.
	Sites []CorpusSite
	// OrphanLinks names the links files that have no robots file, in
	// lexical order.
	OrphanLinks []string
}

// CorpusSite is one site: its robots.txt body and the URLs seen on it.
type CorpusSite struct {
	Name   string
	Robots []byte
	// URLs are the non-empty lines of the links file with any trailing
	// CR removed, in file order; they are not validated here.
	URLs []string
}

// RobotsBytes is the total size of every robots file in the corpus.
func (c *Corpus) RobotsBytes() int {
	n := 0
	for _, s := range c.Sites {
		n += len(s.Robots)
	}
	return n
}

// LoadCorpus reads the corpus rooted at dir. DIR/robots must exist;
// DIR/links may be absent (every site then has no URLs).
func LoadCorpus(dir string) (*Corpus, error) {
	robotsDir := filepath.Join(dir, "robots")
	linksDir := filepath.Join(dir, "links")

	entries, err := os.ReadDir(robotsDir)
	if err != nil {
		return nil, fmt.Errorf("load corpus: list robots files: %w", err)
	}
	c := &Corpus{}
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		name := e.Name()
		body, err := os.ReadFile(filepath.Join(robotsDir, name))
		if err != nil {
			return nil, fmt.Errorf("load corpus: read robots file of %s: %w", name, err)
		}
		urls, err := readLinks(filepath.Join(linksDir, name))
		if err != nil {
			return nil, fmt.Errorf("load corpus: read links file of %s: %w", name, err)
		}
		seen[name] = true
		c.Sites = append(c.Sites, CorpusSite{Name: name, Robots: body, URLs: urls})
	}

	links, err := os.ReadDir(linksDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load corpus: list links files: %w", err)
	}
	for _, e := range links {
		if e.Type().IsRegular() && !seen[e.Name()] {
			c.OrphanLinks = append(c.OrphanLinks, e.Name())
		}
	}
	return c, nil
}

// readLinks returns the non-empty lines of the file at path, without their
// line ends (LF or CRLF). A missing file is no URLs, not an error.
func readLinks(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var urls []string
	for line := range bytes.SplitSeq(data, []byte{'\n'}) {
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) > 0 {
			urls = append(urls, string(line))
		}
	}
	return urls, nil
}
