package main

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

func openStore(t *testing.T) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func searchQuery(text string) index.Query { return index.Query{Text: text, Limit: 10} }
