package extract

import (
	"strings"
	"testing"
	"testing/iotest"
)

func TestPlainText(t *testing.T) {
	tests := []struct {
		name, contentType, body string
		wantCharset, wantText   string
	}{
		{"UTF-8 by header", "text/plain; charset=utf-8", "caf\xc3\xa9\n\n  bar", "utf-8", "café bar"},
		{"windows-1252 by header", "text/plain; charset=windows-1252", cp1252Bytes, "windows-1252", cp1252Text},
		{"Shift_JIS by header", "text/plain; charset=shift_jis", sjisBytes + sjisSoftBytes, "shift_jis", sjisText + sjisSoftText},
		{"undeclared UTF-8 is sniffed", "text/plain", "caf\xc3\xa9", "utf-8", "café"},
		{"undeclared non-UTF-8 is windows-1252", "text/plain", cp1252Bytes, "windows-1252", cp1252Text},
		{"BOM beats header and is not text", "text/plain; charset=windows-1252", "\xef\xbb\xbfcaf\xc3\xa9", "utf-8", "café"},
		{"a meta tag in plain text is text, not a declaration", "text/plain",
			`<meta charset="shift_jis">` + cp1252Bytes, "windows-1252", `<meta charset="shift_jis">` + cp1252Text},
		{"markup is not interpreted", "text/plain; charset=utf-8", "<p>a</p><script>b</script>", "utf-8", "<p>a</p><script>b</script>"},
		{"invalid UTF-8 under a UTF-8 header becomes U+FFFD", "text/plain; charset=utf-8", "a\xffb", "utf-8", "a\ufffdb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := PlainText([]byte(tc.body), tc.contentType, Options{})
			if doc.Charset != tc.wantCharset || doc.Text != tc.wantText || doc.Truncated != 0 {
				t.Errorf("Charset %q, Text %q, Truncated %q; want %q, %q, none",
					doc.Charset, doc.Text, doc.Truncated, tc.wantCharset, tc.wantText)
			}
		})
	}
}

func TestPlainTextChunkBoundaries(t *testing.T) {
	// A legacy-encoded body is decoded in plainChunkBytes pieces: characters
	// cut by a piece boundary must come out whole. An odd prefix shifts the
	// two-byte Shift_JIS characters against the boundaries.
	body := "x" + strings.Repeat(sjisBytes, 3*plainChunkBytes/len(sjisBytes))
	want := "x" + strings.Repeat(sjisText, 3*plainChunkBytes/len(sjisBytes))
	doc := PlainText([]byte(body), "text/plain; charset=shift_jis", Options{MaxTextBytes: 10 * len(body)})
	if doc.Text != want {
		t.Errorf("Text differs from the whole decode (len %d, want %d)", len(doc.Text), len(want))
	}
}

func TestWriteDecodedKeepsCharactersWhole(t *testing.T) {
	// A reader may cut its output anywhere, even inside a character; the
	// text must not show a replacement character there.
	var b textBuf
	b.max = 1 << 10
	writeDecoded(&b, iotest.OneByteReader(strings.NewReader(sjisText+" é€")))
	if got := b.String(); got != sjisText+" é€" {
		t.Errorf("got %q, want %q", got, sjisText+" é€")
	}
}

func TestPlainTextCap(t *testing.T) {
	body := strings.Repeat(cp1252Bytes+" ", 1000)
	full := PlainText([]byte(body), "text/plain; charset=windows-1252", Options{MaxTextBytes: 1 << 30})
	doc := PlainText([]byte(body), "text/plain; charset=windows-1252", Options{MaxTextBytes: 100})
	if len(doc.Text) > 100 || !strings.HasPrefix(full.Text, doc.Text) || len(doc.Text) < 90 || !doc.Truncated.Has(CapText) {
		t.Errorf("Text %q (%d bytes), Truncated %q; want a prefix of 90-100 bytes and CapText", doc.Text, len(doc.Text), doc.Truncated)
	}
}
