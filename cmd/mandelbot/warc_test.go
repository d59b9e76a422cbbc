package main

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
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

// recordHeader returns the WARC header fields of the record a ref names, failing the test when
// the bytes there are not one whole gzip member holding a WARC record.
func recordHeader(t *testing.T, dir string, ref store.WARCRef) map[string]string {
	t.Helper()
	rec := readMember(t, filepath.Join(dir, ref.File), ref.Offset)
	head, _, ok := strings.Cut(rec, "\r\n\r\n")
	if !ok || !strings.HasPrefix(head, "WARC/1.1\r\n") || !strings.HasSuffix(rec, "\r\n\r\n") {
		t.Fatalf("%+v: not a whole WARC record: %.200q", ref, rec)
	}
	h := map[string]string{}
	for _, line := range strings.Split(head, "\r\n")[1:] {
		k, v, _ := strings.Cut(line, ": ")
		h[k] = v
	}
	return h
}

// Issue 13: "an archived response must be a durable part of an outcome". The crawler, a real
// child process writing WARC files, is killed with SIGKILL mid-crawl; every record the store
// names (pages and robots.txt) is then whole and readable in its file, at its offset, with its
// record ID and target. A resumed run archives the rest into new files of the same directory.
func TestWARCAfterKill9(t *testing.T) {
	const killAfter = 80
	web, reached := kill9Web(t, killAfter)
	tmp := t.TempDir()
	data, warcDir := filepath.Join(tmp, "data"), filepath.Join(tmp, "warc")
	args := append([]string{"crawl", "--data", data, "--warc", warcDir, "--delay", "0", "--concurrency", "4", "--per-origin", "2"}, resolveArgs(web)...)

	out1 := crawlKilled(t, append(args, web.Seeds()...), reached)

	check := func(when string) int {
		t.Helper()
		s, err := sqlite.Open(context.Background(), filepath.Join(data, "crawl.db"), sqlite.Options{})
		if err != nil {
			t.Fatalf("%s: open the store: %v", when, err)
		}
		defer s.Close()
		named := 0
		s.EachURL(context.Background(), func(u store.URL) error {
			if u.State == store.StateFetched && u.WARC.IsZero() {
				t.Errorf("%s: %s is saved as fetched without its WARC record", when, u.URL)
			}
			if u.WARC.IsZero() {
				return nil
			}
			named++
			h := recordHeader(t, warcDir, u.WARC)
			if h["WARC-Record-ID"] != u.WARC.RecordID || h["WARC-Target-URI"] != u.URL {
				t.Errorf("%s: %s names %+v, which holds %s of %s", when, u.URL, u.WARC, h["WARC-Record-ID"], h["WARC-Target-URI"])
			}
			return nil
		})
		s.EachOrigin(context.Background(), func(o store.Origin) error {
			if r := o.Robots.WARC; !r.IsZero() {
				named++
				if h := recordHeader(t, warcDir, r); h["WARC-Record-ID"] != r.RecordID {
					t.Errorf("%s: %s's robots.txt names %+v, which holds %s", when, o.Key, r, h["WARC-Record-ID"])
				}
			}
			return nil
		})
		return named
	}
	if n := check("after kill -9"); n == 0 {
		t.Fatalf("no record was named in the store before the kill:\n%s", out1.String())
	}
	code, out2, errOut := runCLIArgs(t, args)
	if code != exitOK {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out2, errOut)
	}
	if n := check("after the resumed run"); n < kill9Origins*kill9Pages {
		t.Errorf("after the resumed run only %d records are named, want at least %d", n, kill9Origins*kill9Pages)
	}
}
