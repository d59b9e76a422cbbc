package extract

import (
	"slices"
	"testing"
)

// Issue 11, "clean text": navigation, header and footer chrome and permalink marks stay out of
// Text, their links keep their anchor text, and headings are collected (and definition terms,
// issue 32).
func TestChromeAndPermalinksOutOfText(t *testing.T) {
	page := `<html><head><title>T</title></head><body>
		<header><a href="/">Home</a> Site banner</header>
		<div class="navheader"><table><tr><td><a href="prev.html">Prev</a></td><td>Chapter 5</td></tr></table></div>
		<nav><div><a href="/a">Nav link</a></div> nav words</nav>
		<div role="navigation">role words</div>
		<div class="toc"><dl><dt><a href="sub.html">Other page</a></dt></dl></div>
		<div class="content"><h1>Main <b>topic</b><a class="headerlink" href="#main">¶</a></h1>
		<dl><dt><code>work_mem</code><dd>Sets memory.</dl>
		<p>Body <div>nested div</div> text</p><h2 id="s">Second heading</h2><p>after</p></div>
		<div class="sphinxsidebar"><h3>Sidebar heading</h3>sidebar words</div>
		<footer>Copyright footer</footer>
		<p>tail</p></body></html>`
	doc, err := HTML([]byte(page), "http://a.test/p", "text/html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Main topic work_mem Sets memory. Body nested div text Second heading after tail"; doc.Text != want {
		t.Errorf("Text = %q, want %q", doc.Text, want)
	}
	// Issue 32 part 1: the term of a definition list (work_mem) is collected like a heading; a
	// term that is a link (a table of contents) is not.
	if want := "Main topic work_mem Second heading Sidebar heading"; doc.Headings != want {
		t.Errorf("Headings = %q, want %q", doc.Headings, want)
	}
	var anchors []string
	for _, l := range doc.Links {
		anchors = append(anchors, l.Anchor)
	}
	if want := []string{"Home", "Prev", "Nav link", "Other page", "¶"}; !slices.Equal(anchors, want) {
		t.Errorf("anchors = %q, want %q (chrome links keep their anchor text)", anchors, want)
	}
}

// Issue 11: anchor text of a link to page#section describes the section (Link.Fragment).
func TestLinkFragment(t *testing.T) {
	doc, err := HTML([]byte(`<a href="b.html#build">Build Changes</a><a href="b.html">B</a><a href="b.html#">Empty</a>`), "http://a.test/", "text/html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []bool
	for _, l := range doc.Links {
		got = append(got, l.Fragment)
	}
	if want := []bool{true, false, false}; !slices.Equal(got, want) {
		t.Errorf("Fragment = %v, want %v", got, want)
	}
}

// Issue 32 part 1: a <dt> whose end tag is omitted ends at the next <dd>, <dt> or </dl>; the
// definitions are no heading.
func TestDefinitionTermsAsHeadings(t *testing.T) {
	doc, err := HTML([]byte(`<h1>Options</h1><dl><dt><code>--checkpoint</code> (fast)<dd>How to checkpoint.
		<dt>hot_standby<dd>Allows queries.</dl><p>After the list.</p>`), "http://a.test/p", "text/html", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Options --checkpoint (fast) hot_standby"; doc.Headings != want {
		t.Errorf("Headings = %q, want %q", doc.Headings, want)
	}
}
