package warc

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// memberBuf holds one or more gzip members, one per record, back to back.
type memberBuf struct {
	level int // gzip level of gz
	out   bytes.Buffer
	gz    *gzip.Writer
	hdr   []byte
	ends  []int // end offset in out of each member
}

// memberPool recycles memberBufs, with their gzip writers and header
// scratch space. The zero value is ready to use and compresses at
// gzip.DefaultCompression; level sets another gzip level.
type memberPool struct {
	p     sync.Pool
	level int
}

func (p *memberPool) get() *memberBuf {
	m, _ := p.p.Get().(*memberBuf)
	if m == nil {
		m = &memberBuf{level: p.level}
		if m.level == 0 {
			m.level = gzip.DefaultCompression
		}
	}
	m.out.Reset()
	m.ends = m.ends[:0]
	return m
}

// put returns m to the pool; m must not be used afterwards.
func (p *memberPool) put(m *memberBuf) {
	if m.out.Cap() > maxPooledBuffer {
		return // let a rare huge record's buffer go
	}
	p.p.Put(m)
}

// maxPooledBuffer bounds the buffers kept for reuse, so that one huge
// record does not pin its memory for the life of the process.
const maxPooledBuffer = 4 << 20

// add compresses one record (header fields and block) as a new gzip member
// at the end of m.out.
func (m *memberBuf) add(fields []Field, block []byte) error {
	if m.gz == nil {
		gz, err := gzip.NewWriterLevel(&m.out, m.level)
		if err != nil {
			return fmt.Errorf("warc: compress record: %w", err)
		}
		m.gz = gz
	} else {
		m.gz.Reset(&m.out)
	}
	m.hdr = appendHeader(m.hdr[:0], fields, len(block))
	if _, err := m.gz.Write(m.hdr); err != nil {
		return fmt.Errorf("warc: compress record: %w", err)
	}
	if _, err := m.gz.Write(block); err != nil {
		return fmt.Errorf("warc: compress record: %w", err)
	}
	if _, err := m.gz.Write([]byte(recordEnd)); err != nil {
		return fmt.Errorf("warc: compress record: %w", err)
	}
	if err := m.gz.Close(); err != nil {
		return fmt.Errorf("warc: compress record: %w", err)
	}
	m.ends = append(m.ends, m.out.Len())
	return nil
}

// span returns the offset and length in m.out of member i.
func (m *memberBuf) span(i int) (off, n int64) {
	start := 0
	if i > 0 {
		start = m.ends[i-1]
	}
	return int64(start), int64(m.ends[i] - start)
}
