package sqlite

import (
	"database/sql/driver"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestRefreshPlansBesideItsWrites: RefreshIndex, the catch-up at the end of a crawl, rewrites
// nearly every entry exactly (issue 26 part 2: anchor text rebuilt in bulk). It reads what each
// entry must become (its links by target, sqlLinksTo) on a connection that writes nothing,
// beside the index writer's transactions, so that the catch-up has two cores: on the writer's
// own connection, planning and writing took turns on one core (85 s of CPU at 1,000,000 pages,
// a third of it planning, while the second core stood idle). The index it leaves is the same:
// the conformance suite and TestKillDuringMergeAndRefresh check that.
func TestRefreshPlansBesideItsWrites(t *testing.T) {
	base := filepath.Join(t.TempDir(), "crawl.db")
	buildLinkedStore(t, base)
	path := copyStore(t, base)
	var mu sync.Mutex
	conns := 0
	writes := map[int]bool{} // connections that began a write transaction
	plans := map[int]int{}   // sqlLinksTo run per connection
	wrap := func(c driver.Conn) (driver.Conn, error) {
		mu.Lock()
		conns++
		id := conns
		mu.Unlock()
		return observing(func(q string) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case strings.HasPrefix(q, "BEGIN IMMEDIATE"):
				writes[id] = true
			case q == sqlLinksTo:
				plans[id]++
			}
		})(c)
	}
	s, err := Open(t.Context(), path, Options{wrapConn: wrap})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.RefreshIndex(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("RefreshIndex wrote no entry; the store was built to need rewrites")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(plans) == 0 {
		t.Fatal("RefreshIndex read no entry's links")
	}
	for id, runs := range plans {
		if writes[id] {
			t.Errorf("connection %d, a writer, read links by target %d times in RefreshIndex: its plans took turns with its writes", id, runs)
		}
	}
}
