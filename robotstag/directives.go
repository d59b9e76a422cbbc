package robotstag

import (
	"slices"
	"strings"
	"time"
)

// Directives is what the robot tags of one response tell one agent about
// indexing that response.
//
// The zero value means "no restriction": the response may be indexed, its
// links followed, a snippet shown and a copy archived. Every field can only
// add a restriction; nothing in a Directives value ever lifts one, which is
// why the directives of several tags combine with Merge and the most
// restrictive wins (docs/robots-rules.md rule 24).
//
// A Directives value is safe for concurrent reads. Merge mutates its
// receiver and must not run concurrently with other uses of that value.
// The Sources and Notes slices of a Directives returned by this package
// are freshly allocated and belong to the caller.
type Directives struct {
	// NoIndex: the response must not be indexed (noindex, none).
	NoIndex bool
	// NoFollow: links found in the response must not enter the frontier
	// (nofollow, none).
	NoFollow bool
	// NoSnippet: no text snippet of the response may be shown (nosnippet).
	NoSnippet bool
	// NoArchive: no cached copy of the response may be shown (noarchive).
	NoArchive bool
	// UnavailableAfter is the earliest unavailable_after date seen; from
	// that instant on the response is no longer indexable. The zero time
	// means no such date was given (or none could be parsed).
	UnavailableAfter time.Time

	// Sources lists, in the order they were read, the tags and header
	// values that set at least one of the restrictions above: the answer to
	// "why is this page not indexed". Tags that applied but restricted
	// nothing (such as "index, follow") are not listed.
	Sources []Source
	// Notes explains, for people, what was read but ignored and why: other
	// agents' values, unknown directives, unparsable dates, limits reached,
	// meta tags not read because the response is not text/html. Notes never
	// change the verdict; their wording is not part of the API.
	Notes []string
}

// Source names one robot tag that set a restriction.
type Source struct {
	// Where is the kind of tag: "X-Robots-Tag" for a header value, or
	// `meta name=NAME` for a meta element, NAME being the name attribute
	// as the page wrote it (for example "meta name=robots").
	Where string
	// Value is the header value or the content attribute as read, after
	// the length limit (MaxValueBytes) was applied.
	Value string
}

// Indexable reports whether the response may be in the index at time now:
// no noindex, and now is before UnavailableAfter when that is set. At the
// UnavailableAfter instant itself the response is already unavailable.
// NoFollow, NoSnippet and NoArchive do not affect indexability (seed 002:
// only noindex and none stop indexing).
func (d Directives) Indexable(now time.Time) bool {
	if d.NoIndex {
		return false
	}
	return d.UnavailableAfter.IsZero() || now.Before(d.UnavailableAfter)
}

// String renders the restrictions as a directive list in the syntax of a
// meta content attribute, for logs and the UI: "noindex, nofollow",
// "unavailable_after: 2010-06-25T23:00:00Z" (RFC 3339, UTC), or "all" when
// there is no restriction. Reading the string back with FromMeta gives the
// same restrictions. Sources and Notes are not rendered.
func (d Directives) String() string {
	var parts []string
	if d.NoIndex {
		parts = append(parts, dirNoIndex)
	}
	if d.NoFollow {
		parts = append(parts, dirNoFollow)
	}
	if d.NoSnippet {
		parts = append(parts, dirNoSnippet)
	}
	if d.NoArchive {
		parts = append(parts, dirNoArchive)
	}
	if !d.UnavailableAfter.IsZero() {
		parts = append(parts, dirUnavailableAfter+": "+d.UnavailableAfter.UTC().Format(time.RFC3339Nano))
	}
	if len(parts) == 0 {
		return dirAll
	}
	return strings.Join(parts, ", ")
}

// Merge adds the restrictions of o to d; the result is the most restrictive
// combination of both (docs/robots-rules.md rules 24 and 25): a flag set in
// either is set, and the earlier of two UnavailableAfter dates is kept.
// o's Sources and Notes are appended after d's. Merge never writes into
// the backing arrays d shared before the call, so a Directives copied
// before Merge is not changed by it.
func (d *Directives) Merge(o Directives) {
	d.NoIndex = d.NoIndex || o.NoIndex
	d.NoFollow = d.NoFollow || o.NoFollow
	d.NoSnippet = d.NoSnippet || o.NoSnippet
	d.NoArchive = d.NoArchive || o.NoArchive
	d.setUnavailableAfter(o.UnavailableAfter)
	if len(o.Sources) > 0 {
		d.Sources = append(slices.Clip(d.Sources), o.Sources...)
	}
	if len(o.Notes) > 0 {
		d.Notes = append(slices.Clip(d.Notes), o.Notes...)
	}
}

// setUnavailableAfter keeps the earlier of the current date and t; a zero
// t changes nothing.
func (d *Directives) setUnavailableAfter(t time.Time) {
	if t.IsZero() {
		return
	}
	if d.UnavailableAfter.IsZero() || t.Before(d.UnavailableAfter) {
		d.UnavailableAfter = t
	}
}

// note appends a note for people.
func (d *Directives) note(s string) {
	d.Notes = append(d.Notes, s)
}
