package urlnorm

import (
	"encoding/json"
	"flag"
	"io"
	"testing"
)

// TestRegistrableDomain: eTLD+1 by the public suffix list, for --scope domain.
func TestRegistrableDomain(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://example.com/", "example.com"},
		{"http://www.example.com/", "example.com"},
		{"http://a.b.c.example.com/", "example.com"},
		{"http://www.example.co.uk/", "example.co.uk"},
		{"http://alice.github.io/", "alice.github.io"}, // private suffix: each user is a site
		{"http://www.bücher.de/", "xn--bcher-kva.de"},
		{"http://www.пример.рф/", "xn--e1afmkfd.xn--p1ai"}, // IDN TLD, punycode in and out
		{"http://co.uk/", "co.uk"},                         // a public suffix itself
		{"http://localhost/", "localhost"},                 // single label
		{"http://127.0.0.1/", "127.0.0.1"},
		{"http://[::1]/", "::1"},
	}
	for _, tt := range tests {
		if got := mustParse(t, tt.url).RegistrableDomain(); got != tt.want {
			t.Errorf("RegistrableDomain(%s) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestSameScope: the three values of `crawl --scope` (docs/design.md).
func TestSameScope(t *testing.T) {
	tests := []struct {
		a, b              string
		host, domain, any bool
	}{
		{"http://www.example.com/a", "http://www.example.com/b", true, true, true},
		{"http://www.example.com/", "https://www.example.com:8443/", true, true, true}, // host ignores scheme and port
		{"http://www.example.com/", "http://shop.example.com/", false, true, true},
		{"http://example.com/", "http://www.example.com/", false, true, true},
		{"http://www.example.co.uk/", "http://other.co.uk/", false, false, true},
		{"http://alice.github.io/", "http://bob.github.io/", false, false, true},
		{"http://www.example.com/", "http://www.example.org/", false, false, true},
		{"http://127.0.0.1/", "http://127.0.0.2/", false, false, true},
		{"http://[::1]:8080/", "http://[::1]:9090/", true, true, true},
	}
	for _, tt := range tests {
		a, b := mustParse(t, tt.a), mustParse(t, tt.b)
		for _, c := range []struct {
			scope Scope
			want  bool
		}{{ScopeHost, tt.host}, {ScopeDomain, tt.domain}, {ScopeAny, tt.any}} {
			if got := SameScope(a, b, c.scope); got != c.want {
				t.Errorf("SameScope(%s, %s, %v) = %v, want %v", a, b, c.scope, got, c.want)
			}
			if got := SameScope(b, a, c.scope); got != c.want {
				t.Errorf("SameScope(%s, %s, %v) = %v, want %v (symmetry)", b, a, c.scope, got, c.want)
			}
		}
	}
	u := mustParse(t, "http://example.com/")
	if SameScope(nil, u, ScopeAny) || SameScope(u, nil, ScopeAny) || SameScope(u, u, Scope(99)) {
		t.Error("nil URL or unknown scope must be out of scope")
	}
}

// TestParseScope: the flag values host|domain|any; ASCII case only.
func TestParseScope(t *testing.T) {
	tests := []struct {
		in   string
		want Scope
		ok   bool
	}{
		{"host", ScopeHost, true},
		{"domain", ScopeDomain, true},
		{"any", ScopeAny, true},
		{"DOMAIN", ScopeDomain, true},
		{"Any", ScopeAny, true},
		{"ho\u017ft", 0, false}, // "ſ" (long s) folds to "s" in Unicode, not in ASCII
		{"", 0, false},
		{"all", 0, false},
		{" host", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseScope(tt.in)
		if (err == nil) != tt.ok || tt.ok && got != tt.want {
			t.Errorf("ParseScope(%q) = %v, %v", tt.in, got, err)
		}
	}
	var zero Scope
	if zero != ScopeHost || zero.String() != "host" {
		t.Errorf("zero Scope = %v, want host", zero)
	}
}

// TestScopeAsFlag: a *Scope is a flag.Value, as cmd/mandelbot will use it.
func TestScopeAsFlag(t *testing.T) {
	fs := flag.NewFlagSet("crawl", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var s Scope
	fs.Var(&s, "scope", "host, domain or any")
	if err := fs.Parse([]string{"-scope", "domain"}); err != nil || s != ScopeDomain {
		t.Errorf("-scope domain: %v, %v", s, err)
	}
	if err := fs.Parse([]string{"-scope", "planet"}); err == nil {
		t.Error("-scope planet accepted")
	}
	if s.Type() != "scope" {
		t.Errorf("Type() = %q", s.Type())
	}
}

// TestScopeText: Scope round-trips through encoding.TextMarshaler (JSON
// config, export).
func TestScopeText(t *testing.T) {
	for _, s := range []Scope{ScopeHost, ScopeDomain, ScopeAny} {
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var back Scope
		if err := json.Unmarshal(b, &back); err != nil || back != s {
			t.Errorf("%v -> %s -> %v, %v", s, b, back, err)
		}
	}
	if _, err := json.Marshal(Scope(7)); err == nil {
		t.Error("unknown Scope marshalled")
	}
	if Scope(7).String() != "Scope(7)" {
		t.Errorf("String of unknown = %q", Scope(7).String())
	}
}
