package crawl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// JSONLines writes Documents as JSON lines, one object per page as it arrives, for
// Config.OnDocument: memory stays bounded whatever the crawl's size. Its Write method is safe
// for concurrent use. The first write error is kept (Err) and later documents are dropped.
type JSONLines struct {
	mu  sync.Mutex
	w   *bufio.Writer
	enc *json.Encoder
	err error
}

// NewJSONLines returns a JSONLines writing to w; call Flush when the crawl is over.
func NewJSONLines(w io.Writer) *JSONLines {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	return &JSONLines{w: bw, enc: enc}
}

// jsonDocument is the line format: stable field names, documented in the README.
type jsonDocument struct {
	URL         string      `json:"url"`
	Status      int         `json:"status"`
	FinalURL    string      `json:"final_url"` // URL, or the redirect target of a 3xx
	ContentType string      `json:"content_type,omitempty"`
	Headers     http.Header `json:"headers"`
	Title       string      `json:"title"`
	Text        string      `json:"text"`
	Links       []jsonLink  `json:"links"`
	Robots      jsonRobots  `json:"robots"`
	Indexable   bool        `json:"indexable"`
	Depth       int         `json:"depth"`
	Truncated   bool        `json:"truncated,omitempty"`
	FetchedAt   time.Time   `json:"fetched_at"`
}

type jsonLink struct {
	URL      string `json:"url"`
	Anchor   string `json:"anchor"`
	NoFollow bool   `json:"nofollow,omitempty"`
}

type jsonRobots struct {
	NoIndex          bool       `json:"noindex"`
	NoFollow         bool       `json:"nofollow"`
	NoSnippet        bool       `json:"nosnippet,omitempty"`
	NoArchive        bool       `json:"noarchive,omitempty"`
	UnavailableAfter *time.Time `json:"unavailable_after,omitempty"`
	Tags             string     `json:"tags,omitempty"` // the directives that applied, as read
}

// Write writes d as one line.
func (j *JSONLines) Write(d Document) {
	line := jsonDocument{URL: d.URL, Status: d.Status, FinalURL: d.URL, ContentType: d.ContentType, Headers: d.Header,
		Title: d.Title, Text: d.Text, Links: make([]jsonLink, len(d.Links)), Indexable: d.Indexable, Depth: d.Depth,
		Truncated: d.Truncated, FetchedAt: d.FetchedAt.UTC()}
	if d.Location != "" {
		line.FinalURL = d.Location
	}
	if line.Headers == nil {
		line.Headers = http.Header{}
	}
	for i, l := range d.Links {
		//lint:ignore S1016 the line format is spelled out: a field added to Link must not change it
		line.Links[i] = jsonLink{URL: l.URL, Anchor: l.Anchor, NoFollow: l.NoFollow}
	}
	r := d.Robots
	line.Robots = jsonRobots{NoIndex: r.NoIndex, NoFollow: r.NoFollow, NoSnippet: r.NoSnippet, NoArchive: r.NoArchive}
	if len(r.Sources) > 0 {
		line.Robots.Tags = r.String()
	}
	if !r.UnavailableAfter.IsZero() {
		t := r.UnavailableAfter.UTC()
		line.Robots.UnavailableAfter = &t
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return
	}
	if err := j.enc.Encode(line); err != nil {
		j.err = fmt.Errorf("crawl: write document %s: %w", d.URL, err)
	}
}

// Err returns the first error of any write so far, without flushing: a long writer (an
// export) checks it to stop early, say when its reader has gone.
func (j *JSONLines) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Flush writes out what is buffered and returns the first error of any write.
func (j *JSONLines) Flush() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		if err := j.w.Flush(); err != nil {
			j.err = fmt.Errorf("crawl: write documents: %w", err)
		}
	}
	return j.err
}
