package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// buffersPages are pages of different shapes, a long one before short ones, so that what a
// Buffers keeps from one page could show in the next if it leaked.
func buffersPages() [][]byte {
	return [][]byte{
		benchPage(),
		[]byte(`<title>Short</title><h1>One</h1><p>tiny <a href="/a">first link</a></p>`),
		[]byte(`<base href="https://other.example/base/"><img alt="pic"><a href="x">x <img alt="inner"></a><map><area href="/area" alt="an area"></map>`),
		[]byte(`<p>only text, no links, no title</p>`),
		[]byte(``),
		bigPage(200 << 10),
		[]byte(`<title>After the big one</title><nav><a href="/n">nav</a></nav><p>end</p>`),
	}
}

// TestBuffersSameDocuments: issue 26, an extraction with a Buffers reused page after page gives
// exactly the Document of one without (nothing of a page shows in the next).
func TestBuffersSameDocuments(t *testing.T) {
	var buf Buffers
	for i, page := range buffersPages() {
		want, err := HTML(page, "https://example.com/dir/page.html", "text/html", Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := HTML(page, "https://example.com/dir/page.html", "text/html", Options{Buffers: &buf})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("page %d with reused Buffers (-without +with):\n%s", i, diff)
		}
	}
}

// TestBuffersKeepBounded: issue 26 (and issue 29's memory budget), a buffer that one page grew
// past MaxKeptBufferBytes is not kept for the next page.
func TestBuffersKeepBounded(t *testing.T) {
	var buf Buffers
	page := []byte("<p>" + strings.Repeat("word ", 3*MaxKeptBufferBytes/5) + "</p>")
	if _, err := HTML(page, "https://example.com/", "text/html", Options{Buffers: &buf}); err != nil {
		t.Fatal(err)
	}
	if cap(buf.text) > MaxKeptBufferBytes {
		t.Errorf("kept a text buffer of %d bytes, want at most %d", cap(buf.text), MaxKeptBufferBytes)
	}
	if _, err := HTML(benchPage(), "https://example.com/", "text/html", Options{Buffers: &buf}); err != nil {
		t.Fatal(err)
	}
	if cap(buf.text) == 0 {
		t.Error("a text buffer under the bound was not kept")
	}
}

// TestBuffersAllocateLess: issue 26, the point of a Buffers: the second page extracted with it
// does not grow its text buffers again.
func TestBuffersAllocateLess(t *testing.T) {
	page := benchPage()
	var buf Buffers
	with := allocated(func() {
		for range 5 {
			if _, err := HTML(page, "https://example.com/", "text/html", Options{Buffers: &buf}); err != nil {
				t.Fatal(err)
			}
		}
	})
	without := allocated(func() {
		for range 5 {
			if _, err := HTML(page, "https://example.com/", "text/html", Options{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	// The text alone grows through about twice its final size without a Buffers.
	if with+uint64(4*len(page)) > without {
		t.Errorf("allocated %d bytes for 5 pages with a Buffers, %d without: want at least %d fewer", with, without, 4*len(page))
	}
}
