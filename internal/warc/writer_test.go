package warc

import (
	"bytes"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC)

// httpResponse builds an HTTP/1.1 response as a server would send it.
func httpResponse(status string, body []byte, header ...string) []byte {
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 " + status + "\r\n")
	for _, h := range header {
		b.WriteString(h + "\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	return b.Bytes()
}

func httpRequest(path string, header ...string) []byte {
	s := "GET " + path + " HTTP/1.1\r\nHost: example.test\r\nUser-Agent: Mandelbot\r\n"
	for _, h := range header {
		s += h + "\r\n"
	}
	return []byte(s + "\r\n")
}

func newTestWriter(t testing.TB, o Options) (*Writer, string) {
	t.Helper()
	if o.Dir == "" && o.FS == nil {
		o.Dir = t.TempDir()
	}
	if o.Now == nil {
		o.Now = steppingClock(t0)
	}
	if o.Hostname == "" {
		o.Hostname = "crawler-1"
	}
	w, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return w, o.Dir
}

var recordIDPattern = regexp.MustCompile(`^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$`)

// checkRecords asserts the header fields WARC 1.1 requires of every record
// (section 5: WARC-Record-ID, Content-Length, WARC-Date, WARC-Type) and
// the digests: WARC-Block-Digest of every block (5.8), WARC-Payload-Digest
// of every response (5.9), both sha1 in base32.
func checkRecords(t *testing.T, recs []testRecord) {
	t.Helper()
	for i, r := range recs {
		if !recordIDPattern.MatchString(r.get("WARC-Record-ID")) {
			t.Errorf("record %d: WARC-Record-ID %q is not a urn:uuid", i, r.get("WARC-Record-ID"))
		}
		if _, err := time.Parse(time.RFC3339Nano, r.get("WARC-Date")); err != nil || !strings.HasSuffix(r.get("WARC-Date"), "Z") {
			t.Errorf("record %d: WARC-Date %q: %v", i, r.get("WARC-Date"), err)
		}
		if got, want := r.get("WARC-Block-Digest"), sha1b32(r.Block); got != want {
			t.Errorf("record %d (%s): WARC-Block-Digest %q, block hashes to %q", i, r.get("WARC-Type"), got, want)
		}
		if r.get("WARC-Type") == "response" || r.get("WARC-Type") == "request" && r.get("WARC-Payload-Digest") != "" {
			if got, want := r.get("WARC-Payload-Digest"), sha1b32(payloadOf(t, r.Block)); got != want {
				t.Errorf("record %d: WARC-Payload-Digest %q, payload hashes to %q", i, got, want)
			}
		}
	}
}

// WARC 1.1 sections 5 and 6: a file holds a warcinfo record, then the
// response and request records of each exchange, digests verified,
// linked by WARC-Concurrent-To; each Ref reaches its record alone (annex
// D: one gzip member per record).
func TestWriteExchangeRecordsReadBack(t *testing.T) {
	w, dir := newTestWriter(t, Options{Info: []Field{{"operator", "ops@example.test"}}})
	body := []byte("<html><title>Bakery</title>Bread and cakes.</html>")
	ex := Exchange{
		TargetURI: "http://example.test/bakery?x=1",
		Date:      t0.Add(time.Second),
		IP:        "127.0.0.1",
		Request:   httpRequest("/bakery?x=1"),
		Response:  httpResponse("200 OK", body, "Content-Type: text/html", "ETag: \"v1\""),
	}
	refs, err := w.WriteExchange(ex)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	files := warcFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("files %v, want 1", files)
	}
	recs := readWARC(t, files[0])
	checkRecords(t, recs)
	if len(recs) != 3 {
		t.Fatalf("%d records, want warcinfo, response, request", len(recs))
	}
	info, resp, req := recs[0], recs[1], recs[2]
	if info.get("WARC-Type") != "warcinfo" || info.get("Content-Type") != "application/warc-fields" ||
		info.get("WARC-Filename") != filepath.Base(files[0]) {
		t.Errorf("warcinfo header %v", info.Header)
	}
	for _, want := range []string{"software: Mandelbot\r\n", "format: WARC File Format 1.1\r\n", "hostname: crawler-1\r\n", "operator: ops@example.test\r\n"} {
		if !bytes.Contains(info.Block, []byte(want)) {
			t.Errorf("warcinfo block %q lacks %q", info.Block, want)
		}
	}
	if resp.get("WARC-Type") != "response" || req.get("WARC-Type") != "request" {
		t.Fatalf("types %q %q", resp.get("WARC-Type"), req.get("WARC-Type"))
	}
	if resp.get("Content-Type") != "application/http;msgtype=response" || req.get("Content-Type") != "application/http;msgtype=request" {
		t.Errorf("content types %q %q", resp.get("Content-Type"), req.get("Content-Type"))
	}
	if !bytes.Equal(resp.Block, ex.Response) || !bytes.Equal(req.Block, ex.Request) {
		t.Errorf("blocks are not the exchange's bytes")
	}
	if !bytes.Equal(payloadOf(t, resp.Block), body) {
		t.Errorf("payload %q, want %q", payloadOf(t, resp.Block), body)
	}
	for _, r := range []testRecord{resp, req} {
		if r.get("WARC-Target-URI") != ex.TargetURI || r.get("WARC-IP-Address") != "127.0.0.1" ||
			r.get("WARC-Date") != "2026-11-23T17:00:01.000000Z" {
			t.Errorf("%s: target %q ip %q date %q", r.get("WARC-Type"), r.get("WARC-Target-URI"), r.get("WARC-IP-Address"), r.get("WARC-Date"))
		}
	}
	// Section 5.7: each names the other.
	if resp.get("WARC-Concurrent-To") != req.get("WARC-Record-ID") || req.get("WARC-Concurrent-To") != resp.get("WARC-Record-ID") {
		t.Errorf("Concurrent-To: response %q -> %q, request %q -> %q",
			resp.get("WARC-Record-ID"), resp.get("WARC-Concurrent-To"), req.get("WARC-Record-ID"), req.get("WARC-Concurrent-To"))
	}
	// The Refs are the members' places.
	if refs.Response != (Ref{File: resp.File, Offset: resp.Offset, Length: resp.Length, RecordID: resp.get("WARC-Record-ID")}) {
		t.Errorf("response Ref %+v, record at %s %d+%d", refs.Response, resp.File, resp.Offset, resp.Length)
	}
	if refs.Request != (Ref{File: req.File, Offset: req.Offset, Length: req.Length, RecordID: req.get("WARC-Record-ID")}) {
		t.Errorf("request Ref %+v, record at %s %d+%d", refs.Request, req.File, req.Offset, req.Length)
	}
	if got := recordAt(t, dir, refs.Response); got.get("WARC-Record-ID") != refs.Response.RecordID {
		t.Errorf("record at response Ref is %q", got.get("WARC-Record-ID"))
	}
	if refs.PayloadDigest != resp.get("WARC-Payload-Digest") {
		t.Errorf("PayloadDigest %q, record says %q", refs.PayloadDigest, resp.get("WARC-Payload-Digest"))
	}

	checkWarcioRecords(t, readWithWarcio(t, files...), recs)
}

// WARC 1.1 section 6.7: revisit records of both profiles.
func TestWriteExchangeRevisits(t *testing.T) {
	w, dir := newTestWriter(t, Options{})
	uri := "http://example.test/page"
	body := bytes.Repeat([]byte("same page "), 50)
	first, err := w.WriteExchange(Exchange{TargetURI: uri, Date: t0, IP: "127.0.0.1",
		Request: httpRequest("/page"), Response: httpResponse("200 OK", body, "ETag: \"v1\"")})
	if err != nil {
		t.Fatal(err)
	}
	// 6.7.1: a 304 to a conditional request.
	notModified := httpResponse("304 Not Modified", nil, "ETag: \"v1\"")
	nm, err := w.WriteExchange(Exchange{TargetURI: uri, Date: t0.Add(time.Hour), IP: "127.0.0.1",
		Request:  httpRequest("/page", `If-None-Match: "v1"`),
		Response: notModified,
		Revisit:  &Revisit{Profile: ProfileServerNotModified, RefersTo: first.Response.RecordID, RefersToDate: t0}})
	if err != nil {
		t.Fatal(err)
	}
	// 6.7.2: the same payload downloaded again.
	again := httpResponse("200 OK", body, "ETag: \"v2\"")
	digest, ok := PayloadDigest(again)
	if !ok || digest != first.PayloadDigest {
		t.Fatalf("PayloadDigest of the same body %q %v, first fetch %q", digest, ok, first.PayloadDigest)
	}
	same, err := w.WriteExchange(Exchange{TargetURI: uri, Date: t0.Add(2 * time.Hour), IP: "127.0.0.1",
		Request: httpRequest("/page"), Response: again,
		Revisit: &Revisit{Profile: ProfileIdenticalPayloadDigest, RefersTo: first.Response.RecordID, RefersToDate: t0}})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	files := warcFiles(t, dir)
	recs := readWARC(t, files[0])
	checkRecords(t, recs)
	r := recordAt(t, dir, nm.Response)
	if r.get("WARC-Type") != "revisit" || r.get("WARC-Profile") != "http://netpreserve.org/warc/1.1/revisit/server-not-modified" ||
		r.get("WARC-Refers-To") != first.Response.RecordID || r.get("WARC-Refers-To-Target-URI") != uri ||
		r.get("WARC-Refers-To-Date") != "2026-11-23T17:00:00.000000Z" || !bytes.Equal(r.Block, notModified) ||
		r.get("Content-Type") != "application/http;msgtype=response" {
		t.Errorf("server-not-modified revisit: %v\n%q", r.Header, r.Block)
	}
	if q := recordAt(t, dir, nm.Request); q.get("WARC-Concurrent-To") != nm.Response.RecordID || !bytes.Contains(q.Block, []byte(`If-None-Match: "v1"`)) {
		t.Errorf("conditional request record: %v\n%q", q.Header, q.Block)
	}
	r = recordAt(t, dir, same.Response)
	if r.get("WARC-Type") != "revisit" || r.get("WARC-Profile") != "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest" ||
		r.get("WARC-Payload-Digest") != first.PayloadDigest || r.get("WARC-Refers-To") != first.Response.RecordID {
		t.Errorf("identical-payload-digest revisit: %v", r.Header)
	}
	if want := again[:len(again)-len(body)]; !bytes.Equal(r.Block, want) {
		t.Errorf("identical-payload-digest block %q, want the header only %q", r.Block, want)
	}

	js := readWithWarcio(t, files...)
	checkWarcioRecords(t, js, recs)
	for _, j := range js {
		if j.ID == nm.Response.RecordID && (j.Type != "revisit" || j.HTTPStatus != "304" || j.RefersTo != first.Response.RecordID ||
			j.Profile != string(ProfileServerNotModified)) {
			t.Errorf("warcio.js reads the 304 revisit as %+v", j)
		}
	}
}

// The rotation rule of Options.MaxFileSize, and names that never collide
// (issue 13): every file starts with its own warcinfo, stays under the
// limit unless it holds one exchange, keeps each request with its
// response, and two Writers with the same host, pid and clock in one
// directory write different files.
func TestRotationAndUniqueNames(t *testing.T) {
	dir := t.TempDir()
	const limit = 8 << 10
	opts := Options{Dir: dir, MaxFileSize: limit, Hostname: "host/a b", PID: 7}
	a, _ := newTestWriter(t, opts)
	b, _ := newTestWriter(t, opts) // same host, pid and clock
	noise := func(n int) []byte {
		p := make([]byte, n)
		_, _ = rand.Read(p) // incompressible, so sizes are predictable
		return p
	}
	var refs []ExchangeRefs
	for i := range 40 {
		for _, w := range []*Writer{a, b} {
			r, err := w.WriteExchange(Exchange{TargetURI: fmt.Sprintf("http://example.test/%d", i),
				Request: httpRequest("/"), Response: httpResponse("200 OK", noise(1500))})
			if err != nil {
				t.Fatal(err)
			}
			refs = append(refs, r)
		}
	}
	big, err := a.WriteExchange(Exchange{TargetURI: "http://example.test/big",
		Request: httpRequest("/big"), Response: httpResponse("200 OK", noise(3*limit))})
	if err != nil {
		t.Fatal(err)
	}
	refs = append(refs, big)
	for _, w := range []*Writer{a, b} {
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}

	files := warcFiles(t, dir)
	if len(files) < 10 {
		t.Fatalf("%d files for ~130 KB at an 8 KiB limit", len(files))
	}
	namePattern := regexp.MustCompile(`^MANDELBOT-2026112317\d{7}-\d{5}-host_a_b-7-[0-9a-f]{8}\.warc\.gz$`)
	exchanges := 0
	for _, f := range files {
		if !namePattern.MatchString(filepath.Base(f)) {
			t.Errorf("file name %q", filepath.Base(f))
		}
		recs := readWARC(t, f)
		checkRecords(t, recs)
		if recs[0].get("WARC-Type") != "warcinfo" || recs[0].get("WARC-Filename") != filepath.Base(f) {
			t.Errorf("%s does not begin with its warcinfo", f)
		}
		n := (len(recs) - 1) / 2
		exchanges += n
		st, _ := os.Stat(f)
		if st.Size() > limit && n > 1 {
			t.Errorf("%s: %d bytes with %d exchanges, limit %d", f, st.Size(), n, limit)
		}
		for i := 1; i+1 < len(recs); i += 2 {
			if recs[i].get("WARC-Concurrent-To") != recs[i+1].get("WARC-Record-ID") {
				t.Errorf("%s: record %d's request is not beside it", f, i)
			}
		}
	}
	if exchanges != len(refs) {
		t.Errorf("%d exchanges in the files, %d written", exchanges, len(refs))
	}
	if big.Response.File == refs[len(refs)-3].Response.File {
		t.Errorf("the record larger than the limit shares a file")
	}
	if recordAt(t, dir, big.Response).get("WARC-Record-ID") != big.Response.RecordID {
		t.Errorf("big record not at its Ref")
	}
	checkWarcioRecords(t, readWithWarcio(t, files...), readAll(t, files))
}

func readAll(t *testing.T, files []string) []testRecord {
	var all []testRecord
	for _, f := range files {
		all = append(all, readWARC(t, f)...)
	}
	return all
}

// A Writer is safe for concurrent use (package documentation): exchanges
// written from many goroutines while others Sync all land whole, each
// at its Ref, across rotations.
func TestConcurrentWrites(t *testing.T) {
	w, dir := newTestWriter(t, Options{MaxFileSize: 64 << 10})
	const goroutines, each = 8, 40
	var mu sync.Mutex
	var refs []ExchangeRefs
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				r, err := w.WriteExchange(Exchange{TargetURI: fmt.Sprintf("http://example.test/%d/%d", g, i),
					Request: httpRequest("/"), Response: httpResponse("200 OK", bytes.Repeat([]byte{byte(i)}, 2000+i))})
				if err != nil {
					t.Error(err)
					return
				}
				if i%10 == 0 {
					if err := w.Sync(); err != nil {
						t.Error(err)
					}
				}
				mu.Lock()
				refs = append(refs, r)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	recs := readAll(t, files)
	checkRecords(t, recs)
	if want := len(files) + 2*goroutines*each; len(recs) != want {
		t.Errorf("%d records, want %d", len(recs), want)
	}
	for _, r := range refs {
		if got := recordAt(t, dir, r.Response); got.get("WARC-Record-ID") != r.Response.RecordID {
			t.Errorf("Ref %+v reads record %q", r.Response, got.get("WARC-Record-ID"))
		}
	}
}

// An invalid Exchange is refused without breaking the Writer: a CR or LF
// in a field would end the WARC header early.
func TestWriteExchangeRefusesInvalid(t *testing.T) {
	w, dir := newTestWriter(t, Options{})
	ok := Exchange{TargetURI: "http://example.test/", Response: httpResponse("200 OK", nil)}
	for name, ex := range map[string]Exchange{
		"no target":   {Response: ok.Response},
		"CRLF target": {TargetURI: "http://example.test/\r\nWARC-Type: metadata", Response: ok.Response},
		"no response": {TargetURI: ok.TargetURI},
		"bad ip":      {TargetURI: ok.TargetURI, Response: ok.Response, IP: "127.0.0.1:80"},
		"bad profile": {TargetURI: ok.TargetURI, Response: ok.Response, Revisit: &Revisit{Profile: "x"}},
		"bad reason":  {TargetURI: ok.TargetURI, Response: ok.Response, Truncated: "because"},
	} {
		if _, err := w.WriteExchange(ex); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := w.WriteExchange(ok); err != nil {
		t.Fatalf("valid exchange after refusals: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteExchange(ok); !errors.Is(err, ErrClosed) {
		t.Errorf("write after Close: %v, want ErrClosed", err)
	}
	if recs := readAll(t, warcFiles(t, dir)); len(recs) != 2 {
		t.Errorf("%d records, want warcinfo and one response", len(recs))
	}
}
