package extract

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Test bytes, written out rather than produced by the encoders under test.
const (
	// "café – “quoted” €" in windows-1252: 0x80, 0x93, 0x94 and 0x96 are
	// where windows-1252 differs from ISO-8859-1 (C1 controls there).
	cp1252Bytes = "caf\xe9 \x96 \x93quoted\x94 \x80"
	cp1252Text  = "café – “quoted” €"
	// "日本語のテキスト" in Shift_JIS.
	sjisBytes = "\x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67"
	sjisText  = "日本語のテキスト"
	// "ソフト" in Shift_JIS: the trail byte of ソ is 0x5C, a backslash in
	// ASCII, the classic trap of reading Shift_JIS byte by byte.
	sjisSoftBytes = "\x83\x5c\x83\x74\x83\x67"
	sjisSoftText  = "ソフト"
)

func TestHTMLCharset(t *testing.T) {
	tests := []struct {
		name, contentType, body string
		wantCharset, wantTitle  string
	}{
		{"windows-1252 by header (brief)", "text/html; charset=windows-1252",
			"<title>" + cp1252Bytes + "</title>", "windows-1252", cp1252Text},
		{"iso-8859-1 label means windows-1252 (WHATWG Encoding)", "text/html; charset=ISO-8859-1",
			"<title>" + cp1252Bytes + "</title>", "windows-1252", cp1252Text},
		{"windows-1252 by meta charset (brief)", "text/html",
			`<meta charset="windows-1252"><title>` + cp1252Bytes + "</title>", "windows-1252", cp1252Text},
		{"windows-1252 by meta http-equiv", "",
			`<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><title>` + cp1252Bytes + "</title>", "windows-1252", cp1252Text},
		{"Shift_JIS by header (brief)", "text/html; charset=Shift_JIS",
			"<title>" + sjisBytes + sjisSoftBytes + "</title>", "shift_jis", sjisText + sjisSoftText},
		{"Shift_JIS by meta charset (brief)", "text/html",
			`<meta charset="shift_jis"><title>` + sjisBytes + sjisSoftBytes + "</title>", "shift_jis", sjisText + sjisSoftText},
		{"header beats meta", "text/html; charset=windows-1252",
			`<meta charset="shift_jis"><title>` + cp1252Bytes + "</title>", "windows-1252", cp1252Text},
		{"BOM beats header, and is not text", "text/html; charset=windows-1252",
			"\xef\xbb\xbf<title>caf\xc3\xa9</title>", "utf-8", "café"},
		{"UTF-16LE by BOM", "text/html",
			"\xff\xfe<\x00t\x00i\x00t\x00l\x00e\x00>\x00\xe9\x00t\x00\xe9\x00", "utf-16le", "été"},
		{"undeclared UTF-8 is sniffed", "text/html",
			"<title>caf\xc3\xa9</title>", "utf-8", "café"},
		{"undeclared UTF-8 after 1024 ASCII bytes is still UTF-8 (package comment)", "text/html",
			"<!--" + strings.Repeat("x", 2000) + "--><title>caf\xc3\xa9</title>", "utf-8", "café"},
		{"meta iso-8859-1 over a UTF-8 body yields to UTF-8 (package comment)", "text/html",
			`<meta charset="iso-8859-1"><title>caf` + "\xc3\xa9</title>", "utf-8", "café"},
		{"meta iso-8859-1 over a Latin-1 body is honoured", "text/html",
			`<meta charset="iso-8859-1"><title>caf` + "\xe9</title>", "windows-1252", "café"},
		{"header charset is never overridden", "text/html; charset=iso-8859-1",
			"<title>caf\xc3\xa9</title>", "windows-1252", "cafÃ©"},
		{"a body cut inside a UTF-8 character is still UTF-8", "text/html",
			"<title>caf\xc3\xa9</title>\xe6\x97", "utf-8", "café"},
		{"undeclared ASCII is windows-1252, as in browsers", "text/html",
			"<title>plain</title>", "windows-1252", "plain"},
		{"unknown header charset falls through to the sniff", "text/html; charset=no-such-charset",
			"<title>caf\xc3\xa9</title>", "utf-8", "café"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := HTML([]byte(tc.body), testDocURL, tc.contentType, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if doc.Charset != tc.wantCharset || doc.Title != tc.wantTitle {
				t.Errorf("Charset %q, Title %q; want %q, %q", doc.Charset, doc.Title, tc.wantCharset, tc.wantTitle)
			}
		})
	}
}

func TestHTMLShiftJISLinks(t *testing.T) {
	// Anchor text and hrefs are decoded too; the 0x5C trail byte of ソ must
	// not turn into a backslash in the URL.
	body := `<meta charset="Shift_JIS"><p>` + sjisBytes + `</p><a href="/` + sjisSoftBytes + `">` + sjisSoftBytes + `</a>`
	doc, err := HTML([]byte(body), testDocURL, "text/html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := Link{URL: "https://example.com/%E3%82%BD%E3%83%95%E3%83%88", Raw: "/" + sjisSoftText, Anchor: sjisSoftText}
	if doc.Text != sjisText+" "+sjisSoftText || len(doc.Links) != 1 || doc.Links[0] != want {
		t.Errorf("Text %q, Links %+v; want %q and %+v", doc.Text, doc.Links, sjisText+" "+sjisSoftText, want)
	}
}

// The same, through a real HTTP response: the charset comes from the
// Content-Type header the server sent.
func TestHTMLFromHTTPResponse(t *testing.T) {
	pages := map[string]struct{ contentType, body string }{
		"/sjis":   {"text/html; charset=Shift_JIS", "<title>" + sjisBytes + "</title><a href=next>" + sjisSoftBytes + "</a>"},
		"/cp1252": {"text/html;charset=windows-1252", "<title>" + cp1252Bytes + "</title><a href=next>" + cp1252Bytes + "</a>"},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", p.contentType)
		io.WriteString(w, p.body)
	}))
	t.Cleanup(srv.Close)

	tests := []struct{ path, title, anchor string }{
		{"/sjis", sjisText, sjisSoftText},
		{"/cp1252", cp1252Text, cp1252Text},
	}
	for _, tc := range tests {
		resp, err := srv.Client().Get(srv.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		doc, err := HTML(body, srv.URL+tc.path, resp.Header.Get("Content-Type"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		wantURL := srv.URL + "/next"
		if doc.Title != tc.title || len(doc.Links) != 1 || doc.Links[0].Anchor != tc.anchor || doc.Links[0].URL != wantURL {
			t.Errorf("%s: Title %q, Links %+v; want title %q, one link to %s with anchor %q",
				tc.path, doc.Title, doc.Links, tc.title, wantURL, tc.anchor)
		}
	}
}
