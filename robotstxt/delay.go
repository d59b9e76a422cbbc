package robotstxt

import (
	"math"
	"time"
)

// parseDelay parses a Crawl-delay value (docs/robots-rules.md rule 9): a
// non-negative decimal number of seconds, with an optional fraction
// ("10", "0.5", "2.", ".25"). Signs, exponents, units and inner spaces are
// invalid. Digits beyond nanoseconds are dropped; a value too large for a
// time.Duration saturates at the largest one (about 292 years), which is
// still a valid delay: the crawler caps delays by its own policy.
func parseDelay(s string) (time.Duration, bool) {
	intPart, frac := s, ""
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			intPart, frac = s[:i], s[i+1:]
			break
		}
	}
	if intPart == "" && frac == "" || !allDigits(intPart) || !allDigits(frac) {
		return 0, false
	}
	const maxSeconds = math.MaxInt64 / int64(time.Second)
	var sec int64
	for i := 0; i < len(intPart); i++ {
		sec = sec*10 + int64(intPart[i]-'0')
		if sec > maxSeconds {
			return time.Duration(math.MaxInt64), true
		}
	}
	var ns int64
	scale := int64(time.Second)
	for i := 0; i < len(frac) && scale > 1; i++ {
		scale /= 10
		ns += int64(frac[i]-'0') * scale
	}
	d := sec*int64(time.Second) + ns
	if d < 0 { // sec == maxSeconds and the fraction overflowed
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(d), true
}

// allDigits reports whether s consists of ASCII digits only (true for "").
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
