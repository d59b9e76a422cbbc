package store

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 10: a page's header round-trips through the one stored format.
func TestHeaderRoundTrip(t *testing.T) {
	h := http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Set-Cookie": {"a=1", "b=2"}, "X-Empty": {""}}
	if d := cmp.Diff(h, DecodeHeader(EncodeHeader(h))); d != "" {
		t.Errorf("round trip (-want +got):\n%s", d)
	}
	if EncodeHeader(nil) != nil || len(DecodeHeader(nil)) != 0 || DecodeHeader(nil) == nil {
		t.Errorf("an empty header: EncodeHeader(nil) = %q, DecodeHeader(nil) = %#v; want nil and an empty header", EncodeHeader(nil), DecodeHeader(nil))
	}
}

// Issue 10: the kept header is cut at MaxHeaderFields values and MaxHeaderBytes bytes, whole
// values only, in name order.
func TestHeaderLimits(t *testing.T) {
	h := http.Header{}
	for i := range 2 * MaxHeaderFields {
		h.Add(fmt.Sprintf("X-F%03d", i), "v")
	}
	got := DecodeHeader(EncodeHeader(h))
	if len(got) != MaxHeaderFields || got.Get("X-F000") != "v" || got.Get(fmt.Sprintf("X-F%03d", MaxHeaderFields-1)) != "v" {
		t.Errorf("%d fields kept (first kept %v); want the first %d by name", len(got), got.Get("X-F000") != "", MaxHeaderFields)
	}
	big := http.Header{"A": {strings.Repeat("a", MaxHeaderBytes/2)}, "B": {strings.Repeat("b", MaxHeaderBytes/2)}, "C": {"c"}}
	enc := EncodeHeader(big)
	if len(enc) > MaxHeaderBytes {
		t.Errorf("encoded %d bytes; want at most %d", len(enc), MaxHeaderBytes)
	}
	if got := DecodeHeader(enc); got.Get("A") != big.Get("A") || got.Get("B") != "" {
		t.Errorf("kept %d bytes of A and %d of B; want A whole and B left out (values are never cut)", len(got.Get("A")), len(got.Get("B")))
	}
	if got := DecodeHeader(EncodeHeader(http.Header{"X": {"a\r\nInjected: 1"}})); len(got) != 0 {
		t.Errorf("a value with CR LF decoded as %v; want it left out", got)
	}
}
