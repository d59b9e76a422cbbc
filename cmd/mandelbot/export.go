package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

func newExportCommand() *cobra.Command {
	var f storeFlags
	var robotsOnly, allOrigins, documents bool
	cmd := &cobra.Command{
		Use:   "export [--data DIR|--store URL] [--robots|--documents]",
		Short: "Write every known URL (or, with --robots, every origin; with --documents, every fetched page) as JSON lines",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if robotsOnly && documents {
				return usageErrorf("export: --robots and --documents are two different exports: give one")
			}
			if allOrigins && !robotsOnly {
				return usageErrorf("export: --all-origins goes with --robots")
			}
			st, err := f.open(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer st.Close()
			if documents {
				return exportDocuments(cmd.Context(), st, cmd.OutOrStdout())
			}
			w := bufio.NewWriterSize(cmd.OutOrStdout(), 64<<10)
			enc := json.NewEncoder(w)
			enc.SetEscapeHTML(false)
			if robotsOnly {
				err = exportOrigins(cmd.Context(), st, enc, allOrigins)
			} else {
				err = exportURLs(cmd.Context(), st, enc, time.Now())
			}
			if ferr := w.Flush(); err == nil && ferr != nil {
				err = fmt.Errorf("export: %w", ferr)
			}
			return err
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&robotsOnly, "robots", false, "one object per origin the crawl contacted: its robots.txt decision and pause state")
	cmd.Flags().BoolVar(&allOrigins, "all-origins", false, "with --robots: also the origins only known from links, never contacted")
	cmd.Flags().BoolVar(&documents, "documents", false, "one object per fetched page: url, final_url, status, headers, title, text, links with anchors, robots, fetched_at (the format of crawl --documents); streamed in bounded memory")
	return cmd
}

// urlJSON is one line of `mandelbot export`; the field names are part of the contract.
type urlJSON struct {
	URL          string     `json:"url"`
	Origin       string     `json:"origin"`
	State        string     `json:"state"`
	Status       int        `json:"status"`
	Indexed      bool       `json:"indexed"`
	LinkOnly     bool       `json:"link_only"`
	Reason       string     `json:"reason"`
	FetchedAt    *time.Time `json:"fetched_at"`
	Kind         string     `json:"kind"`
	Depth        int        `json:"depth"`
	RuleLine     int        `json:"rule_line,omitempty"`
	ContentType  string     `json:"content_type,omitempty"`
	Location     string     `json:"location,omitempty"`
	NoIndex      bool       `json:"noindex"`
	NoFollow     bool       `json:"nofollow"`
	Canonical    string     `json:"canonical,omitempty"`
	DiscoveredAt *time.Time `json:"discovered_at"`
	NextAt       *time.Time `json:"next_at"`
	// WARC names the record of the URL's last answer in the crawl's WARC files (issue 13);
	// absent when it was not archived.
	WARC *warcJSON `json:"warc,omitempty"`
}

// warcJSON locates a WARC record: the file (a base name in the --warc directory) and the offset
// of the record's gzip member, which a reader can seek to and decompress alone.
type warcJSON struct {
	File     string `json:"file"`
	Offset   int64  `json:"offset"`
	RecordID string `json:"record_id"`
}

// warcOf is the export of r, nil when it names no record.
func warcOf(r store.WARCRef) *warcJSON {
	if r.IsZero() {
		return nil
	}
	return &warcJSON{File: r.File, Offset: r.Offset, RecordID: r.RecordID}
}

func exportURLs(ctx context.Context, st store.Store, enc *json.Encoder, now time.Time) error {
	origins := map[string]store.OriginStatus{}
	err := st.EachOrigin(ctx, func(o store.Origin) error {
		origins[o.Key] = store.StatusOf(o)
		return nil
	})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return st.EachURL(ctx, func(u store.URL) error {
		j := urlJSON{
			URL: u.URL, Origin: u.Origin, State: string(u.State), Status: u.Status, Indexed: u.Indexed,
			LinkOnly: u.FetchedAt.IsZero(), Reason: u.Reason, FetchedAt: timePtr(u.FetchedAt),
			Kind: kindName(u.Kind), Depth: u.Depth, RuleLine: u.RuleLine, ContentType: u.ContentType,
			Location: u.Location, NoIndex: u.NoIndex, NoFollow: u.NoFollow, Canonical: u.Canonical,
			DiscoveredAt: timePtr(u.DiscoveredAt), NextAt: timePtr(u.NextAt), WARC: warcOf(u.WARC),
		}
		state, reason := store.Effective(u.State, u.Reason, origins[u.Origin], now)
		j.State, j.Reason = string(state), reason
		if err := enc.Encode(j); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return nil
	})
}

// originJSON is one line of `mandelbot export --robots`.
type originJSON struct {
	Origin        string     `json:"origin"`
	RobotsStatus  string     `json:"robots_status"` // rules, allow_all, unreachable, or unknown (never fetched)
	HTTPStatus    int        `json:"http_status"`
	Reason        string     `json:"reason"`
	FetchedAt     *time.Time `json:"fetched_at"`
	ExpiresAt     *time.Time `json:"expires_at"`
	Rules         int        `json:"rules"`
	Sitemaps      []string   `json:"sitemaps"`
	Paused        bool       `json:"paused"`
	PausedUntil   *time.Time `json:"paused_until"`
	PauseReason   string     `json:"pause_reason,omitempty"`
	FailingSince  *time.Time `json:"failing_since,omitempty"`
	RetryAt       *time.Time `json:"retry_at,omitempty"`
	TreatedAs404  bool       `json:"treated_as_404"`
	UsingOldCopy  bool       `json:"using_previous_copy"`
	RobotsTxtSize int        `json:"robots_txt_bytes"`
	// GapMS is the origin's gap between requests as the crawl last saved it, in milliseconds,
	// and GapReason which delay set it and why (issue 29: the adaptive delay).
	GapMS     int64     `json:"gap_ms"`
	GapReason string    `json:"gap_reason"`
	WARC      *warcJSON `json:"warc,omitempty"` // the record of the robots.txt answer (issue 13)
}

// exportOrigins writes the origins the crawl contacted (every contact starts with robots.txt),
// or all of them.
func exportOrigins(ctx context.Context, st store.Store, enc *json.Encoder, all bool) error {
	now := time.Now()
	return st.EachOrigin(ctx, func(o store.Origin) error {
		r := o.Robots
		if !all && r.Kind == 0 && r.FetchedAt.IsZero() && r.Failures == 0 {
			return nil // known from links only (issue 10)
		}
		j := originJSON{
			Origin: o.Key, RobotsStatus: "unknown", HTTPStatus: r.Status, Reason: r.Reason,
			FetchedAt: timePtr(r.FetchedAt), ExpiresAt: timePtr(r.ExpiresAt), Sitemaps: o.Sitemaps,
			Paused: o.PausedUntil.After(now), PausedUntil: timePtr(o.PausedUntil), PauseReason: o.PauseReason,
			FailingSince: timePtr(r.FailingSince), RetryAt: timePtr(r.RetryAt), TreatedAs404: r.AsNotFound,
			UsingOldCopy: r.GoodBody && !r.RetryAt.IsZero(), RobotsTxtSize: len(r.Body), WARC: warcOf(r.WARC),
			GapMS: o.Gap.Milliseconds(), GapReason: o.GapReason,
		}
		if r.Kind != 0 {
			j.RobotsStatus = robots.Kind(r.Kind).String()
		}
		if j.Sitemaps == nil {
			j.Sitemaps = []string{}
		}
		if len(r.Body) > 0 {
			for _, g := range robotstxt.Parse(r.Body).Groups() {
				j.Rules += len(g.Rules())
			}
		}
		if err := enc.Encode(j); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		return nil
	})
}

// exportDocuments writes every fetched page as `crawl --documents` does, from what the store kept
// of its last fetch (store.Page): the store is read a batch at a time (store.PageBatch) and each
// line written as it is read, so memory stays bounded whatever the crawl's size.
func exportDocuments(ctx context.Context, st store.Reader, w io.Writer) error {
	out := crawl.NewJSONLines(w)
	err := st.EachPage(ctx, func(p store.Page) error {
		out.Write(pageDocument(p))
		return out.Err()
	})
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// pageDocument is the Document of a stored page. What the store does not keep is left out: the
// robot directives are the noindex and nofollow it recorded (the URL's reason says which tags
// set them), the text is the indexed text, and the links are those the crawl followed.
func pageDocument(p store.Page) crawl.Document {
	u := p.URL
	d := crawl.Document{URL: u.URL, Depth: u.Depth, Status: u.Status, Header: p.Header, ContentType: u.ContentType,
		Location: u.Location, FetchedAt: u.FetchedAt, Title: p.Title, Text: p.Text, Links: make([]crawl.Link, len(p.Links)),
		Indexable: u.Indexed}
	d.Robots.NoIndex, d.Robots.NoFollow = u.NoIndex, u.NoFollow
	for i, l := range p.Links {
		d.Links[i] = crawl.Link{URL: l.To, Anchor: l.Anchor}
	}
	return d
}

func timePtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	t = t.UTC()
	return &t
}

func kindName(k store.Kind) string {
	if k == store.KindSitemap {
		return "sitemap"
	}
	return "page"
}
