package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// The site answers "/" and "/index.html" with the same page and no redirect, serves files,
// and reaches nothing outside its directory.
func TestSiteServesLikeAStaticServer(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"root/index.html":     "home",
		"root/a.html":         "page a",
		"root/sub/index.html": "sub home",
		"secret.txt":          "outside",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := newSite(root)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for path, want := range map[string]struct {
		status int
		body   string
	}{
		"/":                  {200, "home"},
		"/index.html":        {200, "home"},
		"/a.html":            {200, "page a"},
		"/sub/":              {200, "sub home"},
		"/sub":               {404, ""},
		"/robots.txt":        {404, ""},
		"/../secret.txt":     {404, ""},
		"/%2e%2e/secret.txt": {404, ""},
	} {
		resp, err := client.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want.status || (want.status == 200 && string(body) != want.body) {
			t.Errorf("GET %s: %d %q, want %d %q", path, resp.StatusCode, body, want.status, want.body)
		}
	}
	n, by := s.Counts()
	if n != 8 || by[200] != 4 || by[404] != 4 {
		t.Errorf("counts %d %v", n, by)
	}
	if pages, err := htmlPages(root); err != nil || pages != 3 {
		t.Errorf("htmlPages = %d, %v", pages, err)
	}
}
