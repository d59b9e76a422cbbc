package storetest

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Settings (issue 27: a crawl remembers what it was told): a value saved is read back as
// saved, a second save replaces it, an unknown key is not an error, and keys are the caller's
// (a setting named like the store's own bookkeeping neither reads nor overwrites it).
func testSettings(t *testing.T, s store.Store) {
	ctx := t.Context()
	if v, ok, err := s.Setting(ctx, "crawl"); err != nil || ok || v != "" {
		t.Fatalf("new store: Setting(crawl) = %q, %v, %v; want none", v, ok, err)
	}
	if v, ok, err := s.Setting(ctx, "schema_version"); err != nil || ok {
		t.Errorf("Setting(schema_version) = %q, %v, %v: the store's own bookkeeping leaked into the settings", v, ok, err)
	}
	const first = `{"scope":"any","allow_private":true}`
	if err := s.SaveSetting(ctx, "crawl", first); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.Setting(ctx, "crawl"); err != nil || !ok || v != first {
		t.Fatalf("Setting(crawl) = %q, %v, %v; want %q", v, ok, err, first)
	}
	const second = "héllo\nwith ' quotes \" and \x01"
	if err := s.SaveSetting(ctx, "crawl", second); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSetting(ctx, "other", "x"); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := s.Setting(ctx, "crawl"); err != nil || !ok || v != second {
		t.Errorf("after a second save: Setting(crawl) = %q, %v, %v; want %q", v, ok, err, second)
	}
	if v, ok, err := s.Setting(ctx, "other"); err != nil || !ok || v != "x" {
		t.Errorf("Setting(other) = %q, %v, %v; want x", v, ok, err)
	}
	// A setting named like the store's own row must not replace it: the store keeps working.
	if err := s.SaveSetting(ctx, "schema_version", "0"); err != nil {
		t.Fatal(err)
	}
	commit(t, s, store.Batch{New: []store.NewURL{queued("http://a.test/", 0, t0)}})
	if v, ok, err := s.Setting(ctx, "schema_version"); err != nil || !ok || v != "0" {
		t.Errorf("Setting(schema_version) = %q, %v, %v; want the caller's 0", v, ok, err)
	}
}
