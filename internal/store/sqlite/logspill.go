package sqlite

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
)

// A merge larger than one pass reads link_log once and writes each row to the spill file of its
// range of targets, beside the store (issue 26, layout-plan.md "Merges sized to links"): each
// pass then reads its own range's file, where every pass scanned the whole log (a merge of r
// rows read about 2r²/mergeLinksRows of them: at 1,000,000 pages 49 s of a crawl's 1,019 s of
// CPU, half of it in the final catch-up on one core). The files are scratch: the merge is one
// transaction of the index database, whatever happens to them, and a merge removes those a
// crash left (spill).

// maxSpillFiles bounds the files (and their write buffers) of one merge; a range that holds more
// than a pass is read in several passes from its own file (rangePasses).
const maxSpillFiles = 256

// spillBufferBytes is each spill file's write and read buffer.
const spillBufferBytes = 16 << 10

// spilled is a merge's log rows, by range of targets, in files; the zero value holds none.
type spilled struct {
	files []*os.File
}

// spillPattern is the name of a store's spill files, after its path.
const spillPattern = ".merge-*"

// spill removes the spill files a crashed merge of the store at path left, then writes the rows
// logRows gives (in the order they were written) to ranges files beside it, a row to the file
// of its target's range (the targets, positive hashes, spread over ranges of equal width, in key
// order). The caller removes them (spilled.remove), also after an error.
func spill(path string, ranges int64, logRows func(fn func(mergeLink) error) error) (*spilled, error) {
	stale, err := filepath.Glob(path + spillPattern)
	if err != nil {
		return nil, fmt.Errorf("index: spill: %w", err)
	}
	for _, f := range stale {
		if err := os.Remove(f); err != nil {
			return nil, fmt.Errorf("index: spill: %w", err)
		}
	}
	sp := &spilled{}
	writers := make([]*bufio.Writer, ranges)
	for i := range writers {
		f, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+spillPattern)
		if err != nil {
			sp.remove()
			return nil, fmt.Errorf("index: spill: %w", err)
		}
		sp.files = append(sp.files, f)
		writers[i] = bufio.NewWriterSize(f, spillBufferBytes)
	}
	step := math.MaxInt64/ranges + 1
	var buf []byte
	err = logRows(func(l mergeLink) error {
		i := min(max(l.to, 0)/step, ranges-1)
		buf = appendSpilled(buf[:0], l)
		_, err := writers[i].Write(buf)
		return err
	})
	for _, w := range writers {
		if err == nil {
			err = w.Flush()
		}
	}
	if err != nil {
		sp.remove()
		return nil, fmt.Errorf("index: spill: %w", err)
	}
	return sp, nil
}

// rows returns a function that calls fn with each row of range i, in the order they were
// written, reading its file from the start each time it is called.
func (sp *spilled) rows(i int) func(fn func(mergeLink) error) error {
	return func(fn func(mergeLink) error) error {
		f := sp.files[i]
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("index: spill: %w", err)
		}
		r := bufio.NewReaderSize(f, spillBufferBytes)
		var anchor []byte
		for {
			l, err := readSpilled(r, &anchor)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return fmt.Errorf("index: spill %s: %w", f.Name(), err)
			}
			if err := fn(l); err != nil {
				return err
			}
		}
	}
}

// remove closes and removes the files; it is safe on a partly made spilled.
func (sp *spilled) remove() {
	for _, f := range sp.files {
		f.Close()
		os.Remove(f.Name())
	}
	sp.files = nil
}

// appendSpilled appends l's encoding to buf: its numbers as varints, its anchor's length and bytes.
func appendSpilled(buf []byte, l mergeLink) []byte {
	buf = binary.AppendVarint(buf, l.to)
	buf = binary.AppendVarint(buf, l.from)
	buf = binary.AppendVarint(buf, int64(l.fragment))
	buf = binary.AppendVarint(buf, int64(l.added))
	buf = binary.AppendUvarint(buf, uint64(len(l.anchor)))
	return append(buf, l.anchor...)
}

// readSpilled reads a row appendSpilled wrote, its anchor through the scratch buffer anchor;
// io.EOF at the end of the file, before a row.
func readSpilled(r *bufio.Reader, anchor *[]byte) (mergeLink, error) {
	var l mergeLink
	var err error
	if l.to, err = binary.ReadVarint(r); err != nil {
		return l, err // io.EOF only here
	}
	var n [3]int64
	for i := range n {
		if n[i], err = binary.ReadVarint(r); err != nil {
			return l, noEOF(err)
		}
	}
	l.from, l.fragment, l.added = n[0], int(n[1]), int(n[2])
	size, err := binary.ReadUvarint(r)
	if err != nil {
		return l, noEOF(err)
	}
	if size > maxSpilledAnchor {
		return l, fmt.Errorf("an anchor of %d bytes", size)
	}
	*anchor = slices.Grow((*anchor)[:0], int(size))[:size]
	if _, err := io.ReadFull(r, *anchor); err != nil {
		return l, noEOF(err)
	}
	l.anchor = string(*anchor)
	return l, nil
}

// maxSpilledAnchor bounds an anchor read back from a spill file, against a damaged file: the
// fold keeps anchors far shorter.
const maxSpilledAnchor = 1 << 20

// noEOF turns an end of file inside a row into io.ErrUnexpectedEOF.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
