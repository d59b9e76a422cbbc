package extract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tokenizerStatePages are pages that each leave a tokenizer in a state of its own at their end
// (an open <svg> with CDATA allowed, an unclosed <script> or <title>, a <noscript> read as
// markup, a token over the cap, a token that grew the buffer, an attribute repeated, a NUL), each
// followed by an ordinary page in the list.
func tokenizerStatePages() [][]byte {
	probe := []byte(`<title>Probe</title><p>text <a href="/probe" class="x">probe link</a> &amp; more</p><![CDATA[not text]]>`)
	states := []string{
		`<p>before</p><svg><a href="/in-svg">svg link</a><![CDATA[cdata`,
		`<p>before</p><script>var a = "<a href='/no'>`,
		`<title>never closed <a href="/no">`,
		`<noscript><a href="/ns">noscript</a>`,
		`<p>` + strings.Repeat("long token ", 200) + `</p><a href="/after-long">after</a>`,
		`<a href="/dup" href="/second" href="/third">dup</a><p>x` + "\x00" + `y</p>`,
		`<div title="` + strings.Repeat("x", 600) + `"><p>capped`,
	}
	var pages [][]byte
	for _, s := range states {
		pages = append(pages, []byte(s), probe)
	}
	return pages
}

// TestBuffersTokenizerStartsFresh: issue 26, the tokenizer a Buffers keeps between pages starts
// every page as a new one would: each page gives the Document of an extraction without Buffers,
// whatever state the page before left the tokenizer in (with a token cap that one page passes).
func TestBuffersTokenizerStartsFresh(t *testing.T) {
	opts := Options{MaxTokenBytes: 512}
	var buf Buffers
	for i, page := range tokenizerStatePages() {
		want, err := HTML(page, "https://example.com/dir/page.html", "text/html", opts)
		if err != nil {
			t.Fatal(err)
		}
		with := opts
		with.Buffers = &buf
		got, err := HTML(page, "https://example.com/dir/page.html", "text/html", with)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("page %d with reused Buffers (-without +with):\n%s", i, diff)
		}
	}
}

// TestBuffersReuseTokenizerBuffer: issue 26, a Buffers keeps its tokenizer's 4 KiB buffer for
// the next page: extracting a small page again with the same Buffers allocates less than that
// buffer (a new html.Tokenizer per page allocated it every time). The charset is declared, so
// that no <meta> prescan (which has a tokenizer of its own) runs.
func TestBuffersReuseTokenizerBuffer(t *testing.T) {
	page := []byte(`<html><head><title>Small</title></head><body><p>a small page of text</p></body></html>`)
	var buf Buffers
	extractPage := func() {
		if _, err := HTML(page, "https://example.com/", "text/html; charset=utf-8", Options{Buffers: &buf}); err != nil {
			t.Fatal(err)
		}
	}
	extractPage() // the first page makes the tokenizer
	const pages = 20
	got := allocated(func() {
		for range pages {
			extractPage()
		}
	}) / pages
	if got >= 4096 {
		t.Errorf("allocated %d bytes a page with a reused Buffers, want under the tokenizer's 4096-byte buffer", got)
	}
}

// TestBuffersKeepNoBody: issue 26, a Buffers between pages holds nothing of the last page's
// body (its tokenizer's reader is dropped).
func TestBuffersKeepNoBody(t *testing.T) {
	var buf Buffers
	if _, err := HTML([]byte(`<p>x</p>`), "https://example.com/", "text/html", Options{Buffers: &buf}); err != nil {
		t.Fatal(err)
	}
	if buf.tok == nil {
		t.Fatal("no tokenizer kept")
	}
	if buf.tok.src.r != nil {
		t.Error("the kept tokenizer still reads the last page's body")
	}
}

// TestBuffersDropTokenizerAfterLongTag: issue 26 (and issue 29's memory budget), the tokenizer
// a Buffers keeps holds a map sized by the most attributes one tag had: after a page with a start
// tag longer than maxKeptTagBytes it is dropped, not kept for the next page.
func TestBuffersDropTokenizerAfterLongTag(t *testing.T) {
	var buf Buffers
	if _, err := HTML([]byte(`<p class="x">ordinary</p>`), "https://example.com/", "text/html", Options{Buffers: &buf}); err != nil {
		t.Fatal(err)
	}
	if buf.tok == nil {
		t.Fatal("an ordinary page did not keep its tokenizer")
	}
	var tag strings.Builder
	tag.WriteString("<div")
	for i := 0; tag.Len() <= maxKeptTagBytes; i++ {
		fmt.Fprintf(&tag, " a%d", i)
	}
	tag.WriteString(">text</div>")
	if _, err := HTML([]byte(tag.String()), "https://example.com/", "text/html", Options{Buffers: &buf}); err != nil {
		t.Fatal(err)
	}
	if buf.tok != nil {
		t.Errorf("kept the tokenizer after a %d-byte tag, want it dropped past %d", tag.Len(), maxKeptTagBytes)
	}
}
