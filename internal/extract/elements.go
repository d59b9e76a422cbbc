package extract

import "golang.org/x/net/html/atom"

// isBlock reports whether the element a separates words: its start and end
// tags each count as a space in the text. These are the elements a browser
// renders on a line or in a cell of their own (HTML "Rendering", block and
// table elements), plus <br> and the form controls whose text stands apart.
// Inline elements (a, b, span, em, ...) are not here: "<b>a</b>b" is "ab".
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Body,
		atom.Br, atom.Button, atom.Caption, atom.Center, atom.Dd, atom.Details,
		atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Fieldset,
		atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Frameset,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Head,
		atom.Header, atom.Hgroup, atom.Hr, atom.Html, atom.Iframe, atom.Legend,
		atom.Li, atom.Listing, atom.Main, atom.Menu, atom.Nav,
		atom.Ol, atom.Optgroup, atom.Option, atom.P, atom.Plaintext, atom.Pre,
		atom.Search, atom.Section, atom.Select, atom.Summary, atom.Table,
		atom.Tbody, atom.Td, atom.Textarea, atom.Tfoot, atom.Th, atom.Thead,
		atom.Title, atom.Tr, atom.Ul, atom.Xmp:
		return true
	}
	return false
}

// rawAction says what to do with the content of a raw-text element (one the
// tokenizer returns as a single text token, such as <script>).
type rawAction uint8

const (
	rawNone    rawAction = iota // the next token is not raw text
	rawSkip                     // not shown: script, style, iframe, ...
	rawVisible                  // shown as text: textarea, xmp, plaintext
	rawTitle                    // the document title
)

// rawActionOf returns what to do with the content of the HTML element a,
// for the elements golang.org/x/net/html tokenizes as raw text (RAWTEXT,
// RCDATA, script data, PLAINTEXT). <noscript> is absent: the extractor asks
// the tokenizer to read its content as markup. <title> is decided by the
// caller, which knows whether a title was already seen.
func rawActionOf(a atom.Atom) rawAction {
	switch a {
	case atom.Script, atom.Style, atom.Iframe, atom.Noembed, atom.Noframes:
		return rawSkip
	case atom.Textarea, atom.Xmp, atom.Plaintext:
		return rawVisible
	}
	return rawNone
}

// breaksOutOfForeign reports whether a start tag a inside <svg> or <math>
// ends the foreign content, as the HTML parser's rules for "in foreign
// content" do (the <font> case, which depends on attributes, is left out).
func breaksOutOfForeign(a atom.Atom) bool {
	switch a {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center,
		atom.Code, atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Head,
		atom.Hr, atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu, atom.Meta,
		atom.Nobr, atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small,
		atom.Span, atom.Strong, atom.Strike, atom.Sub, atom.Sup, atom.Table,
		atom.Tt, atom.U, atom.Ul, atom.Var:
		return true
	}
	return false
}

// hiddenInForeign reports whether the SVG or MathML element a has content
// that is not rendered as text: scripts, style sheets, and the <title> and
// <desc> of SVG (a tooltip and a description).
func hiddenInForeign(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Title, atom.Desc:
		return true
	}
	return false
}
