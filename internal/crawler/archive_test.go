package crawler

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	gowarc "github.com/internetarchive/gowarc"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/warc"
)

// captureClient is e.client with fetch.Options.Capture on, as a crawl that archives needs.
func (e *env) captureClient() *fetch.Client {
	e.t.Helper()
	return e.clientWith(true)
}

// archiveRun runs one crawl of seeds that archives into a, and returns Run's answer.
func (e *env) archiveRun(a Archive, seeds []string, tune func(*Options)) (Stats, error) {
	e.t.Helper()
	opts := Options{Fetcher: e.captureClient(), Store: e.store, Clock: e.clock, MaxDepth: -1, Concurrency: 4, Archive: a}
	for _, s := range seeds {
		opts.Seeds = append(opts.Seeds, e.web.Expand(s))
	}
	if tune != nil {
		tune(&opts)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return Run(ctx, opts)
}

// archiveSites is a small web with everything a crawl archives: robots.txt naming a sitemap,
// the sitemap, HTML pages, a gzip-encoded page, a 404, and an https origin (TLS below the
// capture, HTTP/1.1 on the wire although the server offers HTTP/2).
func archiveSites() []testweb.Site {
	return []testweb.Site{
		{Key: "a", Robots: &testweb.Page{Body: "User-agent: *\nDisallow: /private\nSitemap: {a}/sitemap.xml\n", ContentType: "text/plain"},
			Pages: []testweb.Page{
				{Path: "/", Title: "Home", Text: "welcome", Links: []string{"/compressed", "/gone", "/private", "{b}/"}},
				{Path: "/compressed", Title: "Squeezed", Text: strings.Repeat("compressible words ", 200), Compress: true},
				{Path: "/gone", Status: 404},
				{Path: "/private", Title: "never"},
				{Path: "/from-sitemap", Title: "Listed", Text: "only the sitemap names me"},
				{Path: "/sitemap.xml", ContentType: "application/xml", Body: `<?xml version="1.0" encoding="UTF-8"?>` +
					`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{a}/from-sitemap</loc></url></urlset>`},
			}},
		{Key: "b", TLS: true, Pages: []testweb.Page{{Path: "/", Title: "Secure", Text: "over tls"}}},
	}
}

// readRecord is one WARC record as gowarc, the independent reader, read it.
type readRecord struct {
	file   string
	offset int64
	header map[string]string
	block  []byte
}

func (r readRecord) get(k string) string { return gowarc.Header(r.header).Get(k) }

// readArchive reads every WARC file of dir with gowarc (github.com/internetarchive/gowarc) and
// checks each record's digests as that reader computes them: WARC-Block-Digest over the block,
// and WARC-Payload-Digest over the HTTP body of response records (issue 13, "every record's
// digests verify").
func readArchive(t *testing.T, dir string) []readRecord {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no WARC file in %s (%v)", dir, err)
	}
	var out []readRecord
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := gowarc.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := rd.ReadRecord()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: gowarc: %v", path, err)
			}
			block, err := io.ReadAll(rec.Content)
			if err != nil {
				t.Fatal(err)
			}
			rec.Content.Close()
			r := readRecord{file: filepath.Base(path), offset: rec.Offset, header: rec.Header, block: block}
			if got, _ := gowarc.GetDigest(bytes.NewReader(block), gowarc.SHA1); got != r.get("WARC-Block-Digest") {
				t.Errorf("%s %s: WARC-Block-Digest %q, the block hashes to %q", r.get("WARC-Type"), r.get("WARC-Target-URI"), r.get("WARC-Block-Digest"), got)
			}
			if r.get("WARC-Type") == "response" {
				_, payload, ok := bytes.Cut(block, []byte("\r\n\r\n"))
				got, _ := gowarc.GetDigest(bytes.NewReader(payload), gowarc.SHA1)
				if !ok || got != r.get("WARC-Payload-Digest") {
					t.Errorf("response %s: WARC-Payload-Digest %q, the payload hashes to %q", r.get("WARC-Target-URI"), r.get("WARC-Payload-Digest"), got)
				}
			}
			out = append(out, r)
		}
		rd.Close()
		f.Close()
	}
	return out
}

// recordAtRef reads the one record a store.WARCRef names, by seeking to its gzip member.
func recordAtRef(t *testing.T, dir string, ref store.WARCRef) (map[string]string, []byte) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, ref.File))
	if err != nil {
		t.Fatalf("%+v: %v", ref, err)
	}
	defer f.Close()
	if _, err := f.Seek(ref.Offset, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	rd, err := gowarc.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	rec, err := rd.ReadRecord()
	if err != nil {
		t.Fatalf("%+v: gowarc: %v", ref, err)
	}
	defer rec.Content.Close()
	block, err := io.ReadAll(rec.Content)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Header, block
}

// Issue 13, "What it must show": the WARC files of a testweb crawl, read back by an independent
// reader (gowarc): every record's digests verify; every fetched URL has exactly one response or
// revisit record, the one the store names; the bytes of a gzip-encoded response are the
// compressed bytes the server sent; robots.txt and the sitemap are archived too; requests and
// responses are linked by WARC-Concurrent-To and carry WARC-IP-Address.
func TestArchiveCrawlReadBackIndependently(t *testing.T) {
	e := newEnv(t, archiveSites())
	dir := t.TempDir()
	w, err := warc.New(warc.Options{Dir: dir, Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.archiveRun(w, []string{"{a}/", "{b}/"}, nil); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	e.checkGate()
	recs := readArchive(t, dir)

	byID := map[string]readRecord{}
	answers := map[string][]readRecord{} // target URI -> response and revisit records
	types := map[string]int{}
	for _, r := range recs {
		byID[r.get("WARC-Record-ID")] = r
		types[r.get("WARC-Type")]++
		if typ := r.get("WARC-Type"); typ == "response" || typ == "revisit" {
			answers[r.get("WARC-Target-URI")] = append(answers[r.get("WARC-Target-URI")], r)
		}
	}
	if types["warcinfo"] < 1 || types["request"] != types["response"]+types["revisit"] {
		t.Errorf("record types %v: want a warcinfo and one request per response", types)
	}
	for _, r := range recs {
		typ := r.get("WARC-Type")
		if typ != "response" && typ != "request" {
			continue
		}
		other, ok := byID[r.get("WARC-Concurrent-To")]
		if !ok || other.get("WARC-Concurrent-To") != r.get("WARC-Record-ID") || other.get("WARC-Target-URI") != r.get("WARC-Target-URI") {
			t.Errorf("%s %s: WARC-Concurrent-To %q names no %s record of it", typ, r.get("WARC-Target-URI"), r.get("WARC-Concurrent-To"), map[string]string{"response": "request", "request": "response"}[typ])
		}
		if r.get("WARC-IP-Address") != "127.0.0.1" {
			t.Errorf("%s %s: WARC-IP-Address %q", typ, r.get("WARC-Target-URI"), r.get("WARC-IP-Address"))
		}
		if r.get("WARC-Date") == "" {
			t.Errorf("%s %s: no WARC-Date", typ, r.get("WARC-Target-URI"))
		}
	}

	fetched := 0
	for _, u := range e.urls() {
		if u.FetchedAt.IsZero() {
			if !u.WARC.IsZero() {
				t.Errorf("%s was never fetched but names the record %+v", u.URL, u.WARC)
			}
			continue
		}
		fetched++
		got := answers[u.URL]
		if len(got) != 1 {
			t.Errorf("%s (fetched, %d): %d response or revisit records, want 1", u.URL, u.Status, len(got))
			continue
		}
		if u.WARC.File != got[0].file || u.WARC.Offset != got[0].offset || u.WARC.RecordID != got[0].get("WARC-Record-ID") {
			t.Errorf("%s: the store names %+v, the record is %s at %d (%s)", u.URL, u.WARC, got[0].file, got[0].offset, got[0].get("WARC-Record-ID"))
		}
		h, _ := recordAtRef(t, dir, u.WARC)
		if gowarc.Header(h).Get("WARC-Target-URI") != u.URL {
			t.Errorf("%s: the record at its ref is for %q", u.URL, gowarc.Header(h).Get("WARC-Target-URI"))
		}
	}
	if fetched < 6 {
		t.Errorf("only %d URLs fetched; the web has 6 pages to archive", fetched)
	}

	// robots.txt and the sitemap are archived, and the origin names its robots.txt record.
	robotsURL := e.web.URL("a", "/robots.txt")
	if len(answers[robotsURL]) != 1 {
		t.Errorf("%s: %d records, want 1", robotsURL, len(answers[robotsURL]))
	}
	o, ok, err := e.store.Origin(context.Background(), e.web.Origin("a"))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if o.Robots.WARC.IsZero() || len(answers[robotsURL]) == 1 && o.Robots.WARC.RecordID != answers[robotsURL][0].get("WARC-Record-ID") {
		t.Errorf("origin a names robots.txt record %+v", o.Robots.WARC)
	}
	if len(answers[e.web.URL("a", "/sitemap.xml")]) != 1 {
		t.Errorf("the sitemap has %d records, want 1", len(answers[e.web.URL("a", "/sitemap.xml")]))
	}

	// The gzip-encoded page: the record holds the compressed body as sent, not the decoded one.
	comp := answers[e.web.URL("a", "/compressed")]
	if len(comp) == 1 {
		head, payload, _ := bytes.Cut(comp[0].block, []byte("\r\n\r\n"))
		resp, err := http.ReadResponse(bufioReader(head), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("Content-Encoding") != "gzip" || !bytes.HasPrefix(payload, []byte{0x1f, 0x8b}) {
			t.Errorf("/compressed: Content-Encoding %q, payload starts % x: not the gzip bytes sent", resp.Header.Get("Content-Encoding"), payload[:min(4, len(payload))])
		}
		if cl := resp.Header.Get("Content-Length"); cl != "" && cl != itoa(len(payload)) {
			t.Errorf("/compressed: Content-Length %s, payload %d bytes", cl, len(payload))
		}
		zr, err := gzip.NewReader(bytes.NewReader(payload))
		if err != nil {
			t.Fatal(err)
		}
		plain, err := io.ReadAll(zr)
		if err != nil || !bytes.Contains(plain, []byte("compressible words compressible words")) {
			t.Errorf("/compressed: the recorded gzip body does not decode to the page (%v)", err)
		}
	}
	// The https origin went over HTTP/1.1, TLS below the recording: the record is plaintext.
	for _, r := range answers[e.web.URL("b", "/")] {
		if !bytes.HasPrefix(r.block, []byte("HTTP/1.1 200")) {
			t.Errorf("https page recorded as %q", r.block[:min(20, len(r.block))])
		}
	}
}

func bufioReader(head []byte) *bufioR { return newBufioR(append(head, "\r\n\r\n"...)) }

// failingFS is a WARC directory on a disk that fills up: once limit bytes were written, Write
// fails with ENOSPC (having written nothing); with syncErr set, every Sync fails with it.
type failingFS struct {
	warc.FS
	mu      sync.Mutex
	written int64
	limit   int64
	syncErr error
}

func (f *failingFS) Create(name string) (warc.File, error) {
	file, err := f.FS.Create(name)
	if err != nil {
		return nil, err
	}
	return &failingFile{File: file, fs: f}, nil
}

type failingFile struct {
	warc.File
	fs *failingFS
}

func (f *failingFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if f.fs.limit > 0 && f.fs.written+int64(len(p)) > f.fs.limit {
		return 0, &os.PathError{Op: "write", Path: "warc", Err: syscall.ENOSPC}
	}
	f.fs.written += int64(len(p))
	return f.File.Write(p)
}

func (f *failingFile) Sync() error {
	if f.fs.syncErr != nil {
		return f.fs.syncErr
	}
	return f.File.Sync()
}

// Issue 13: "A full-disk test (...) stops the crawl with a clear error, and nothing is recorded
// as archived that is not." A write that fails (ENOSPC) or a sync that fails (EIO) ends the run
// with that error; every URL whose outcome was saved names a record that is in the file, and no
// fetched URL was saved without its record.
func TestArchiveFullDiskStopsCrawl(t *testing.T) {
	for _, tc := range []struct {
		name string
		fs   func(dir string) *failingFS
		want error
	}{
		{"write ENOSPC", func(dir string) *failingFS { return &failingFS{FS: warc.DirFS(dir), limit: 6000} }, syscall.ENOSPC},
		{"sync EIO", func(dir string) *failingFS { return &failingFS{FS: warc.DirFS(dir), syncErr: syscall.EIO} }, syscall.EIO},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, archiveSites())
			dir := t.TempDir()
			w, err := warc.New(warc.Options{FS: tc.fs(dir), Now: e.clock.Now})
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.archiveRun(w, []string{"{a}/"}, func(o *Options) { o.Concurrency = 1 })
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "archive") {
				t.Fatalf("Run: %v; want an archive error wrapping %v", err, tc.want)
			}
			w.Close()
			named := 0
			for _, u := range e.urls() {
				if !u.FetchedAt.IsZero() && u.WARC.IsZero() {
					t.Errorf("%s saved as fetched without its WARC record", u.URL)
				}
				if u.WARC.IsZero() {
					continue
				}
				named++
				h, _ := recordAtRef(t, dir, u.WARC)
				if gowarc.Header(h).Get("WARC-Record-ID") != u.WARC.RecordID {
					t.Errorf("%s names %+v, which is not in the file", u.URL, u.WARC)
				}
			}
			if tc.want == syscall.EIO && named != 0 {
				t.Errorf("%d URLs name records although no sync ever succeeded", named)
			}
			t.Logf("%d URLs named durable records before the crawl stopped", named)
		})
	}
}

type bufioR = bufio.Reader

func newBufioR(b []byte) *bufio.Reader { return bufio.NewReader(bytes.NewReader(b)) }

func itoa(n int) string { return strconv.Itoa(n) }
