package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fractle/mandelbot/internal/index"
)

// GET /api/search prints what `mandelbot search --json` prints: index.JSONOf of the same page,
// encoded the same way (indented, no HTML escaping), as application/json.
func TestAPISearchIsJSONOf(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	for _, tt := range []struct {
		params string
		q      index.Query
	}{
		{"q=quasar", index.Query{Text: "quasar"}},
		{"q=quasar&limit=2&offset=1", index.Query{Text: "quasar", Limit: 2, Offset: 1}},
		{"q=" + url.QueryEscape("vault plans"), index.Query{Text: "vault plans"}},
		{"q=zyzzyva", index.Query{Text: "zyzzyva"}},
	} {
		resp, body := get(t, srv, "/api/search?"+tt.params)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Fatalf("%s: status %d, Content-Type %q\n%s", tt.params, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		tt.q.Now = t0
		page, err := st.Search(t.Context(), tt.q)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(index.JSONOf(page)); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.String(), body); diff != "" {
			t.Errorf("%s: body differs from index.JSONOf (-want +got):\n%s", tt.params, diff)
		}
	}
	// The hostile title travels as data, unchanged.
	_, body := get(t, srv, "/api/search?q=quoted")
	var got index.PageJSON
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Results) != 1 || got.Results[0].Title != `Quasar <script>window.pwned=1</script> "quoted" & 'single'` {
		t.Errorf("results %+v", got.Results)
	}
}

// A bad query, limit or offset is the client's error (400); errors are JSON too.
func TestAPISearchBadRequests(t *testing.T) {
	st := newStore(t)
	addPages(t, st, hostilePages, hostileBlocks)
	srv := newSite(t, st, nil)
	for _, tt := range []struct{ params, want string }{
		{"", "q: missing"},
		{"q=", "q: missing"},
		{"q=" + url.QueryEscape(";-)"), "no word to search for"},
		{"q=" + strings.Repeat("x", index.MaxQueryBytes+1), "longer than 512 bytes"},
		{"q=quasar&limit=0", "limit"},
		{"q=quasar&limit=101", "limit"},
		{"q=quasar&limit=ten", "limit"},
		{"q=quasar&offset=-1", "offset"},
		{"q=quasar&offset=1001", "offset"},
		{"q=quasar&offset=1e3", "offset"},
	} {
		resp, body := get(t, srv, "/api/search?"+tt.params)
		var e struct{ Error string }
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			t.Errorf("%.40s: not JSON: %q", tt.params, body)
		}
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(e.Error, tt.want) ||
			resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
			t.Errorf("%.40s: status %d, error %q, want 400 with %q", tt.params, resp.StatusCode, e.Error, tt.want)
		}
	}
}

// Anything else is the server's error (500), still as JSON, without internal details.
func TestAPISearchStoreFailureIs500(t *testing.T) {
	srv := newSite(t, failing{newStore(t)}, nil)
	resp, body := get(t, srv, "/api/search?q=quasar")
	var e struct{ Error string }
	if err := json.Unmarshal([]byte(body), &e); err != nil || resp.StatusCode != http.StatusInternalServerError || e.Error == "" {
		t.Fatalf("status %d, body %q", resp.StatusCode, body)
	}
	if strings.Contains(e.Error, "sql") {
		t.Errorf("the error shows internals: %q", e.Error)
	}
}
