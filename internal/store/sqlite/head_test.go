package sqlite

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 part 3: an entry's head row is written and dropped with its fts row, and holds its
// title, headings, URL words and the identifier parts of its title and headings, not its body;
// head rows left above the last fts row (a text transaction whose index transaction did not
// commit) are removed before the next rows are written.
func TestHeadRowFollowsTheText(t *testing.T) {
	s, _ := openTemp(t)
	ctx := t.Context()
	us := addURLs(t, s, 2)
	count := func(match string) int {
		t.Helper()
		var n int
		if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM head WHERE head MATCH ?`, match).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	fetch := func(u store.URL, title, headings, text string) {
		t.Helper()
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		if _, err := s.Commit(ctx, store.Batch{Updates: []store.URL{u},
			Documents: []store.Document{{URLID: u.ID, Index: true, Title: title, Headings: headings, Text: text}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.RefreshIndex(ctx); err != nil {
			t.Fatal(err)
		}
	}
	fetch(us[0], "Walrus", "KeepAliveTimeout", "tusks and whiskers")
	for match, want := range map[string]int{"walrus": 1, "alive": 1, "timeout": 1, "tusks": 0, `"a test"`: 1} {
		if got := count(match); got != want {
			t.Errorf("head rows matching %s: %d, want %d", match, got, want)
		}
	}
	fetch(us[0], "Beluga", "", "melon")
	if w, b := count("walrus"), count("beluga"); w != 0 || b != 1 {
		t.Errorf("after the page was fetched again: head rows with walrus %d, beluga %d; want 0, 1", w, b)
	}
	if _, err := s.tconn.ExecContext(ctx, `INSERT INTO head (rowid, title) VALUES (1000, 'orphan')`); err != nil {
		t.Fatal(err)
	}
	fetch(us[1], "Narwhal", "", "horn")
	if o, n := count("orphan"), count("narwhal"); o != 0 || n != 1 {
		t.Errorf("head rows: orphan %d, narwhal %d; want 0, 1", o, n)
	}
}
