package sitemap

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"runtime"
	"strings"
	"testing"
)

// parseAll parses doc with opts and returns every delivered entry.
func parseAll(t *testing.T, doc []byte, opts Options) ([]Entry, Result, error) {
	t.Helper()
	return parseReader(t, bytes.NewReader(doc), opts)
}

// parseReader parses r with opts and returns every delivered entry, checking
// the invariants every call must keep.
func parseReader(t *testing.T, r io.Reader, opts Options) ([]Entry, Result, error) {
	t.Helper()
	var got []Entry
	res, err := Parse(r, opts, func(e Entry) error {
		got = append(got, e)
		return nil
	})
	if res.Entries != len(got) {
		t.Errorf("Result.Entries = %d, callback called %d times", res.Entries, len(got))
	}
	for _, e := range got {
		if e.Kind != res.Kind {
			t.Errorf("entry %q has Kind %v, document has %v", e.Loc, e.Kind, res.Kind)
		}
	}
	if max := opts.resolved().MaxEntries; res.Entries+res.Skipped > max {
		t.Errorf("Entries+Skipped = %d, over MaxEntries %d", res.Entries+res.Skipped, max)
	}
	if res.Cut != (res.CutReason != "") {
		t.Errorf("Cut = %v but CutReason = %q", res.Cut, res.CutReason)
	}
	return got, res, err
}

// locs returns the locations of entries.
func locs(entries []Entry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		out = append(out, e.Loc)
	}
	return out
}

// gz returns b gzip-compressed as one member.
func gz(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// allocated returns the bytes the heap allocated while f ran. It bounds from
// above the memory f needed at any one time.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// bufioOf returns a bufio.Reader of s.
func bufioOf(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// liveHeap wraps r and, each time another `every` bytes have been read
// through it, collects garbage and records the live heap. max then holds
// the largest live heap seen above what was live when liveHeap was called:
// the memory the reader's consumer was holding mid-stream.
type liveHeap struct {
	r          io.Reader
	every, n   int
	base, max  uint64
	nextSample int
}

func newLiveHeap(r io.Reader, every int) *liveHeap {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return &liveHeap{r: r, every: every, base: ms.HeapAlloc, nextSample: every}
}

func (l *liveHeap) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	l.n += n
	if l.n >= l.nextSample {
		l.nextSample += l.every
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		if ms.HeapAlloc > l.base && ms.HeapAlloc-l.base > l.max {
			l.max = ms.HeapAlloc - l.base
		}
	}
	return n, err
}
