package hostile

import (
	"bytes"
	"io"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// coding is a content coding a bomb is made in.
type coding string

const (
	gzipCoding   coding = "gzip"
	brotliCoding coding = "br"
	zstdCoding   coding = "zstd"
)

// bombKind is what a bomb decodes to.
type bombKind int

const (
	pageBomb bombKind = iota
	sitemapBomb
	robotsBomb
)

// prefix and unit: a bomb decodes to prefix, then unit repeated up to BombSize.
func (k bombKind) parts() (prefix, unit string) {
	switch k {
	case sitemapBomb:
		return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
				`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n",
			"<url><loc>http://bomb.test/page</loc></url>\n"
	case robotsBomb:
		return "User-agent: *\nDisallow: /private\n", "# a comment line that goes on and on and on\n"
	}
	return "<!doctype html><title>bomb</title><p>", strings.Repeat("\x00", 64)
}

// Bombs compresses each bomb once, on first use, and keeps the result, for
// the Handlers that share it (Options.Bombs). The zero value is ready to
// use; it is safe for concurrent use.
type Bombs struct {
	mu   sync.Mutex
	made map[bombKey][]byte
}

type bombKey struct {
	kind bombKind
	c    coding
}

func (b *Bombs) get(kind bombKind, c coding) []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := bombKey{kind, c}
	if data, ok := b.made[k]; ok {
		return data
	}
	if b.made == nil {
		b.made = map[bombKey][]byte{}
	}
	data := makeBomb(kind, c)
	b.made[k] = data
	return data
}

// Warm makes every bomb now, so that no request waits while one is made
// (some hundreds of milliseconds each; a client with a short header timeout
// would time out).
func (b *Bombs) Warm() {
	for _, k := range []bombKind{pageBomb, sitemapBomb, robotsBomb} {
		for _, c := range []coding{gzipCoding, brotliCoding, zstdCoding} {
			b.get(k, c)
		}
	}
}

// makeBomb compresses prefix + unit* (BombSize bytes) in coding c, at the
// fastest setting: runs of one pattern compress a thousandfold anyway.
func makeBomb(kind bombKind, c coding) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch c {
	case gzipCoding:
		w, _ = gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	case brotliCoding:
		w = brotli.NewWriterLevel(&buf, 1)
	case zstdCoding:
		w, _ = zstd.NewWriter(&buf, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	}
	prefix, unit := kind.parts()
	io.WriteString(w, prefix)
	block := []byte(strings.Repeat(unit, (64<<10)/len(unit)))
	for n := len(prefix); n < BombSize; n += len(block) {
		w.Write(block[:min(len(block), BombSize-n)])
	}
	w.Close()
	return buf.Bytes()
}
