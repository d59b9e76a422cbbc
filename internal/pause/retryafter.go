package pause

import (
	"net/http"
	"strconv"
	"time"
)

// RetryAfter reads a Retry-After header value, in either of its forms (RFC 9110 §10.2.3): a whole
// number of seconds, or an HTTP-date, which is measured from now. It reports false when the value
// is absent or malformed. A date in the past yields 0 (retry now), never a negative delay.
func RetryAfter(value string, now time.Time) (time.Duration, bool) {
	v := trimASCIISpace(value)
	if v == "" {
		return 0, false
	}
	if isDigits(v) {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > maxRetryAfterSeconds {
			// Too large to represent: the caller's cap applies anyway.
			return time.Duration(maxRetryAfterSeconds) * time.Second, true
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// maxRetryAfterSeconds bounds a seconds value so that it converts to a Duration without overflow
// (about 290 years); real pauses are capped far lower by Policy.Max.
const maxRetryAfterSeconds = int64(1<<63-1) / int64(time.Second)

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func trimASCIISpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}
