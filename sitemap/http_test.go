package sitemap

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// get fetches url from a loopback test server and parses the body.
func get(t *testing.T, url string) ([]Entry, Result, error) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", url, resp.Status)
	}
	return parseReader(t, resp.Body, Options{})
}

// Sitemaps fetched over real HTTP: gzip is recognised from the bytes, not
// from the name or the media type, and a .gz file also sent with
// Content-Encoding: gzip (which Go's client undoes once) still parses.
func TestParseOverHTTP(t *testing.T) {
	compressed := gz(t, []byte(sampleURLSet))
	mux := http.NewServeMux()
	mux.HandleFunc("/sitemap", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(compressed) // gzip, but nothing says so
	})
	mux.HandleFunc("/sitemap.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		io.WriteString(w, sampleURLSet) // named .gz, but plain XML
	})
	mux.HandleFunc("/double.xml.gz", func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			t.Errorf("client did not offer gzip")
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "application/x-gzip")
		zw := gzip.NewWriter(w)
		zw.Write(compressed)
		zw.Close()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	for _, tc := range []struct {
		path string
		gzip bool
	}{
		{"/sitemap", true},
		{"/sitemap.xml.gz", false},
		{"/double.xml.gz", true},
	} {
		got, res, err := get(t, srv.URL+tc.path)
		if err != nil || len(got) != len(sampleURLSetEntries) || res.Gzip != tc.gzip || res.Kind != URLSet {
			t.Errorf("%s: %d entries, %+v, %v; want %d entries, Gzip %v", tc.path, len(got), res, err, len(sampleURLSetEntries), tc.gzip)
		}
	}
}

// A connection that dies mid-body is a read error, not a malformed sitemap:
// Go's client reports the short body as io.ErrUnexpectedEOF, Parse wraps it,
// and the entries received before the break stand.
func TestParseConnectionDropped(t *testing.T) {
	doc := string(urlset(200))
	partial := doc[:len(doc)/2]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: %d\r\n\r\n%s", len(doc), partial)
		buf.Flush()
	}))
	t.Cleanup(srv.Close)

	got, res, err := get(t, srv.URL)
	if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrMalformed) {
		t.Fatalf("error %v, want a read error wrapping io.ErrUnexpectedEOF", err)
	}
	want := strings.Count(partial, "</url>")
	if len(got) != want || res.Kind != URLSet {
		t.Errorf("%d entries, Kind %v; want the %d complete before the break", len(got), res.Kind, want)
	}
}

// A server that sends a body far over the decoded-size limit is cut at the
// limit, and the count of entries matches the bytes the limit let through.
func TestParseHugeBodyOverHTTP(t *testing.T) {
	const limit = 64 << 10
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		bw := bufio.NewWriter(w)
		bw.WriteString("<urlset>")
		for range 1 << 16 { // about 3 MiB, unless the client stops reading
			if _, err := bw.WriteString("<url><loc>http://example.com/</loc></url>\n"); err != nil {
				return
			}
		}
		bw.Flush()
	}))
	t.Cleanup(srv.Close)

	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Parse(resp.Body, Options{MaxDecodedBytes: limit}, nil)
	resp.Body.Close() // the server's writes now fail
	if err != nil || !res.Cut || res.CutReason != "64 KiB decoded" {
		t.Errorf("%+v, %v; want cut \"64 KiB decoded\"", res, err)
	}
	const entrySize = len("<url><loc>http://example.com/</loc></url>\n")
	if want := (limit - len("<urlset>")) / entrySize; res.Entries != want {
		t.Errorf("Entries = %d, want %d", res.Entries, want)
	}
}
