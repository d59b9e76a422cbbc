package urlnorm

import (
	"errors"
	"strconv"
)

// The reasons a URL is refused. Every error returned by this package wraps
// exactly one of them, so callers can count refusals by reason with
// errors.Is.
var (
	// ErrTooLong: the input, or the canonical form it produces, is longer
	// than the Parser's MaxLength, or the path has more segments than its
	// MaxPathSegments. The input's length is checked before parsing, so an
	// overlong input costs nothing to refuse.
	ErrTooLong = errors.New("URL too long")

	// ErrScheme: the URL is not http or https (javascript:, mailto:, data:,
	// ftp:, ...), or Parse was given a string with no scheme at all.
	ErrScheme = errors.New("scheme is not http or https")

	// ErrNoHost: an http(s) URL with an empty host ("http://", "http:///",
	// "http://:80/").
	ErrNoHost = errors.New("URL has no host")

	// ErrPort: the port is not a number, is 0, or is above 65535.
	ErrPort = errors.New("invalid port")

	// ErrInvalid: any other reason the WHATWG URL parser or the host rules of
	// this package refuse the URL (bad IPv4/IPv6 literal, forbidden host code
	// point, IDNA failure, empty host label, ...).
	ErrInvalid = errors.New("invalid URL")
)

// maxErrorInput is how many bytes of the offending input an Error keeps, so
// that logging an error about an 8 KiB URL does not log 8 KiB.
const maxErrorInput = 200

// Error describes why an input was refused. Err is one of the sentinel
// errors above; Cause, when not nil, is the underlying error of the WHATWG
// parser or of IDNA. Both are reachable with errors.Is and errors.As.
type Error struct {
	Op     string // "parse" or "resolve"
	Input  string // the input, cut to 200 bytes
	Err    error  // ErrTooLong, ErrScheme, ErrNoHost, ErrPort or ErrInvalid
	Detail string // what exactly was wrong, for people; may be empty
	Cause  error  // the underlying library error, if any
}

func (e *Error) Error() string {
	s := "urlnorm: " + e.Op + " " + strconv.Quote(e.Input) + ": " + e.Err.Error()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns the sentinel and, when there is one, the cause.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Err}
	}
	return []error{e.Err, e.Cause}
}

// newError builds an *Error, cutting the input to maxErrorInput bytes
// without splitting a UTF-8 sequence.
func newError(op, input string, kind error, detail string, cause error) *Error {
	if len(input) > maxErrorInput {
		cut := maxErrorInput
		for cut > 0 && input[cut]&0xC0 == 0x80 {
			cut--
		}
		input = input[:cut] + "..."
	}
	return &Error{Op: op, Input: input, Err: kind, Detail: detail, Cause: cause}
}
