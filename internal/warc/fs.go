package warc

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// File is a WARC file being written. *os.File implements it.
type File interface {
	io.Writer
	// Sync makes what was written durable.
	Sync() error
	// Truncate cuts the file to size bytes; the Writer uses it to drop a
	// record whose write failed.
	Truncate(size int64) error
	Close() error
}

// FS is where a Writer creates its files. Implementations must be safe
// for use by one Writer (calls are serialised).
type FS interface {
	// Create creates the file name (a base name) for writing and fails if
	// it already exists.
	Create(name string) (File, error)
	// SyncDir makes the directory entries of created files durable.
	SyncDir() error
}

// DirFS returns the FS of the directory dir on the operating system's file
// system.
func DirFS(dir string) FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Create(name string) (File, error) {
	if name != filepath.Base(name) {
		return nil, fmt.Errorf("warc: create %q: not a base name", name)
	}
	f, err := os.OpenFile(filepath.Join(string(d), name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func (d dirFS) SyncDir() error {
	f, err := os.Open(string(d))
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
