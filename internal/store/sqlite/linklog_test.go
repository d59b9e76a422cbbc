package sqlite

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// Issue 26 part 2 (links rebuilt in bulk, not rewritten per fold): the fold appends to link_log
// only what changed in a page's links (a page fetched again with one link swapped logs two rows,
// not its ten links again), and links receives the log only when it holds Options.MergeRows rows
// (and as many as links' rows: mergeLogShare, TestMergesWriteLinksABoundedNumberOfTimes), or before a
// refresh: then all of it, and the log is empty.
func TestLinkLogHoldsChangesUntilItsSize(t *testing.T) {
	ctx := t.Context()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), Options{MergeRows: 30})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	us := addURLs(t, s, 40)
	fetch := func(i int, to func(j int) int) {
		t.Helper()
		u := us[i]
		u.State, u.Status, u.FetchedAt = store.StateFetched, 200, t0
		b := store.Batch{Updates: []store.URL{u}, Documents: []store.Document{{URLID: u.ID, Index: true, Title: u.URL, Text: "walrus"}}}
		for j := range 10 {
			b.Links = append(b.Links, store.Link{FromID: u.ID, To: us[to(j)].URL, Anchor: fmt.Sprint("anchor ", j)})
		}
		if _, err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
		if _, err := s.IndexPending(ctx, 100); err != nil {
			t.Fatal(err)
		}
	}
	count := func(q string) int {
		t.Helper()
		var n int
		if err := s.read.QueryRowContext(ctx, q).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	fetch(0, func(j int) int { return 10 + j })
	if log, links := count(`SELECT COUNT(*) FROM link_log`), count(`SELECT COUNT(*) FROM links`); log != 11 || links != 0 {
		t.Errorf("after one page: %d rows in link_log, %d links; want 11 (10 links and the new entry's touch) and 0", log, links)
	}
	fetch(0, func(j int) int { return 10 + j + j/9 }) // the last link now goes to 20, not 19
	if log, links := count(`SELECT COUNT(*) FROM link_log`), count(`SELECT COUNT(*) FROM links`); log != 13 || links != 0 {
		t.Errorf("after the page again with one link changed: %d rows in link_log, %d links; want 13 (one removal, one addition more) and 0", log, links)
	}
	fetch(1, func(j int) int { return 20 + j })
	if log, links := count(`SELECT COUNT(*) FROM link_log`), count(`SELECT COUNT(*) FROM links`); log != 24 || links != 0 {
		t.Errorf("after a second page: %d rows in link_log, %d links; want 24 and 0 (under the merge size, 30)", log, links)
	}
	fetch(2, func(j int) int { return 30 + j })
	// 35 rows: the merge takes them all (the touches of three new entries, page 0's 12 rows,
	// page 1's 10, page 2's 10 links; in passes of at most 30 rows), leaving 30 links.
	if log, links := count(`SELECT COUNT(*) FROM link_log`), count(`SELECT COUNT(*) FROM links`); log != 0 || links != 30 {
		t.Errorf("past the merge size: %d rows in link_log, %d links; want 0 and 30", log, links)
	}
	if n := count(`SELECT COUNT(*) FROM links WHERE to_id = ` + fmt.Sprint(us[19].ID)); n != 0 {
		t.Errorf("the link the page's second fetch dropped: %d rows in links, want 0", n)
	}
	fetch(3, func(j int) int { return j })
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	if log, links, dirty := count(`SELECT COUNT(*) FROM link_log`), count(`SELECT COUNT(*) FROM links`), count(`SELECT COUNT(*) FROM dirty`); log != 0 || links != 40 || dirty != 0 {
		t.Errorf("after RefreshIndex: %d rows in link_log, %d links, %d dirty; want 0, 40, 0", log, links, dirty)
	}
}
