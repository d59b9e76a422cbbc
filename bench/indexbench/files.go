package main

import (
	"errors"
	"io/fs"
	"os"
)

// dbFile is one file of a SQLite database and its size.
type dbFile struct {
	Name string // the suffix: "" for the database itself, "-wal", "-shm"
	Size int64  // -1 when the file does not exist
}

// dbFiles returns the sizes of the database at path and of its WAL and shared-memory files.
func dbFiles(path string) ([]dbFile, error) {
	var out []dbFile
	for _, suffix := range []string{"", "-wal", "-shm"} {
		f := dbFile{Name: suffix, Size: -1}
		fi, err := os.Stat(path + suffix)
		switch {
		case err == nil:
			f.Size = fi.Size()
		case !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// dataBytes is the size of the database file plus its WAL: what the index holds on disk (the
// shared-memory file is an index of the WAL, rebuilt at will).
func dataBytes(files []dbFile) int64 {
	var n int64
	for _, f := range files {
		if f.Size > 0 && f.Name != "-shm" {
			n += f.Size
		}
	}
	return n
}
