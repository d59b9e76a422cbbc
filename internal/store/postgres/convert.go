package postgres

import (
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/store"
)

// Times are timestamptz, microseconds, NULL for the zero time; they come back in UTC.
func tz(t time.Time) pgtype.Timestamptz {
	if t.IsZero() {
		return pgtype.Timestamptz{}
	}
	return pgtype.Timestamptz{Time: t, Valid: true}
}

func fromTZ(t pgtype.Timestamptz) time.Time {
	if !t.Valid {
		return time.Time{}
	}
	return t.Time.UTC()
}

// urlColumns are the columns of urls in the order scanURL reads them.
const urlColumns = `id, url, origin, kind, depth, hops, state, status, reason, rule_line,
	discovered_at, fetched_at, next_at, attempts, content_type, location, indexed, noindex, nofollow, canonical,
	etag, last_modified, warc_file, warc_offset, warc_response_id`

func scanURL(row interface{ Scan(...any) error }) (store.URL, error) {
	var u store.URL
	var state string
	var kind int32
	var discovered, fetched, next pgtype.Timestamptz
	err := row.Scan(&u.ID, &u.URL, &u.Origin, &kind, &u.Depth, &u.Hops, &state, &u.Status, &u.Reason,
		&u.RuleLine, &discovered, &fetched, &next, &u.Attempts, &u.ContentType, &u.Location,
		&u.Indexed, &u.NoIndex, &u.NoFollow, &u.Canonical, &u.ETag, &u.LastModified, &u.WARC.File,
		&u.WARC.Offset, &u.WARC.RecordID)
	if err != nil {
		return u, err
	}
	u.Kind, u.State = store.Kind(kind), store.State(state)
	u.DiscoveredAt, u.FetchedAt, u.NextAt = fromTZ(discovered), fromTZ(fetched), fromTZ(next)
	return u, nil
}

// originColumns are the columns of origins in the order scanOrigin reads them.
const originColumns = `key, robots_kind, robots_status, robots_body, robots_reason, robots_fetched_at,
	robots_expires_at, robots_etag, robots_last_mod, robots_failing_since, robots_failures,
	robots_retry_at, robots_as_not_found, robots_good_body, paused_until, pause_strikes,
	pause_reason, probing, sitemaps, robots_warc_file, robots_warc_offset, robots_warc_response_id, gap_ms, gap_reason`

func scanOrigin(row interface{ Scan(...any) error }) (store.Origin, error) {
	var o store.Origin
	r := &o.Robots
	var kind int32
	var fetched, expires, failing, retry, paused pgtype.Timestamptz
	var gapMS int64
	err := row.Scan(&o.Key, &kind, &r.Status, &r.Body, &r.Reason, &fetched, &expires, &r.ETag, &r.LastMod,
		&failing, &r.Failures, &retry, &r.AsNotFound, &r.GoodBody, &paused, &o.PauseStrikes, &o.PauseReason,
		&o.Probing, &o.Sitemaps, &r.WARC.File, &r.WARC.Offset, &r.WARC.RecordID, &gapMS, &o.GapReason)
	if err != nil {
		return o, err
	}
	r.Kind = uint8(kind)
	r.FetchedAt, r.ExpiresAt, r.FailingSince, r.RetryAt = fromTZ(fetched), fromTZ(expires), fromTZ(failing), fromTZ(retry)
	o.PausedUntil, o.Gap = fromTZ(paused), time.Duration(gapMS)*time.Millisecond
	return o, nil
}

// originStatusColumns are the origin columns store.Effective needs, read by originStatus.dest
// from a LEFT JOIN of origins (NULL when the origin row is missing).
const originStatusColumns = `origins.paused_until, origins.pause_reason, origins.robots_failures,
	origins.robots_good_body, origins.robots_reason`

type originStatus struct {
	pausedUntil               pgtype.Timestamptz
	failures                  pgtype.Int4
	goodBody                  pgtype.Bool
	pauseReason, robotsReason pgtype.Text
}

func (o *originStatus) dest() []any {
	return []any{&o.pausedUntil, &o.pauseReason, &o.failures, &o.goodBody, &o.robotsReason}
}

func (o *originStatus) status() store.OriginStatus {
	return store.OriginStatus{
		PausedUntil: fromTZ(o.pausedUntil), PauseReason: o.pauseReason.String,
		RobotsUnreachable: o.failures.Int32 > 0 && !o.goodBody.Bool, RobotsReason: o.robotsReason.String,
	}
}
