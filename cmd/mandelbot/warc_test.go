package main

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/testweb"
)

// readMember gunzips the one gzip member at offset of file: the WARC record export names.
func readMember(t *testing.T, file string, offset int64) string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s at %d: %v", file, offset, err)
	}
	zr.Multistream(false)
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Issue 13: `mandelbot crawl --warc DIR` archives the crawl, and `export` names each URL's
// record ("warc":{"file","offset"}), `export --robots` each origin's robots.txt record; the
// record at that place is the URL's own. A second run with --recrawl archives revisits.
func TestCrawlWARCExportNamesRecords(t *testing.T) {
	web := startWeb(t, []testweb.Site{{Key: "a", Robots: &testweb.Page{Body: "User-agent: *\nDisallow: /private\n", ContentType: "text/plain"},
		Pages: []testweb.Page{
			{Path: "/", Title: "Home", Links: []string{"/b", "/private"}, ETag: `"h1"`},
			{Path: "/b", Title: "B", Compress: true},
		}}})
	tmp := t.TempDir()
	data, warcDir := filepath.Join(tmp, "data"), filepath.Join(tmp, "warc")
	args := append([]string{"crawl", "--data", data, "--delay", "0", "--warc", warcDir}, resolveArgs(web)...)
	if code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...); code != exitOK {
		t.Fatalf("crawl --warc: exit %d\n%s\n%s", code, out, errOut)
	}
	check := func(pass, wantType string) {
		t.Helper()
		for _, l := range exportLines(t, "--data", data) {
			w, ok := l["warc"].(map[string]any)
			if l["state"] != "fetched" {
				if ok {
					t.Errorf("%s: %v was not fetched but names a record", pass, l["url"])
				}
				continue
			}
			if !ok {
				t.Errorf("%s: fetched %v has no warc record in the export: %v", pass, l["url"], l)
				continue
			}
			rec := readMember(t, filepath.Join(warcDir, w["file"].(string)), int64(w["offset"].(float64)))
			if !strings.Contains(rec, "WARC-Target-URI: "+l["url"].(string)+"\r\n") || !strings.Contains(rec, "WARC-Type: "+wantType+"\r\n") {
				t.Errorf("%s: the record at %v is not the %s of %v:\n%.300s", pass, w, wantType, l["url"], rec)
			}
		}
		origins := exportLines(t, "--data", data, "--robots")
		if len(origins) != 1 {
			t.Fatalf("origins: %v", origins)
		}
		w, ok := origins[0]["warc"].(map[string]any)
		if !ok {
			t.Fatalf("%s: export --robots names no robots.txt record: %v", pass, origins[0])
		}
		if rec := readMember(t, filepath.Join(warcDir, w["file"].(string)), int64(w["offset"].(float64))); !strings.Contains(rec, "/robots.txt\r\n") {
			t.Errorf("%s: the robots record is %.200s", pass, rec)
		}
	}
	check("first run", "response")
	// /b has no validators: its second fetch is a response again; "/" answers 304: a revisit.
	if code, out, errOut := runCLI(t, "", append(args, "--recrawl")...); code != exitOK {
		t.Fatalf("crawl --recrawl: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, l := range exportLines(t, "--data", data) {
		if l["url"] == web.URL("a", "/") {
			w := l["warc"].(map[string]any)
			if rec := readMember(t, filepath.Join(warcDir, w["file"].(string)), int64(w["offset"].(float64))); !strings.Contains(rec, "WARC-Type: revisit\r\n") {
				t.Errorf("after --recrawl, / (304) names %.200s", rec)
			}
		}
	}
	if n := web.Count("a", "/"); n != 2 {
		t.Errorf("/ requested %d times over two runs", n)
	}
}

// Issue 13: a WARC directory that cannot be created stops the crawl before any request: exit
// 1, with the archive named in the error. (A disk that fills up during the crawl is
// internal/crawler's TestArchiveFullDiskStopsCrawl.)
func TestCrawlWARCUnwritableExitsOne(t *testing.T) {
	// A regular file where the directory should be: it fails for root too.
	web := startWeb(t, testweb.RobotsOK())
	tmp := t.TempDir()
	blocker := filepath.Join(tmp, "file")
	if err := os.WriteFile(blocker, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"crawl", "--data", filepath.Join(tmp, "data"), "--delay", "0", "--warc", filepath.Join(blocker, "warc")}, resolveArgs(web)...)
	code, out, errOut := runCLI(t, "", append(args, web.URL("a", "/"))...)
	if code != exitFailure || !strings.Contains(errOut, "archive") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 naming the archive", code, out, errOut)
	}
}
