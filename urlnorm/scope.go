package urlnorm

import "fmt"

// Scope says which links a crawl follows from its seeds: the values of
// `mandelbot crawl --scope host|domain|any`. The zero value is ScopeHost,
// the narrowest.
//
// *Scope implements flag.Value and the pflag.Value used by cobra, and
// encoding.TextMarshaler / TextUnmarshaler, so it can be a flag or a config
// field directly.
type Scope uint8

const (
	// ScopeHost: the same host name. Scheme and port may differ, so
	// http://example.com and https://example.com:8443 are in scope of each
	// other, and a redirect from http to https stays in scope.
	ScopeHost Scope = iota
	// ScopeDomain: the same registrable domain (see URL.RegistrableDomain),
	// so www.example.com and shop.example.com are in scope of each other.
	ScopeDomain
	// ScopeAny: every http(s) URL.
	ScopeAny
)

var scopeNames = [...]string{ScopeHost: "host", ScopeDomain: "domain", ScopeAny: "any"}

// String returns "host", "domain" or "any".
func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return fmt.Sprintf("Scope(%d)", uint8(s))
}

// ParseScope parses "host", "domain" or "any", ignoring ASCII case.
func ParseScope(v string) (Scope, error) {
	for s, name := range scopeNames {
		if equalFoldASCII(v, name) {
			return Scope(s), nil
		}
	}
	return ScopeHost, fmt.Errorf("urlnorm: parse scope %q: want host, domain or any", v)
}

// Set implements flag.Value.
func (s *Scope) Set(v string) error {
	p, err := ParseScope(v)
	if err != nil {
		return err
	}
	*s = p
	return nil
}

// Type implements pflag.Value; it names the flag's value in help text.
func (s *Scope) Type() string { return "scope" }

// MarshalText implements encoding.TextMarshaler.
func (s Scope) MarshalText() ([]byte, error) {
	if int(s) >= len(scopeNames) {
		return nil, fmt.Errorf("urlnorm: marshal scope: unknown value %d", uint8(s))
	}
	return []byte(scopeNames[s]), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Scope) UnmarshalText(b []byte) error { return s.Set(string(b)) }

// SameScope reports whether b is in scope of a (the relation is symmetric).
// It is false when either URL is nil or scope is not a known value.
func SameScope(a, b *URL, scope Scope) bool {
	if a == nil || b == nil {
		return false
	}
	switch scope {
	case ScopeHost:
		return a.Host() == b.Host()
	case ScopeDomain:
		return a.RegistrableDomain() == b.RegistrableDomain()
	case ScopeAny:
		return true
	}
	return false
}

// equalFoldASCII compares ASCII case-insensitively; unlike strings.EqualFold
// it never folds non-ASCII (the Kelvin sign is not "k").
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if asciiLower(a[i]) != asciiLower(b[i]) {
			return false
		}
	}
	return true
}
