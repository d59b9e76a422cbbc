package sqlite

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Issue 26, "no more bytes per document than today": the staged text of documents the indexer
// took long to catch up with is the crawl file's largest table while it waits, and its pages
// stay in the file, free, once the text is indexed (4,083 bytes per document of 8,792 at
// 1,000,000 documents). RefreshIndex, which leaves nothing staged, gives them back: after it
// the crawl database holds fewer free pages than reclaimMinPages and, closed, is smaller than
// the text it staged.
func TestRefreshIndexGivesBackTheStagedTextsPages(t *testing.T) {
	s, path := openTemp(t)
	const docs, textBytes = 300, 64 << 10 // 19 MiB staged: more than reclaimMinPages
	if docs*textBytes < 2*reclaimMinPages*crawlPageSize {
		t.Fatalf("the test stages %d bytes, not well above reclaimMinPages (%d pages)", docs*textBytes, reclaimMinPages)
	}
	us := addURLs(t, s, docs)
	for i := 0; i < docs; i += 50 { // several commits, as a crawl stages them
		commitFetched(t, s, us[i:i+50], func(j int) string {
			return strings.Repeat(fmt.Sprintf("word%d ", i+j), textBytes/8)
		}, false)
	}
	if _, err := s.RefreshIndex(t.Context()); err != nil {
		t.Fatal(err)
	}
	if free := pragmaInt(t, s, "freelist_count"); free >= reclaimMinPages {
		t.Errorf("after RefreshIndex the crawl database has %d free pages of %d bytes, want fewer than %d", free, crawlPageSize, reclaimMinPages)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() >= docs*textBytes/4 {
		t.Errorf("closed, the crawl database is %d bytes for %d URLs; its staged text (%d bytes) is gone, want under a quarter of it", fi.Size(), docs, docs*textBytes)
	}
}
