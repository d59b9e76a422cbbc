package testweb

import (
	"bytes"
	"compress/gzip"
	"html"
	"strings"
)

const htmlType = "text/html; charset=utf-8"

// content returns a page's body (before any gzip) and its Content-Type: the raw Body,
// a rendered HTML document, or a one-line status text for a page with no content.
func content(p *Page, status int, x func(string) string) ([]byte, string) {
	ctype := p.ContentType
	switch {
	case p.Body != "":
		if ctype == "" {
			ctype = htmlType
		}
		return []byte(x(p.Body)), ctype
	case p.Title != "" || p.Text != "" || len(p.Links) > 0 || len(p.Anchors) > 0 || p.Meta != "" || p.Head != "":
		if ctype == "" {
			ctype = htmlType
		}
		return renderHTML(p, x), ctype
	default:
		if ctype == "" {
			ctype = "text/plain; charset=utf-8"
		}
		return []byte(statusLine(status)), ctype
	}
}

// renderHTML writes a small, valid HTML5 document. Title, Text and anchor texts are
// escaped; Head is raw; link targets are expanded, then escaped as attributes.
func renderHTML(p *Page, x func(string) string) []byte {
	var b bytes.Buffer
	b.Grow(512 + len(p.Text) + 96*(len(p.Links)+len(p.Anchors)))
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
	b.WriteString(html.EscapeString(p.Title))
	b.WriteString("</title>\n")
	if p.Meta != "" {
		b.WriteString(`<meta name="robots" content="`)
		b.WriteString(html.EscapeString(p.Meta))
		b.WriteString("\">\n")
	}
	if p.Head != "" {
		b.WriteString(x(p.Head))
		b.WriteString("\n")
	}
	b.WriteString("</head>\n<body>\n")
	if p.Title != "" {
		b.WriteString("<h1>")
		b.WriteString(html.EscapeString(p.Title))
		b.WriteString("</h1>\n")
	}
	for _, para := range strings.Split(p.Text, "\n\n") {
		if para = strings.Trim(para, " \t\r\n"); para != "" {
			b.WriteString("<p>")
			b.WriteString(html.EscapeString(para))
			b.WriteString("</p>\n")
		}
	}
	if len(p.Links)+len(p.Anchors) > 0 {
		b.WriteString("<ul>\n")
		for _, l := range p.Links {
			u := x(l)
			writeAnchor(&b, u, u, "")
		}
		for _, a := range p.Anchors {
			writeAnchor(&b, x(a.Href), a.Text, a.Rel)
		}
		b.WriteString("</ul>\n")
	}
	b.WriteString("</body>\n</html>\n")
	return b.Bytes()
}

func writeAnchor(b *bytes.Buffer, href, text, rel string) {
	b.WriteString(`<li><a href="`)
	b.WriteString(html.EscapeString(href))
	b.WriteString(`"`)
	if rel != "" {
		b.WriteString(` rel="`)
		b.WriteString(html.EscapeString(rel))
		b.WriteString(`"`)
	}
	b.WriteString(">")
	b.WriteString(html.EscapeString(text))
	b.WriteString("</a></li>\n")
}

// gzipBytes compresses b. The gzip header carries no name and no time, so the output is
// deterministic.
func gzipBytes(b []byte) []byte {
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	zw.Write(b) // writes to a bytes.Buffer do not fail
	zw.Close()
	return out.Bytes()
}
