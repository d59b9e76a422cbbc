package sqlite

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Issue 26, "no more bytes per document than today": the staged text of documents the indexer
// took long to catch up with is the crawl file's largest table while it waits, and its pages
// stay in the file, free, once the text is indexed (4,083 bytes per document of 8,792 at
// 1,000,000 documents). RefreshIndex, which leaves nothing staged, gives them back: after it
// the crawl database holds fewer free pages than reclaimMinPages and, closed and opened again,
// is smaller than the text it staged. Two cases: a file mostly free (the text was most of it:
// VACUUM copies the live pages, cheaper than moving them) and a file whose live pages (many
// URLs) outweigh the free ones (incremental_vacuum moves them).
func TestRefreshIndexGivesBackTheStagedTextsPages(t *testing.T) {
	const docs, textBytes = 300, 64 << 10 // 19 MiB staged: more than reclaimMinPages
	if docs*textBytes < 2*reclaimMinPages*crawlPageSize {
		t.Fatalf("the test stages %d bytes, not well above reclaimMinPages (%d pages)", docs*textBytes, reclaimMinPages)
	}
	for _, tc := range []struct {
		name  string
		urls  int // queued URLs besides the documents': the live pages
		wants string
	}{
		{"mostly free", 0, "VACUUM"},
		{"mostly live", 150_000, "PRAGMA incremental_vacuum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "crawl.db")
			log := &statementLog{}
			s, err := Open(t.Context(), path, Options{wrapConn: observing(log.observe)})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			us := addURLs(t, s, docs+tc.urls)
			for i := 0; i < docs; i += 50 { // several commits, as a crawl stages them
				commitFetched(t, s, us[i:i+50], func(j int) string {
					return strings.Repeat(fmt.Sprintf("word%d ", i+j), textBytes/8)
				}, false)
			}
			staged := pragmaInt(t, s, "page_count")
			ran := log.during(func() {
				if _, err := s.RefreshIndex(t.Context()); err != nil {
					t.Fatal(err)
				}
			})
			if !slices.ContainsFunc(ran, func(q string) bool { return strings.HasPrefix(q, tc.wants) }) {
				t.Errorf("RefreshIndex ran no %s", tc.wants)
			}
			if free := pragmaInt(t, s, "freelist_count"); free >= reclaimMinPages {
				t.Errorf("after RefreshIndex the crawl database has %d free pages of %d bytes, want fewer than %d", free, crawlPageSize, reclaimMinPages)
			}
			pages := pragmaInt(t, s, "page_count")
			if given := (staged - pages) * crawlPageSize; given < docs*textBytes*3/4 {
				t.Errorf("RefreshIndex gave back %d bytes of the crawl database, want most of the %d bytes of text it staged", given, docs*textBytes)
			}
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			if size := fileSize(t, path); size > int64(pages*crawlPageSize) {
				t.Errorf("closed, the crawl database is %d bytes, want at most its %d pages of %d bytes", size, pages, crawlPageSize)
			}
			s, err = Open(t.Context(), path, Options{}) // the header (schema.go) survives the copy
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if n := len(addURLs(t, s, 1)); n != 0 {
				t.Errorf("the URLs of the store were not kept: %d of the first added again", n)
			}
		})
	}
}

// fileSize is the size of the file at path.
func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
