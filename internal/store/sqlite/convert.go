package sqlite

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fractle/mandelbot/internal/store"
)

// Times are stored as INTEGER Unix nanoseconds, UTC; 0 is the zero time.
func unix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromUnix(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n).UTC()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// scanner is a row being read: *sql.Rows or *sql.Row.
type scanner interface{ Scan(dest ...any) error }

// scanURLs and scanOrigins are scanURL and scanOrigin for collect and stream.
func scanURLs(r *sql.Rows) (store.URL, error)       { return scanURL(r) }
func scanOrigins(r *sql.Rows) (store.Origin, error) { return scanOrigin(r) }

func scanURL(row scanner) (store.URL, error) {
	var u store.URL
	var state string
	var discovered, fetched, next int64
	var indexed, noindex, nofollow int
	err := row.Scan(&u.ID, &u.URL, &u.Origin, &u.Kind, &u.Depth, &u.Hops, &state, &u.Status, &u.Reason,
		&u.RuleLine, &discovered, &fetched, &next, &u.Attempts, &u.ContentType, &u.Location,
		&indexed, &noindex, &nofollow, &u.Canonical, &u.ETag, &u.LastModified, &u.WARC.File, &u.WARC.Offset,
		&u.WARC.RecordID)
	if err != nil {
		return u, err
	}
	u.State = store.State(state)
	u.DiscoveredAt, u.FetchedAt, u.NextAt = fromUnix(discovered), fromUnix(fetched), fromUnix(next)
	u.Indexed, u.NoIndex, u.NoFollow = indexed != 0, noindex != 0, nofollow != 0
	return u, nil
}

func scanOrigin(row scanner) (store.Origin, error) {
	var o store.Origin
	r := &o.Robots
	var fetched, expires, failing, retry, paused, gapMS int64
	var asNotFound, good, probing int
	var sitemaps string
	err := row.Scan(&o.Key, &r.Kind, &r.Status, &r.Body, &r.Reason, &fetched, &expires, &r.ETag, &r.LastMod,
		&failing, &r.Failures, &retry, &asNotFound, &good, &paused, &o.PauseStrikes, &o.PauseReason,
		&probing, &sitemaps, &r.WARC.File, &r.WARC.Offset, &r.WARC.RecordID, &gapMS, &o.GapReason)
	if err != nil {
		return o, err
	}
	r.FetchedAt, r.ExpiresAt, r.FailingSince, r.RetryAt = fromUnix(fetched), fromUnix(expires), fromUnix(failing), fromUnix(retry)
	r.AsNotFound, r.GoodBody, o.Probing = asNotFound != 0, good != 0, probing != 0
	o.PausedUntil, o.Gap = fromUnix(paused), time.Duration(gapMS)*time.Millisecond
	if err := json.Unmarshal([]byte(sitemaps), &o.Sitemaps); err != nil {
		return o, fmt.Errorf("origin %s: sitemaps: %w", o.Key, err)
	}
	return o, nil
}

func originArgs(o store.Origin) ([]any, error) {
	sm := o.Sitemaps
	if sm == nil {
		sm = []string{}
	}
	sitemaps, err := json.Marshal(sm)
	if err != nil {
		return nil, err
	}
	r := o.Robots
	body := r.Body
	if body == nil {
		body = []byte{}
	}
	return []any{o.Key, int(r.Kind), r.Status, body, r.Reason, unix(r.FetchedAt), unix(r.ExpiresAt), r.ETag,
		r.LastMod, unix(r.FailingSince), r.Failures, unix(r.RetryAt), boolInt(r.AsNotFound),
		boolInt(r.GoodBody), unix(o.PausedUntil), o.PauseStrikes, o.PauseReason, boolInt(o.Probing),
		string(sitemaps), r.WARC.File, r.WARC.Offset, r.WARC.RecordID, o.Gap.Milliseconds(), o.GapReason}, nil
}
