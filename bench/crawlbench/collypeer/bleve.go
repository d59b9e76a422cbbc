package main

import (
	"fmt"
	"sync"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
)

// bleveBatch is how many documents go into one bleve batch: issue 26's colly+bleve peer, the
// crawl-and-search a Go user would assemble today, indexes in batches of 1,000.
const bleveBatch = 1000

// bleveSink stores each page's title and text in a bleve v2 index with the English analyzer,
// a batch of bleveBatch documents at a time, under the page's URL. Its methods are safe for
// concurrent use (Colly's callbacks run on many goroutines): a callback that fills a batch
// indexes it before it returns, as a simple scraper would.
type bleveSink struct {
	mu      sync.Mutex
	idx     bleve.Index
	batch   *bleve.Batch
	indexed int64 // documents put in batches so far; at close, the documents in the index
	err     error // the first failure; later pages are dropped
}

// openBleve makes a new index in dir (which must not exist yet).
func openBleve(dir string) (*bleveSink, error) {
	m := bleve.NewIndexMapping()
	m.DefaultAnalyzer = en.AnalyzerName
	idx, err := bleve.New(dir, m)
	if err != nil {
		return nil, fmt.Errorf("bleve: %w", err)
	}
	return &bleveSink{idx: idx, batch: idx.NewBatch()}, nil
}

// add stores one page, indexing the batch when it is full.
func (s *bleveSink) add(url, title, text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return
	}
	if err := s.batch.Index(url, map[string]any{"title": title, "text": text}); err != nil {
		s.err = fmt.Errorf("bleve: %s: %w", url, err)
		return
	}
	if s.batch.Size() >= bleveBatch {
		s.flush()
	}
}

// flush indexes the batch; s.mu is held.
func (s *bleveSink) flush() {
	n := s.batch.Size()
	if n == 0 {
		return
	}
	if err := s.idx.Batch(s.batch); err != nil {
		s.err = fmt.Errorf("bleve: batch: %w", err)
		return
	}
	s.indexed += int64(n)
	s.batch.Reset()
}

// close indexes the last batch and closes the index; it returns how many documents the index
// holds: one per page, a page fetched twice (Colly's repeats) stored once under its URL.
func (s *bleveSink) close() (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil {
		s.flush()
	}
	if s.err == nil {
		n, err := s.idx.DocCount()
		if err != nil {
			s.err = fmt.Errorf("bleve: count: %w", err)
		}
		s.indexed = int64(n)
	}
	if err := s.idx.Close(); err != nil && s.err == nil {
		s.err = fmt.Errorf("bleve: close: %w", err)
	}
	return s.indexed, s.err
}
