package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"
)

// testRecord is one record as the test's own reader parsed it: written
// from the WARC 1.1 text with the standard library only, sharing no code
// with the writer.
type testRecord struct {
	File   string
	Offset int64 // of the gzip member
	Length int64 // of the gzip member
	Header textproto.MIMEHeader
	Block  []byte
}

func (r testRecord) get(name string) string { return r.Header.Get(name) }

// readWARC reads every gzip member of path as one WARC record and fails
// the test on anything WARC 1.1 does not allow.
func readWARC(t testing.TB, path string) []testRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var recs []testRecord
	br := bytes.NewReader(data)
	for br.Len() > 0 {
		off := int64(len(data) - br.Len())
		zr, err := gzip.NewReader(br) // bytes.Reader is a ByteReader: gzip stops exactly at the member's end
		if err != nil {
			t.Fatalf("%s: gzip member at %d: %v", path, off, err)
		}
		zr.Multistream(false)
		raw, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: gzip member at %d: %v", path, off, err)
		}
		end := int64(len(data) - br.Len())
		rec := parseRecord(t, raw)
		rec.File, rec.Offset, rec.Length = filepath.Base(path), off, end-off
		recs = append(recs, rec)
	}
	return recs
}

// parseRecord parses one uncompressed record that must fill raw exactly.
func parseRecord(t testing.TB, raw []byte) testRecord {
	t.Helper()
	tr := textproto.NewReader(bufio.NewReader(bytes.NewReader(raw)))
	line, err := tr.ReadLine()
	if err != nil || line != "WARC/1.1" {
		t.Fatalf("version line %q, %v", line, err)
	}
	h, err := tr.ReadMIMEHeader()
	if err != nil {
		t.Fatalf("record header: %v", err)
	}
	head := bytes.Index(raw, []byte("\r\n\r\n")) + 4
	n, err := strconv.Atoi(h.Get("Content-Length"))
	if err != nil || head+n+4 != len(raw) {
		t.Fatalf("Content-Length %q: header %d + block + 4 != record %d bytes", h.Get("Content-Length"), head, len(raw))
	}
	if string(raw[head+n:]) != "\r\n\r\n" {
		t.Fatalf("record does not end with two CRLFs: %q", raw[head+n:])
	}
	return testRecord{Header: h, Block: raw[head : head+n]}
}

// sha1b32 is the WARC digest of b, computed here rather than by Digest.
func sha1b32(b []byte) string {
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

// payloadOf splits an HTTP message at its first blank line.
func payloadOf(t testing.TB, block []byte) []byte {
	t.Helper()
	i := bytes.Index(block, []byte("\r\n\r\n"))
	if i < 0 {
		t.Fatalf("no end of HTTP header in %q", block)
	}
	return block[i+4:]
}

// warcFiles lists the WARC files in dir, sorted.
func warcFiles(t testing.TB, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(m)
	return m
}

// jsRecord is one record as warcio.js read it (testdata/warcio/verify.mjs).
type jsRecord struct {
	File                  string `json:"file"`
	Offset                int64  `json:"offset"`
	Length                int64  `json:"length"`
	Type                  string `json:"type"`
	ID                    string `json:"id"`
	Date                  string `json:"date"`
	URI                   string `json:"uri"`
	IP                    string `json:"ip"`
	ConcurrentTo          string `json:"concurrentTo"`
	ContentType           string `json:"contentType"`
	ContentLength         int64  `json:"contentLength"`
	Truncated             string `json:"truncated"`
	Profile               string `json:"profile"`
	RefersTo              string `json:"refersTo"`
	RefersToURI           string `json:"refersToURI"`
	Filename              string `json:"filename"`
	BlockDigest           string `json:"blockDigest"`
	PayloadDigest         string `json:"payloadDigest"`
	BlockLength           int64  `json:"blockLength"`
	ComputedBlockDigest   string `json:"computedBlockDigest"`
	HTTPStatus            string `json:"httpStatus"`
	ContentEncoding       string `json:"contentEncoding"`
	Payload               []byte `json:"payload"`
	ComputedPayloadDigest string `json:"computedPayloadDigest"`
}

// warcioDir holds the independent reader: warcio.js, installed with
// `npm ci --prefix internal/warc/testdata/warcio`.
const warcioDir = "testdata/warcio"

// warcioTimeout bounds one run of the reader.
const warcioTimeout = 60 * time.Second

// warcioMissing says why warcio.js cannot run here, or "" when it can.
func warcioMissing() string {
	if _, err := exec.LookPath("node"); err != nil {
		return "node is not installed"
	}
	if _, err := os.Stat(filepath.Join(warcioDir, "node_modules", "warcio", "package.json")); err != nil {
		return "warcio.js is not installed: run `npm ci --prefix internal/warc/" + warcioDir + "`"
	}
	return ""
}

// TestWarcioInstalled makes a missing independent reader visible: it is
// skipped, with the reason, when the cross-checks in the other tests
// cannot run (they then check with the test's own reader only), and fails
// under MANDELBOT_REQUIRE_ALL=1, as in CI.
func TestWarcioInstalled(t *testing.T) {
	if why := warcioMissing(); why != "" {
		if os.Getenv("MANDELBOT_REQUIRE_ALL") == "1" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
}

// readWithWarcio reads the files with warcio.js. When it cannot run
// (see TestWarcioInstalled) it logs why and returns nil.
func readWithWarcio(t testing.TB, files ...string) []jsRecord {
	t.Helper()
	if why := warcioMissing(); why != "" {
		t.Logf("warcio.js cross-check not run: %s", why)
		return nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal(err)
	}
	abs := make([]string, len(files))
	for i, f := range files {
		if abs[i], err = filepath.Abs(f); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), warcioTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"verify.mjs"}, abs...)...)
	cmd.Dir = warcioDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("warcio.js: %v\n%s", err, stderr.Bytes())
	}
	var recs []jsRecord
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var r jsRecord
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("warcio.js output: %v", err)
		}
		r.File = filepath.Base(r.File)
		recs = append(recs, r)
	}
	return recs
}

// checkWarcioRecords asserts what warcio.js saw in every record: the
// digests in the header match the block and payload as warcio delimits
// them (WARC 1.1 sections 5.8 and 5.9), and each record's offset and
// length are those of its gzip member (section "Record-at-time
// compression" of annex D).
//
// recs nil means warcio.js did not run, and nothing is checked.
func checkWarcioRecords(t *testing.T, recs []jsRecord, own []testRecord) {
	t.Helper()
	if recs == nil {
		return
	}
	if len(recs) != len(own) {
		t.Fatalf("warcio.js read %d records, the gzip members are %d", len(recs), len(own))
	}
	for i, r := range recs {
		if r.BlockDigest == "" || r.BlockDigest != r.ComputedBlockDigest {
			t.Errorf("record %d (%s %s): WARC-Block-Digest %q, warcio's block hashes to %q", i, r.Type, r.URI, r.BlockDigest, r.ComputedBlockDigest)
		}
		if r.Type == "response" && (r.PayloadDigest == "" || r.PayloadDigest != r.ComputedPayloadDigest) {
			t.Errorf("record %d (%s %s): WARC-Payload-Digest %q, warcio's payload hashes to %q", i, r.Type, r.URI, r.PayloadDigest, r.ComputedPayloadDigest)
		}
		if r.File != own[i].File || r.Offset != own[i].Offset || r.Length != own[i].Length {
			t.Errorf("record %d: warcio.js places it at %s %d+%d, the gzip member is %s %d+%d", i, r.File, r.Offset, r.Length, own[i].File, own[i].Offset, own[i].Length)
		}
	}
}

// mustRead reads n bytes at off of path.
func mustRead(t testing.TB, path string, off, n int64) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		t.Fatalf("read %s at %d+%d: %v", path, off, n, err)
	}
	return b
}

// recordAt decompresses the single record a Ref points to.
func recordAt(t testing.TB, dir string, ref Ref) testRecord {
	t.Helper()
	b := mustRead(t, filepath.Join(dir, ref.File), ref.Offset, ref.Length)
	br := bytes.NewReader(b)
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatalf("%+v: %v", ref, err)
	}
	zr.Multistream(false)
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%+v: %v", ref, err)
	}
	if br.Len() != 0 {
		t.Fatalf("%+v: %d bytes follow the gzip member inside the Ref", ref, br.Len())
	}
	return parseRecord(t, raw)
}

// steppingClock returns a Now that starts at t and moves 1ms per call.
// It is safe for concurrent use.
func steppingClock(t time.Time) func() time.Time {
	var mu sync.Mutex
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}
