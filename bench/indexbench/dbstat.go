package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/fractle/mandelbot/bench/internal/mdtable"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	_ "modernc.org/sqlite" // the driver the store uses, for its dbstat table
)

// tableBytes is the bytes one table or index of a store takes in its file (dbstat), or the
// file's free pages (Table "(free pages)").
type tableBytes struct {
	File, Table string
	Bytes       int64
}

// storeBytes reads, read-only, where the bytes of the SQLite store at path go: each table and
// index of its three files (SQLite's dbstat table, which reads every page), and each file's
// free pages (pages of rows deleted since: a build that stages every document before indexing
// them leaves the crawl file's staged rows as free pages, which a crawl whose indexer keeps up
// does not).
func storeBytes(ctx context.Context, path string) ([]tableBytes, error) {
	var out []tableBytes
	for _, f := range sqlite.Files(path) {
		db, err := sql.Open("sqlite", "file:"+f+"?mode=ro")
		if err != nil {
			return nil, err
		}
		err = func() error {
			defer db.Close()
			var free, pageSize int64
			if err := db.QueryRowContext(ctx, `SELECT (SELECT freelist_count FROM pragma_freelist_count), (SELECT page_size FROM pragma_page_size)`).Scan(&free, &pageSize); err != nil {
				return err
			}
			rows, err := db.QueryContext(ctx, `SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC`)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				t := tableBytes{File: filepath.Base(f)}
				if err := rows.Scan(&t.Table, &t.Bytes); err != nil {
					return err
				}
				out = append(out, t)
			}
			out = append(out, tableBytes{File: filepath.Base(f), Table: "(free pages)", Bytes: free * pageSize})
			return rows.Err()
		}()
		if err != nil {
			return nil, fmt.Errorf("-dbstat %s: %w", f, err)
		}
	}
	return out, nil
}

// reportBytes writes where the store's bytes go, per document, largest first within each file,
// with the totals with and without the free pages.
func reportBytes(out io.Writer, ts []tableBytes, docs int) error {
	t := mdtable.Table{Header: []string{"file", "table or index", "bytes", "bytes per document"}, Right: []bool{false, false, true, true}}
	perDoc := func(n int64) string { return fmt.Sprintf("%.0f", float64(n)/float64(docs)) }
	var all, free int64
	for _, x := range ts {
		all += x.Bytes
		if x.Table == "(free pages)" {
			free += x.Bytes
		}
		if float64(x.Bytes)/float64(docs) >= 1 || x.Table == "(free pages)" {
			t.Add(x.File, x.Table, strconv.FormatInt(x.Bytes, 10), perDoc(x.Bytes))
		}
	}
	t.Add("all files", "everything", strconv.FormatInt(all, 10), perDoc(all))
	t.Add("all files", "free pages left out", strconv.FormatInt(all-free, 10), perDoc(all-free))
	return t.Write(out)
}
