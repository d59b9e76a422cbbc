package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeFiles creates each name (a slash path under dir) with its content.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The corpus layout of /work/shared/corpus/README.md: robots/SITE byte for
// byte, links/SITE one absolute URL a line, links only for some sites.
func TestLoadCorpusLayout(t *testing.T) {
	dir := t.TempDir()
	robotsA := "\ufeffUser-agent: *\r\nDisallow: /x\r" // BOM and CR ends kept as served
	writeFiles(t, dir, map[string]string{
		"robots/b.example": "User-agent: *\nDisallow:\n",
		"robots/a.example": robotsA,
		"robots/c.example": "",
		"links/a.example":  "https://a.example/\r\n\nhttps://a.example/x?q=1\nhttps://a.example/y", // CRLF, blank line, no final LF
		"links/c.example":  "",
		"links/zz.orphan":  "https://zz.orphan/\n",
		"links/aa.orphan":  "https://aa.orphan/\n",
	})
	// A directory under robots/ is not a site.
	if err := os.Mkdir(filepath.Join(dir, "robots", "d.example"), 0o755); err != nil {
		t.Fatal(err)
	}

	c, err := LoadCorpus(dir)
	if err != nil {
		t.Fatalf("LoadCorpus: %v", err)
	}
	var names []string
	for _, s := range c.Sites {
		names = append(names, s.Name)
	}
	if want := []string{"a.example", "b.example", "c.example"}; !slices.Equal(names, want) {
		t.Fatalf("sites = %q, want %q (lexical order, regular files only)", names, want)
	}
	a, b, cc := c.Sites[0], c.Sites[1], c.Sites[2]
	if string(a.Robots) != robotsA {
		t.Errorf("a.example robots = %q, want the file byte for byte %q", a.Robots, robotsA)
	}
	if want := []string{"https://a.example/", "https://a.example/x?q=1", "https://a.example/y"}; !slices.Equal(a.URLs, want) {
		t.Errorf("a.example URLs = %q, want %q", a.URLs, want)
	}
	if b.URLs != nil {
		t.Errorf("b.example has no links file, URLs = %q, want nil", b.URLs)
	}
	if len(cc.Robots) != 0 || len(cc.URLs) != 0 {
		t.Errorf("c.example (empty files) = %q / %q, want empty", cc.Robots, cc.URLs)
	}
	if want := []string{"aa.orphan", "zz.orphan"}; !slices.Equal(c.OrphanLinks, want) {
		t.Errorf("OrphanLinks = %q, want %q", c.OrphanLinks, want)
	}
	if got, want := c.RobotsBytes(), len(robotsA)+len("User-agent: *\nDisallow:\n"); got != want {
		t.Errorf("RobotsBytes = %d, want %d", got, want)
	}
}

func TestLoadCorpusWithoutLinksDir(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"robots/a.example": "User-agent: *\n"})
	c, err := LoadCorpus(dir)
	if err != nil {
		t.Fatalf("LoadCorpus without links/: %v", err)
	}
	if len(c.Sites) != 1 || c.Sites[0].URLs != nil || c.OrphanLinks != nil {
		t.Errorf("corpus = %+v, want one site without URLs and no orphans", c)
	}
}

func TestLoadCorpusWithoutRobotsDir(t *testing.T) {
	_, err := LoadCorpus(t.TempDir())
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("LoadCorpus of an empty dir: err = %v, want one wrapping fs.ErrNotExist", err)
	}
	if !strings.Contains(err.Error(), "load corpus") {
		t.Errorf("error %q does not name the operation", err)
	}
}
