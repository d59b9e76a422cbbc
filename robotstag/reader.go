package robotstag

import (
	"fmt"
	"strings"
)

// reader accumulates the directives of the tags of one place (the meta
// tags of a document, or the X-Robots-Tag headers of a response) for one
// Parser. It counts the tags read, so that the tag limit applies across
// calls, and bounds the notes. It lives for one FromMeta, FromHTML or
// FromHeader call and is not safe for concurrent use.
type reader struct {
	p       Parser
	d       Directives
	tags    int  // applicable tags or header values read so far
	tagsCut bool // the tag limit was reached and noted
	// bytesCut and dirsCut: a value was cut by MaxValueBytes or
	// MaxDirectives and noted.
	bytesCut, dirsCut bool
	dropped           int // notes not recorded because MaxNotes was reached
}

// note records a note for people, unless MaxNotes notes are already
// recorded; then it is only counted.
func (r *reader) note(s string) {
	if len(r.d.Notes) >= r.p.maxNotes() {
		r.dropped++
		return
	}
	r.d.note(s)
}

// noteLimit records that a limit was reached. The first note of each
// limit (*noted false) is always kept, whatever MaxNotes says: it explains
// why part of a response was only searched for restrictions
// (docs/robots-rules.md rule 24). Later ones count against MaxNotes.
func (r *reader) noteLimit(noted *bool, s string) {
	if *noted {
		r.note(s)
		return
	}
	*noted = true
	r.d.note(s)
}

// tag reads the directive list of one applicable tag (a meta content
// attribute, or one header value when header is true). Past MaxTags tags
// only the restrictions are read (restrictOnly) and the cut is noted once,
// with what.
func (r *reader) tag(where, what, value string, header bool) {
	r.tags++
	if r.tags <= r.p.maxTags() {
		r.value(where, value, header)
		return
	}
	if !r.tagsCut {
		r.noteLimit(&r.tagsCut, fmt.Sprintf("more than %d %s; past the limit only %s read", r.p.maxTags(), what, pastLimitDirectives))
	}
	if found := r.restrictions(value, header, true); found != "" {
		r.d.Sources = append(r.d.Sources, Source{Where: where, Value: found})
	}
}

// result returns the directives read, with a note counting the notes that
// MaxNotes left out.
func (r *reader) result() Directives {
	if r.dropped > 0 {
		r.d.note(fmt.Sprintf("%d more notes not shown", r.dropped))
		r.dropped = 0
	}
	return r.d
}

// pastLimitDirectives names the directives still read past a limit.
const pastLimitDirectives = "noindex, none and nofollow"

// restrictions reads the part of a directive list that lies past a limit
// (docs/robots-rules.md rule 24: a limit never drops a restriction): it
// honours noindex, none and nofollow and nothing else, follows "agent:"
// scopes in a header value (applies says whether the text before s was in
// a scope for p's agent), and writes no notes. It returns the
// restrictions found, as a directive list, or "". It does not allocate
// unless it finds one, however long s is.
func (r *reader) restrictions(s string, header, applies bool) string {
	var noIndex, noFollow bool
	for {
		elem, rest, more := strings.Cut(s, ",")
		elem = trimSpace(elem)
		if header {
			if agent, after, ok := cutScope(elem); ok {
				applies, elem = r.p.isAgent(agent), after
			}
		}
		if applies {
			switch {
			case equalFold(elem, dirNoIndex):
				noIndex = true
			case equalFold(elem, dirNoFollow):
				noFollow = true
			case equalFold(elem, dirNone):
				noIndex, noFollow = true, true
			}
		}
		if !more {
			break
		}
		s = rest
	}
	r.d.NoIndex = r.d.NoIndex || noIndex
	r.d.NoFollow = r.d.NoFollow || noFollow
	return (Directives{NoIndex: noIndex, NoFollow: noFollow}).restrictionList()
}

// restrictionList is String without the "all" for no restriction.
func (d Directives) restrictionList() string {
	if s := d.String(); s != dirAll {
		return s
	}
	return ""
}
