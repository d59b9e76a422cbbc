package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// dbFile is one file of a SQLite store and its size.
type dbFile struct {
	Name string // the file's name ("crawl.db-wal"), or "pg" for a PostgreSQL schema
	Size int64  // -1 when the file does not exist
}

// dbFiles returns the sizes of the databases of the SQLite store at path (sqlite.Files: the
// crawl and index databases) and of their WAL and shared-memory files.
func dbFiles(path string) ([]dbFile, error) {
	var out []dbFile
	for _, db := range sqlite.Files(path) {
		for _, suffix := range []string{"", "-wal", "-shm"} {
			f, err := fileSize(db + suffix)
			if err != nil {
				return nil, err
			}
			out = append(out, f)
		}
	}
	return out, nil
}

// fileSize is the size of the file at path, -1 if there is none.
func fileSize(path string) (dbFile, error) {
	f := dbFile{Name: filepath.Base(path), Size: -1}
	fi, err := os.Stat(path)
	switch {
	case err == nil:
		f.Size = fi.Size()
	case !errors.Is(err, fs.ErrNotExist):
		return f, err
	}
	return f, nil
}

// dataBytes is the size of the database files plus their WALs: what the store holds on disk (a
// shared-memory file is an index of a WAL, rebuilt at will).
func dataBytes(files []dbFile) int64 {
	var n int64
	for _, f := range files {
		if f.Size > 0 && !strings.HasSuffix(f.Name, "-shm") {
			n += f.Size
		}
	}
	return n
}
