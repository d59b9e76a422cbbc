package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// A limit on every resource: a link-only result's title (topAnchor), snippet
// (anchorSnippets) and anchor votes (fillAnchorVotes) come from the links to it, and a URL
// linked from every page of a large site has hundreds of thousands; a search reads at most resultLinks of them for each, however many
// there are. The test counts the rows of links that the read connections' statements on links
// by target return while a search shows one link-only result with 3 × resultLinks links.
func TestALinkOnlyResultReadsBoundedLinks(t *testing.T) {
	ctx := context.Background()
	var read atomic.Int64
	counting := func(c driver.Conn) (driver.Conn, error) {
		full, ok := c.(fullConn)
		if !ok {
			return nil, errors.New("the driver's connection cannot be observed")
		}
		return linkRowsConn{full, &read}, nil
	}
	s, err := Open(ctx, filepath.Join(t.TempDir(), "crawl.db"), Options{wrapConn: counting})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const linking = 3 * resultLinks
	us := addURLs(t, s, linking+1)
	target := us[linking]
	var b store.Batch
	for i, u := range us[:linking] {
		u = fetchedURL(u)
		b.Updates = append(b.Updates, u)
		b.Documents = append(b.Documents, store.Document{URLID: u.ID, Index: true, Title: u.URL, Text: "page"})
		b.Links = append(b.Links, store.Link{FromID: u.ID, To: target.URL, Anchor: fmt.Sprintf("narwhal tusk %d", i)})
	}
	if _, err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RefreshIndex(ctx); err != nil {
		t.Fatal(err)
	}
	read.Store(0)
	p, err := s.Search(ctx, index.Query{Text: "narwhal", Limit: 10, Now: t0})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Results) != 1 || p.Results[0].URL != target.URL || !p.Results[0].LinkOnly || p.Results[0].Title == "" || len(p.Results[0].Snippet) == 0 {
		t.Fatalf("search narwhal: %+v, want the link-only entry %s with its title and snippet from its links", p.Results, target.URL)
	}
	// Anchor votes (fillAnchorVotes, a ranking input) read a count per anchor text among the
	// first resultLinks links, and every link here has an anchor text of its own.
	if n := read.Load(); n > 3*resultLinks+100 {
		t.Errorf("the search read %d rows of links by target for one link-only result with %d links, want at most %d (title, snippet and anchor votes, resultLinks each)", n, linking, 3*resultLinks+100)
	}
}

// linkRowsConn counts, in n, the rows returned by the statements it runs on links by target.
type linkRowsConn struct {
	fullConn
	n *atomic.Int64
}

func (c linkRowsConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	rows, err := c.fullConn.QueryContext(ctx, query, args)
	if err != nil || !strings.Contains(query, "FROM links WHERE to_id") {
		return rows, err
	}
	return countedRows{rows, c.n}, nil
}

// countedRows adds each row it returns to n.
type countedRows struct {
	driver.Rows
	n *atomic.Int64
}

func (r countedRows) Next(dest []driver.Value) error {
	err := r.Rows.Next(dest)
	if err == nil {
		r.n.Add(1)
	}
	return err
}
