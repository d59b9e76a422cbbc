package sitemap

// field accumulates the text of one value (an XML element's character data,
// which may arrive in several pieces, or one line of a text sitemap), trimmed
// of ASCII whitespace at both ends, while holding at most max bytes however
// long the input is.
//
// The zero value is unusable: set max. A field is reused across values via
// reset, keeping its buffer.
type field struct {
	max int

	buf     []byte // the value from its first non-space byte on; ends may hold whitespace
	started bool   // a non-space byte has been seen
	over    bool   // the trimmed value is longer than max
	spill   bool   // trailing whitespace was dropped to stay within max: more content means over
}

// add appends a piece of the value.
func (f *field) add(b []byte) {
	if f.over {
		return
	}
	if !f.started {
		b = trimLeft(b)
		if len(b) == 0 {
			return
		}
		f.started = true
	}
	content := trimRight(b)
	if len(content) > 0 {
		// Whitespace kept or spilled before this content is now inside the
		// value, so it counts.
		if f.spill || len(f.buf)+len(content) > f.max {
			f.over = true
			f.buf = f.buf[:0]
			return
		}
		f.buf = append(f.buf, content...)
	}
	if tail := b[len(content):]; len(tail) > 0 {
		if len(f.buf)+len(tail) > f.max {
			f.spill = true // harmless unless content follows
		} else {
			f.buf = append(f.buf, tail...)
		}
	}
}

// empty reports that no non-space byte has been added since the last reset.
func (f *field) empty() bool { return !f.started }

// tooLong reports that the trimmed value is longer than max.
func (f *field) tooLong() bool { return f.over }

// value returns the trimmed value; it is "" when empty or tooLong.
func (f *field) value() string {
	if f.over {
		return ""
	}
	return string(trimRight(f.buf))
}

// reset empties the field for the next value, keeping its buffer.
func (f *field) reset() {
	f.buf = f.buf[:0]
	f.started, f.over, f.spill = false, false, false
}
