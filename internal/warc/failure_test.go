package warc

import (
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// diskFS is a directory on the real file system whose disk holds only
// budget more bytes: the write that goes past it writes what fits and
// fails with ENOSPC, as a full disk does.
type diskFS struct {
	dir string

	mu          sync.Mutex
	budget      int64
	truncateErr error // Truncate fails with it, when set
	syncErr     error // Sync fails with it, when set
}

func (d *diskFS) Create(name string) (File, error) {
	f, err := os.OpenFile(filepath.Join(d.dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	return &diskFile{File: f, fs: d}, nil
}

func (d *diskFS) SyncDir() error { return nil }

func (d *diskFS) setBudget(n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.budget = n
}

type diskFile struct {
	*os.File
	fs *diskFS
}

func (f *diskFile) Write(p []byte) (int, error) {
	f.fs.mu.Lock()
	defer f.fs.mu.Unlock()
	if int64(len(p)) <= f.fs.budget {
		f.fs.budget -= int64(len(p))
		return f.File.Write(p)
	}
	n, err := f.File.Write(p[:f.fs.budget])
	f.fs.budget = 0
	if err == nil {
		err = &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
	}
	return n, err
}

func (f *diskFile) Truncate(size int64) error {
	if f.fs.truncateErr != nil {
		return f.fs.truncateErr
	}
	return f.File.Truncate(size)
}

func (f *diskFile) Sync() error {
	if f.fs.syncErr != nil {
		return f.fs.syncErr
	}
	return f.File.Sync()
}

func incompressible(n int) []byte {
	p := make([]byte, n)
	_, _ = rand.Read(p)
	return p
}

// writeUntilFull writes exchanges of about 1 KB until the Writer fails,
// and returns the Refs it returned and the error.
func writeUntilFull(t *testing.T, w *Writer) ([]ExchangeRefs, error) {
	t.Helper()
	var refs []ExchangeRefs
	for i := range 1000 {
		r, err := w.WriteExchange(Exchange{TargetURI: fmt.Sprintf("http://example.test/%d", i),
			Request: httpRequest("/"), Response: httpResponse("200 OK", incompressible(1000))})
		if err != nil {
			return refs, err
		}
		refs = append(refs, r)
	}
	t.Fatal("the disk never filled")
	return nil, nil
}

// Issue 13, "a full disk": the write error reaches the caller, the file
// keeps only the records whose Refs were returned (the partial one is cut
// off), and the Writer refuses every later call with that error. Run at
// many budgets, so the disk fills inside a response, inside a request,
// and inside the warcinfo of a file opened by rotation.
func TestFullDiskRecordsNothingThatIsNotWritten(t *testing.T) {
	for budget := int64(0); budget < 9000; budget += 173 {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			fs := &diskFS{dir: t.TempDir(), budget: budget}
			w, _ := newTestWriter(t, Options{FS: fs, MaxFileSize: 3000})
			refs, err := writeUntilFull(t, w)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("error %v, want ENOSPC", err)
			}
			if !strings.Contains(err.Error(), "the failed record was removed") {
				t.Errorf("error %q does not say what the file holds", err)
			}

			// Every record on disk is a warcinfo or one whose Ref was returned.
			returned := map[string]Ref{}
			for _, r := range refs {
				returned[r.Response.RecordID] = r.Response
				returned[r.Request.RecordID] = r.Request
			}
			files := warcFiles(t, fs.dir)
			all := readAll(t, files) // fails on a partial gzip member
			found := 0
			for _, rec := range all {
				if rec.get("WARC-Type") == "warcinfo" {
					continue
				}
				ref, ok := returned[rec.get("WARC-Record-ID")]
				if !ok {
					t.Errorf("%s holds record %s, whose write failed", rec.File, rec.get("WARC-Record-ID"))
					continue
				}
				if ref.File != rec.File || ref.Offset != rec.Offset || ref.Length != rec.Length {
					t.Errorf("Ref %+v, record at %s %d+%d", ref, rec.File, rec.Offset, rec.Length)
				}
				found++
			}
			if found != len(returned) {
				t.Errorf("%d of %d returned records are in the files", found, len(returned))
			}

			// The Writer refuses further work, though the disk has room again.
			fs.setBudget(1 << 30)
			sizes := fileSizes(t, fs.dir)
			_, err2 := w.WriteExchange(Exchange{TargetURI: "http://example.test/late", Response: httpResponse("200 OK", nil)})
			if !errors.Is(err2, ErrBroken) || !errors.Is(err2, syscall.ENOSPC) {
				t.Errorf("write after the failure: %v, want ErrBroken and ENOSPC", err2)
			}
			if err := w.Sync(); !errors.Is(err, ErrBroken) {
				t.Errorf("Sync after the failure: %v", err)
			}
			if err := w.Close(); !errors.Is(err, ErrBroken) {
				t.Errorf("Close after the failure: %v", err)
			}
			if after := fileSizes(t, fs.dir); fmt.Sprint(after) != fmt.Sprint(sizes) {
				t.Errorf("files changed after the failure: %v -> %v", sizes, after)
			}
		})
	}
}

func fileSizes(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	for _, f := range warcFiles(t, dir) {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		m[filepath.Base(f)] = st.Size()
	}
	return m
}

// When cutting the partial record off fails too, the error says that its
// bytes remain after the last whole record, and every returned Ref still
// reads its record.
func TestFullDiskTruncateFails(t *testing.T) {
	fs := &diskFS{dir: t.TempDir(), budget: 5000, truncateErr: errors.New("truncate: I/O error")}
	w, _ := newTestWriter(t, Options{FS: fs})
	refs, err := writeUntilFull(t, w)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "remain after the last whole record") {
		t.Fatalf("error %v", err)
	}
	if len(refs) == 0 {
		t.Fatal("no exchange fit")
	}
	last := refs[len(refs)-1].Request
	st, _ := os.Stat(filepath.Join(fs.dir, last.File))
	if end := last.Offset + last.Length; st.Size() <= end {
		t.Errorf("file is %d bytes, last record ends at %d: where is the partial record?", st.Size(), end)
	}
	for _, r := range refs {
		if got := recordAt(t, fs.dir, r.Response); got.get("WARC-Record-ID") != r.Response.RecordID {
			t.Errorf("Ref %+v reads %q", r.Response, got.get("WARC-Record-ID"))
		}
	}
}

// Package documentation, "Durability": a failed fsync breaks the Writer,
// so the caller never commits Refs that may not be on disk.
func TestSyncErrorBreaksWriter(t *testing.T) {
	fs := &diskFS{dir: t.TempDir(), budget: 1 << 30, syncErr: syscall.EIO}
	w, _ := newTestWriter(t, Options{FS: fs})
	if _, err := w.WriteExchange(Exchange{TargetURI: "http://example.test/", Response: httpResponse("200 OK", nil)}); err != nil {
		t.Fatal(err)
	}
	if err := w.Sync(); !errors.Is(err, syscall.EIO) {
		t.Fatalf("Sync: %v, want EIO", err)
	}
	if _, err := w.WriteExchange(Exchange{TargetURI: "http://example.test/", Response: httpResponse("200 OK", nil)}); !errors.Is(err, ErrBroken) || !errors.Is(err, syscall.EIO) {
		t.Errorf("write after failed Sync: %v", err)
	}
}
