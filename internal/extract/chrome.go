package extract

import (
	"bytes"
	"strings"

	"golang.org/x/net/html/atom"
)

// Site chrome (issue 11, "clean text"): the navigation, page header and footer a site repeats
// on every page say nothing about the page, and in a snippet they hide what does. The
// extractor keeps the text of these elements out of Document.Text (their links keep their
// anchor text):
//
//   - <nav>, <header> and <footer> elements;
//   - any element of chromeContainers whose role is navigation, banner or contentinfo, or
//     whose class or id has a token of chromeTokens, compared ASCII case-insensitively, or a
//     token that starts with "nav" (navheader, navfooter, navbar) or "breadcrumb".
//
// Headings inside chrome are still headings (Document.Headings).

// chromeTokens are class and id tokens that name site chrome.
// A table of contents ("toc") is navigation too: the titles of other pages.
var chromeTokens = []string{"header", "footer", "sidebar", "sphinxsidebar", "related", "menu", "toc", "toc-nav", "skip-link"}

// chromeRoles are ARIA roles of site chrome.
var chromeRoles = []string{"navigation", "banner", "contentinfo"}

// isChromeContainer reports whether a may be chrome by its class, id or role.
func isChromeContainer(a atom.Atom) bool {
	switch a {
	case atom.Div, atom.Table, atom.Ul, atom.Aside, atom.Section, atom.P:
		return true
	}
	return false
}

// chrome tracks the one open chrome element: its atom and the depth of elements of that atom
// inside it, so that its own end tag ends it. The zero value is outside chrome.
type chrome struct {
	atom  atom.Atom
	depth int
}

// onStart is called with each start tag outside foreign content; attrs reads its attributes.
func (c *chrome) onStart(a atom.Atom, selfClosing bool, attrs func(func(key, val []byte))) {
	if c.depth > 0 {
		if a == c.atom && !selfClosing {
			c.depth++
		}
		return
	}
	if selfClosing {
		return
	}
	switch {
	case a == atom.Nav || a == atom.Header || a == atom.Footer:
	case isChromeContainer(a) && hasChromeAttr(attrs):
	default:
		return
	}
	c.atom, c.depth = a, 1
}

// onEnd is called with each end tag outside foreign content.
func (c *chrome) onEnd(a atom.Atom) {
	if c.depth > 0 && a == c.atom {
		c.depth--
	}
}

func hasChromeAttr(attrs func(func(key, val []byte))) bool {
	found := false
	attrs(func(key, val []byte) {
		switch string(key) {
		case "role":
			for _, r := range chromeRoles {
				if hasToken(string(val), r) {
					found = true
				}
			}
		case "class", "id":
			for _, tok := range strings.Fields(string(bytes.ToLower(val))) {
				if strings.HasPrefix(tok, "nav") || strings.HasPrefix(tok, "breadcrumb") || contains(chromeTokens, tok) {
					found = true
				}
			}
		}
	})
	return found
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// permalinkMarks are the texts of the links sites put beside headings to link to them.
var permalinkMarks = []string{"¶", "#", "§", "🔗"}

// isPermalinkMark reports whether a text token inside a link is only a permalink mark.
func isPermalinkMark(p []byte) bool {
	return contains(permalinkMarks, string(bytes.TrimSpace(p)))
}

// isHeading reports whether a is h1-h6. (A dt, the term a definition list defines, is collected
// with the headings too, but by its own rule: see extractor.term.)
func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

// hasFragment reports whether an href names a non-empty fragment.
func hasFragment(href string) bool {
	i := strings.IndexByte(href, '#')
	return i >= 0 && i < len(href)-1
}
