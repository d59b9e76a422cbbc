package warc

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// Errors a Writer returns after it stopped accepting records.
var (
	// ErrBroken is wrapped, with the original error, by every call after
	// a write, sync, create or close error.
	ErrBroken = errors.New("warc: writer broken by an earlier error")
	// ErrClosed is returned by calls after Close.
	ErrClosed = errors.New("warc: writer closed")
)

// Ref locates one record: its gzip member is Length bytes at Offset in the
// file File (a base name in the Writer's directory). Reading those bytes
// and gunzipping them gives the record alone.
type Ref struct {
	File     string
	Offset   int64
	Length   int64
	RecordID string // "<urn:uuid:...>"
}

// Writer appends WARC records to rotating files. Create it with New; the
// zero value is not usable. It is safe for concurrent use; see the package
// documentation for what is durable when, and what a failure leaves.
type Writer struct {
	cfg  config
	pool memberPool

	mu       sync.Mutex
	file     File   // nil before the first record and after rotation or failure
	name     string // of file
	size     int64  // bytes of whole records in file
	infoEnd  int64  // size of file holding only its warcinfo record
	serial   int    // of the next file
	unsynced bool   // file has records not yet fsynced
	newDir   bool   // a file was created since the last directory sync
	err      error  // the error that broke the Writer
	closed   bool
}

// New returns a Writer configured by opts. No file is created until the
// first record is written.
func New(opts Options) (*Writer, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return &Writer{cfg: cfg, pool: memberPool{level: cfg.level}}, nil
}

// usable returns why the Writer takes no more records, or nil. w.mu is held.
func (w *Writer) usable() error {
	switch {
	case w.err != nil:
		return fmt.Errorf("%w: %w", ErrBroken, w.err)
	case w.closed:
		return ErrClosed
	}
	return nil
}

// fail breaks the Writer with err and closes its file. w.mu is held.
func (w *Writer) fail(err error) error {
	w.err = err
	if w.file != nil {
		_ = w.file.Close() // the Writer is done with it; err says why
		w.file = nil
	}
	return err
}

// append writes m's members to the current file, rotating first if they
// would take it past the size limit, and returns the file's name and the
// offset of the first member. The members are written with one Write
// call; if it fails, the file is truncated back to where it was.
func (w *Writer) append(m *memberBuf) (name string, off int64, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return "", 0, err
	}
	n := int64(m.out.Len())
	if w.file != nil && w.size > w.infoEnd && w.size+n > w.cfg.maxFileSize {
		if err := w.closeFile(); err != nil {
			return "", 0, w.fail(err)
		}
	}
	if w.file == nil {
		if err := w.openFile(); err != nil {
			return "", 0, w.fail(err)
		}
	}
	off = w.size
	if err := w.write(m.out.Bytes()); err != nil {
		return "", 0, w.fail(err)
	}
	return w.name, off, nil
}

// write appends b to the file in one call. On failure it truncates the
// file to its last whole record and returns an error saying whether that
// worked. w.mu is held.
func (w *Writer) write(b []byte) error {
	n, err := w.file.Write(b)
	if err == nil && n != len(b) {
		err = io.ErrShortWrite
	}
	if err == nil {
		w.size += int64(n)
		w.unsynced = true
		return nil
	}
	if terr := w.file.Truncate(w.size); terr != nil {
		return fmt.Errorf("warc: write %s at offset %d: %w; the %d bytes written of the failed record(s) could not be removed (%v) and remain after the last whole record", w.name, w.size, err, n, terr)
	}
	return fmt.Errorf("warc: write %s at offset %d: %w (the failed record was removed; the file ends with the last whole record)", w.name, w.size, err)
}

// openFile creates the next file and writes its warcinfo record. w.mu is
// held.
func (w *Writer) openFile() error {
	name, err := w.fileName()
	if err != nil {
		return err
	}
	f, err := w.cfg.fs.Create(name)
	if err != nil {
		return fmt.Errorf("warc: create %s: %w", name, err)
	}
	w.file, w.name, w.size, w.unsynced = f, name, 0, false
	w.serial++
	w.newDir = true

	m := w.pool.get()
	defer w.pool.put(m)
	if err := w.addWarcinfo(m, name); err != nil {
		return err
	}
	if err := w.write(m.out.Bytes()); err != nil {
		return err
	}
	w.infoEnd = w.size
	return nil
}

// closeFile fsyncs and closes the current file, for rotation. w.mu is held.
func (w *Writer) closeFile() error {
	f := w.file
	w.file = nil
	if w.unsynced {
		if err := f.Sync(); err != nil {
			_ = f.Close()
			return fmt.Errorf("warc: sync %s: %w", w.name, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("warc: close %s: %w", w.name, err)
	}
	return nil
}

// fileName returns the name of the next file (see Options.Prefix). w.mu
// is held.
func (w *Writer) fileName() (string, error) {
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("warc: file name: %w", err)
	}
	t := w.cfg.now().UTC()
	var b strings.Builder
	b.WriteString(w.cfg.prefix)
	b.WriteByte('-')
	b.WriteString(t.Format("20060102150405"))
	b.WriteString(fmt.Sprintf("%03d", t.Nanosecond()/1e6))
	b.WriteString(fmt.Sprintf("-%05d-", w.serial))
	b.WriteString(nameSafe(w.cfg.hostname))
	b.WriteByte('-')
	b.WriteString(strconv.Itoa(w.cfg.pid))
	b.WriteByte('-')
	b.WriteString(hex.EncodeToString(r[:]))
	b.WriteString(".warc.gz")
	return b.String(), nil
}

// nameSafe keeps the letters, digits, dots and hyphens of s and replaces
// every other byte with '_', so a host name cannot add a path separator.
func nameSafe(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// addWarcinfo compresses the warcinfo record of file name into m.
func (w *Writer) addWarcinfo(m *memberBuf, name string) error {
	var block []byte
	add := func(k, v string) {
		block = append(block, k...)
		block = append(block, ": "...)
		block = append(block, v...)
		block = append(block, "\r\n"...)
	}
	add("software", w.cfg.software)
	add("format", "WARC File Format 1.1")
	add("conformsTo", "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/")
	add("hostname", w.cfg.hostname)
	for _, f := range w.cfg.info {
		add(f.Name, f.Value)
	}
	fields := []Field{
		{"WARC-Type", string(TypeWarcinfo)},
		{"WARC-Record-ID", newRecordID()},
		{"WARC-Date", formatDate(w.cfg.now())},
		{"WARC-Filename", name},
		{"Content-Type", contentTypeFields},
		{"WARC-Block-Digest", Digest(block)},
	}
	return m.add(fields, block)
}

// Sync makes durable every record whose Ref was returned before Sync was
// called: it fsyncs the current file (files closed by rotation were
// fsynced then) and, if a file was created since the last Sync, the
// directory. A failure breaks the Writer. Commit Refs only after Sync
// returned nil. Writes wait while Sync runs.
func (w *Writer) Sync() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		return err
	}
	return w.sync()
}

// sync is Sync with w.mu held and the Writer usable.
func (w *Writer) sync() error {
	if w.file != nil && w.unsynced {
		if err := w.file.Sync(); err != nil {
			return w.fail(fmt.Errorf("warc: sync %s: %w", w.name, err))
		}
		w.unsynced = false
	}
	if w.newDir {
		if err := w.cfg.fs.SyncDir(); err != nil {
			return w.fail(fmt.Errorf("warc: sync directory: %w", err))
		}
		w.newDir = false
	}
	return nil
}

// Close syncs as Sync does and closes the current file. Later calls
// return ErrClosed. Closing a broken Writer returns an error wrapping
// ErrBroken and the error that broke it.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.usable(); err != nil {
		w.closed = true
		return err
	}
	w.closed = true
	if err := w.sync(); err != nil {
		return err
	}
	if w.file == nil {
		return nil
	}
	f := w.file
	w.file = nil
	if err := f.Close(); err != nil {
		w.err = fmt.Errorf("warc: close %s: %w", w.name, err)
		return w.err
	}
	return nil
}
