package robotstag

import (
	"fmt"
	"strings"
)

// Directive names, lower case. The first group is what this package
// understands (docs/robots-rules.md rule 26); "all", "index" and "follow"
// are accepted no-ops that never lift a restriction. The second group are
// directives other crawlers define: they are ignored like any unknown
// directive, but knowing their names keeps "max-snippet: 20" in a header
// from being mistaken for an agent scope.
const (
	dirNoIndex          = "noindex"
	dirNoFollow         = "nofollow"
	dirNone             = "none"
	dirNoSnippet        = "nosnippet"
	dirNoArchive        = "noarchive"
	dirUnavailableAfter = "unavailable_after"
	dirAll              = "all"
	dirIndex            = "index"
	dirFollow           = "follow"
)

// isDirectiveName reports whether the lower-cased name is a directive name
// this package or a well-known crawler defines.
func isDirectiveName(name string) bool {
	switch name {
	case dirNoIndex, dirNoFollow, dirNone, dirNoSnippet, dirNoArchive,
		dirUnavailableAfter, dirAll, dirIndex, dirFollow,
		"max-snippet", "max-image-preview", "max-video-preview",
		"noimageindex", "notranslate", "indexifembedded", "nocache", "noodp", "noydir":
		return true
	}
	return false
}

// cutScope splits an "agent: rest" header element. It reports false when
// the text before the first colon is not a scope name (isScopeName) or is a
// directive name, as in "unavailable_after: 25 Jun 2010 15:00:00 PST": then the
// element is a directive, not a scope.
func cutScope(elem string) (agent, rest string, ok bool) {
	name, rest, found := strings.Cut(elem, ":")
	if !found {
		return "", elem, false
	}
	name = trimSpace(name)
	if !isScopeName(name) || isDirectiveName(toLower(name)) {
		return "", elem, false
	}
	return name, trimSpace(rest), true
}

// value reads one directive list (a meta content attribute, or one
// X-Robots-Tag header value when header is true) into r. where names the
// tag for Sources and Notes.
//
// A list is split at commas; elements are trimmed of ASCII whitespace and
// their names compared case-insensitively; empty elements are skipped. In
// a header value an element may start with "agent:", which scopes it and
// every following element up to the next scope or the end of the value;
// elements before the first scope apply to every agent. A meta content
// attribute has no scopes: its name attribute already chose the agent.
//
// The first MaxValueBytes bytes of the value, cut back to the last comma
// so that no element is read half, and of those the first MaxDirectives
// elements, are read in full. The rest is only searched for noindex, none
// and nofollow (docs/robots-rules.md rule 24), scopes still applying, and
// the cut is noted.
func (r *reader) value(where, value string, header bool) {
	p := r.p
	v := value
	if limit := p.maxValueBytes(); len(v) > limit {
		v = v[:limit]
		if i := strings.LastIndexByte(v, ','); i >= 0 {
			v = v[:i]
		} else {
			v = ""
		}
		r.noteLimit(&r.bytesCut, fmt.Sprintf("%s %s: longer than %d bytes; past that only %s read", where, quote(value), limit, pastLimitDirectives))
	}
	past := len(v) // where the part only searched for restrictions starts
	elems := strings.Split(v, ",")
	if limit := p.maxDirectives(); len(elems) > limit {
		r.noteLimit(&r.dirsCut, fmt.Sprintf("%s %s: more than %d directives; past that only %s read", where, quote(v), limit, pastLimitDirectives))
		elems = elems[:limit]
		past = 0
		for _, e := range elems {
			past += len(e) + 1
		}
		v = v[:past-1]
	}

	d := &r.d
	restricted := false
	applies := true
	for i := 0; i < len(elems); i++ {
		elem := trimSpace(elems[i])
		if header {
			if agent, rest, ok := cutScope(elem); ok {
				applies = p.isAgent(agent)
				if !applies {
					r.note(fmt.Sprintf("%s %s: directives scoped to agent %s ignored", where, quote(v), quote(agent)))
				}
				elem = rest
			}
		}
		if !applies || elem == "" {
			continue
		}
		name, arg, hasArg := strings.Cut(elem, ":")
		name = toLower(trimSpace(name))
		if !hasArg {
			switch name {
			case dirNoIndex:
				d.NoIndex, restricted = true, true
				continue
			case dirNoFollow:
				d.NoFollow, restricted = true, true
				continue
			case dirNone:
				d.NoIndex, d.NoFollow, restricted = true, true, true
				continue
			case dirNoSnippet:
				d.NoSnippet, restricted = true, true
				continue
			case dirNoArchive:
				d.NoArchive, restricted = true, true
				continue
			case dirAll, dirIndex, dirFollow:
				continue
			}
		}
		if hasArg && name == dirUnavailableAfter {
			date := trimSpace(arg)
			t, ok := parseDate(date)
			// RFC 850 and RFC 1123 dates start with "Weekday,": the comma
			// split cut the date in two, so join it back, but only when the
			// joined text is a date (the next element may be "noindex").
			if !ok && isWeekday(date) && i+1 < len(elems) {
				joined := date + ", " + trimSpace(elems[i+1])
				if t, ok = parseDate(joined); ok {
					i++
				}
			}
			if !ok {
				r.note(fmt.Sprintf("%s %s: unavailable_after date %s not understood; ignored", where, quote(v), quote(date)))
				continue
			}
			d.setUnavailableAfter(t)
			restricted = true
			continue
		}
		hint := ""
		if strings.ContainsAny(elem, " \t;") {
			hint = " (directives are separated by commas)"
		}
		r.note(fmt.Sprintf("%s %s: directive %s not understood; ignored%s", where, quote(v), quote(elem), hint))
	}
	src := ""
	if restricted {
		src = v
	}
	if past < len(value) {
		if found := r.restrictions(value[past:], header, applies); found != "" {
			if src != "" {
				src += " ... "
			}
			src += found
		}
	}
	if src != "" {
		d.Sources = append(d.Sources, Source{Where: where, Value: src})
	}
}

// maxQuoted is how many bytes of a value a note quotes.
const maxQuoted = 100

// quote renders s for a note: Go-quoted (so invalid UTF-8 and control
// bytes are escaped) and shortened to maxQuoted bytes.
func quote(s string) string {
	if len(s) > maxQuoted {
		return fmt.Sprintf("%q...", s[:maxQuoted])
	}
	return fmt.Sprintf("%q", s)
}
