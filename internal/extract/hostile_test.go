package extract

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHTMLUnterminated(t *testing.T) {
	// brief: hostile input. Whatever is cut off, HTML returns what it could
	// read and never fails.
	tests := []struct {
		name, body, wantText string
		wantLinks            int
	}{
		{"tag cut by the end of input is dropped", `<p>a</p><a href="/x`, "a", 0},
		{"attribute quote never closed", `<p>a<a href="/x>b</a><p>c`, "a", 0},
		{"unclosed link ends at the end of input", `<a href="/x">text`, "text", 1},
		{"unclosed script swallows the rest", `a<script>var s = "<a href=/x>";`, "a", 0},
		{"unclosed comment swallows the rest", `a<!-- <a href="/x">b</a>`, "a", 0},
		{"unclosed template hides the rest", `a<template><a href="/x">b</a>`, "a", 0},
		{"unclosed svg", `<svg><text>a</text><a href="/x">b</a>`, "a b", 1},
		{"stray end tags are ignored", `</a></template></svg></div>a<a href=/x>b</a></a></a>`, "ab", 1},
		{"lone less-than is text", `a < b <3 <`, "a < b <3 <", 0},
		{"deep nesting", strings.Repeat("<div><span>", 10000) + "deep" + strings.Repeat("</span></div>", 10000), "deep", 0},
		{"deep template nesting", strings.Repeat("<template>", 1000) + "x" + strings.Repeat("</template>", 1000) + "y", "y", 0},
		{"empty body", "", "", 0},
		{"binary garbage", "\x00\x01\xff\xfe<\x00>\x80", "\ufffd\ufffd<>\ufffd", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := mustHTML(t, tc.body, Options{})
			if doc.Text != tc.wantText || len(doc.Links) != tc.wantLinks {
				t.Errorf("Text %q, %d links; want %q, %d", doc.Text, len(doc.Links), tc.wantText, tc.wantLinks)
			}
		})
	}
}

// bigPage returns an HTML page of at least n bytes: paragraphs of text with
// a link in each, and a few metas and scripts along the way.
func bigPage(n int) []byte {
	var b strings.Builder
	b.Grow(n + 1024)
	b.WriteString("<!doctype html><html lang=en><head><title>Big page</title></head><body>\n")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "<p>Paragraph %d with some words in it, a <b>bold</b> one and <a href=\"/page/%d?x=y#f\">a link number %d</a>. %s</p>\n",
			i, i, i, strings.Repeat("Filler text to make the paragraph longer. ", 8))
		if i%1000 == 0 {
			b.WriteString(`<meta name="robots" content="noarchive"><script>var x = "</a>";</script>`)
		}
	}
	b.WriteString("</body></html>")
	return []byte(b.String())
}

// allocated returns the bytes allocated on the heap while f ran. The test
// calling it must not run in parallel with others.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHTMLBigPageCapsAndMemory(t *testing.T) {
	// brief: a 10 MB page; the caps hold and memory stays bounded.
	page := bigPage(10 << 20)
	opts := Options{MaxTextBytes: 256 << 10, MaxLinks: 1000, MaxMetas: 5}
	for _, tc := range []struct {
		name, contentType string
		body              []byte
	}{
		{"utf-8", "text/html; charset=utf-8", page},
		// Same bytes (all ASCII) through the streaming decoder.
		{"windows-1252", "text/html; charset=windows-1252", page},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc Document
			var err error
			total := allocated(func() {
				doc, err = HTML(tc.body, testDocURL, tc.contentType, opts)
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Text) > opts.MaxTextBytes || len(doc.Links) > opts.MaxLinks || len(doc.Metas) > opts.MaxMetas {
				t.Errorf("caps broken: text %d bytes, %d links, %d metas", len(doc.Text), len(doc.Links), len(doc.Metas))
			}
			if want := CapText | CapLinks | CapMetas; doc.Truncated != want {
				t.Errorf("Truncated = %q, want %q", doc.Truncated, want)
			}
			if doc.Title != "Big page" || len(doc.Links) != opts.MaxLinks || doc.Links[999].URL != "https://example.com/page/999?x=y" {
				t.Errorf("Title %q, %d links; want the page read in order", doc.Title, len(doc.Links))
			}
			// Everything allocated, garbage included, stays well under the
			// page size: the body is never copied or decoded whole, and
			// the tokenizer's buffer holds one token at a time.
			t.Logf("%s: %d-byte page, %d bytes allocated", tc.name, len(tc.body), total)
			if limit := uint64(len(tc.body)) / 2; total > limit {
				t.Errorf("allocated %d bytes for a %d-byte page, want under %d", total, len(tc.body), limit)
			}
		})
	}
}

func TestHTMLHugeTokenIsCapped(t *testing.T) {
	// A 10 MB run of text, or a 10 MB attribute, is one token: the
	// tokenizer's buffer must stop at MaxTokenBytes, not grow with it.
	const maxToken = 256 << 10
	tests := []struct {
		name, body, wantTextPrefix string
	}{
		{"text", "<p>" + strings.Repeat("a", 10<<20), "aaaa"},
		{"attribute", `<p>before</p><img src="` + strings.Repeat("a", 10<<20) + `">`, "before"},
		{"script", "<p>before</p><script>" + strings.Repeat("a", 10<<20), "before"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			var doc Document
			total := allocated(func() {
				doc, _ = HTML(body, testDocURL, "text/html", Options{MaxTokenBytes: maxToken})
			})
			if !doc.Truncated.Has(CapToken) || !strings.HasPrefix(doc.Text, tc.wantTextPrefix) {
				t.Errorf("Truncated %q, Text %.20q...; want token and text starting %q", doc.Truncated, doc.Text, tc.wantTextPrefix)
			}
			t.Logf("%d bytes allocated", total)
			if limit := uint64(16 * maxToken); total > limit {
				t.Errorf("allocated %d bytes with MaxTokenBytes %d, want under %d", total, maxToken, limit)
			}
		})
	}
}

func TestHTMLManyLinksRetained(t *testing.T) {
	// Link elements past MaxLinks are not kept: after HTML returns, what
	// it holds on to is the capped Document and nothing else.
	body := []byte(strings.Repeat(`<a href="/some/long/path/to/a/page">some anchor text</a>`, 100000))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	doc, err := HTML(body, testDocURL, "text/html", Options{MaxLinks: 10})
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Links) != 10 || !doc.Truncated.Has(CapLinks) {
		t.Errorf("%d links, Truncated %q; want 10 and links", len(doc.Links), doc.Truncated)
	}
	// The text (1 MiB, its cap) is most of it. The 99,990 links not kept
	// would be over 5 MB.
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc) - int64(len(doc.Text))
	t.Logf("%d-byte page of links: %d bytes retained besides the %d bytes of text", len(body), retained, len(doc.Text))
	if retained > 64<<10 {
		t.Errorf("%d bytes retained besides the text, want under 64 KiB", retained)
	}
	runtime.KeepAlive(body)
}

func TestHTMLOutputAlwaysValidUTF8(t *testing.T) {
	// Random-looking bytes in every encoding the detection can pick.
	var b strings.Builder
	for i := range 4096 {
		b.WriteByte(byte(i*131 + i/7))
		if i%97 == 0 {
			b.WriteString(`<a href="/`)
		}
		if i%89 == 0 {
			b.WriteString(`">`)
		}
	}
	body := []byte(b.String())
	for _, ct := range []string{"text/html", "text/html; charset=utf-8", "text/html; charset=shift_jis",
		"text/html; charset=utf-16le", "text/html; charset=gb18030", "text/html; charset=iso-2022-jp"} {
		doc, err := HTML(body, testDocURL, ct, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range docStrings(doc) {
			if !utf8.ValidString(s) {
				t.Errorf("%s: invalid UTF-8 in output: %q", ct, s)
			}
		}
	}
}

func TestHTMLConcurrentUse(t *testing.T) {
	// The package comment promises HTML is safe for concurrent use with
	// shared Options (run with -race to check it).
	page := benchPage()
	opts := Options{MaxLinks: 50}
	want, err := HTML(page, testDocURL, "text/html", opts)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			got, err := HTML(page, testDocURL, "text/html", opts)
			switch {
			case err != nil:
				errs <- err.Error()
			case got.Text != want.Text || len(got.Links) != len(want.Links) || got.Links[49] != want.Links[49]:
				errs <- "result differs from the sequential one"
			default:
				errs <- ""
			}
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
