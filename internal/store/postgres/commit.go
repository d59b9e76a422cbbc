package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/fractle/mandelbot/internal/store"
)

// ErrUnknownURL reports an update of a URL ID the store does not hold; the whole batch is undone.
var ErrUnknownURL = errors.New("update of an unknown URL")

// Commit implements store.Queue in one transaction of a few statements whatever the batch's
// size: the new URLs in one multi-row INSERT ... ON CONFLICT DO NOTHING (rows passed as arrays),
// the updates in one UPDATE ... FROM, the origin records and the staged documents in one upsert
// each. Rows are taken in key order, so that processes committing at once do not deadlock.
//
// With b.Owner set, Commit first locks the leases of the origins the batch writes for (FOR KEY
// SHARE: a takeover waits for the commit, a renewal does not; leases.go) and refuses the batch
// with a *store.LeaseLostError when Owner does not hold one of them.
func (s *Store) Commit(ctx context.Context, b store.Batch) ([]store.URL, error) {
	if b.Empty() {
		return nil, nil
	}
	docs := make(map[int64]bool, len(b.Documents))
	for _, d := range b.Documents {
		docs[d.URLID] = true
	}
	for _, l := range b.Links {
		if !docs[l.FromID] {
			return nil, fmt.Errorf("postgres: commit: link from %d to %s: %w", l.FromID, l.To, store.ErrLinkWithoutDocument)
		}
	}
	news := firstCopies(b.New)
	var added []store.URL
	err := s.inTx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		added = nil
		if b.Owner != "" {
			if err := fence(ctx, tx, b); err != nil {
				return err
			}
		}
		var err error
		if added, err = s.insertNew(ctx, tx, news); err != nil {
			return err
		}
		if err := updateURLs(ctx, tx, b.Updates); err != nil {
			return err
		}
		if err := upsertOrigins(ctx, tx, b.Origins); err != nil {
			return err
		}
		return stage(ctx, tx, b)
	})
	if err != nil {
		return nil, fmt.Errorf("postgres: commit: %w", err)
	}
	for _, u := range added { // only now: a rolled-back origin must not be remembered
		s.origins.Add(u.Origin)
	}
	for _, o := range b.Origins {
		s.origins.Add(o.Key)
	}
	return added, nil
}

// fence locks the leases of the origins b writes for and fails with a *store.LeaseLostError
// unless b.Owner holds every one.
func fence(ctx context.Context, tx pgx.Tx, b store.Batch) error {
	want := map[string]bool{}
	inUpdates := map[int64]bool{}
	for _, u := range b.Updates {
		want[u.Origin] = true
		inUpdates[u.ID] = true
	}
	for _, o := range b.Origins {
		want[o.Key] = true
	}
	var other []int64
	for _, d := range b.Documents {
		if !inUpdates[d.URLID] {
			other = append(other, d.URLID)
		}
	}
	if len(other) > 0 {
		rows, _ := tx.Query(ctx, `SELECT DISTINCT origin FROM urls WHERE id = ANY($1)`, other)
		keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return fmt.Errorf("fence: origins of documents: %w", err)
		}
		for _, k := range keys {
			want[k] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	keys := sortedKeys(want)
	rows, _ := tx.Query(ctx, `SELECT origin FROM leases WHERE origin = ANY($1) AND owner = $2
		ORDER BY origin FOR KEY SHARE`, keys, b.Owner)
	held, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return fmt.Errorf("fence: %w", err)
	}
	if len(held) == len(keys) {
		return nil
	}
	lost := &store.LeaseLostError{Owner: b.Owner}
	for _, k := range keys {
		if _, ok := slices.BinarySearch(held, k); !ok {
			lost.Origins = append(lost.Origins, k)
		}
	}
	return lost
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// newURL is a NewURL with its ID.
type newURL struct {
	store.NewURL
	id int64
}

// firstCopies returns news with their IDs, each URL once (its first copy), in the order given.
func firstCopies(news []store.NewURL) []newURL {
	out := make([]newURL, 0, len(news))
	seen := make(map[int64]bool, len(news))
	for _, n := range news {
		id := store.IDOf(n.URL)
		if !seen[id] {
			seen[id] = true
			out = append(out, newURL{NewURL: n, id: id})
		}
	}
	return out
}

// insertNew adds the URLs of news that are not known yet, in one statement, and creates the
// origins they name. Each row's seq is drawn in the order given (discovery order); rows are
// inserted in ID order. It returns the added URLs in the order given.
func (s *Store) insertNew(ctx context.Context, tx pgx.Tx, news []newURL) ([]store.URL, error) {
	if len(news) == 0 {
		return nil, nil
	}
	n := len(news)
	ids := make([]int64, n)
	urls, origins, states, reasons := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	kinds, depths, hops := make([]int32, n), make([]int32, n), make([]int32, n)
	discovered, next := make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n)
	for i, u := range news {
		ids[i], urls[i], origins[i] = u.id, pgText(u.URL), pgText(u.Origin)
		kinds[i], depths[i], hops[i] = int32(u.Kind), int32(u.Depth), int32(u.Hops)
		states[i], reasons[i] = string(u.State), pgText(u.Reason)
		discovered[i], next[i] = tz(u.DiscoveredAt), tz(firstDue(u.NewURL))
	}
	rows, _ := tx.Query(ctx, `WITH t AS (
			SELECT t.*, nextval('urls_seq') AS seq FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[],
				$5::int[], $6::int[], $7::text[], $8::text[], $9::timestamptz[], $10::timestamptz[])
				WITH ORDINALITY AS t(id, url, origin, kind, depth, hops, state, reason, discovered_at, next_at, ord)
			ORDER BY ord)
		INSERT INTO urls (id, seq, url, origin, kind, depth, hops, state, reason, discovered_at, next_at)
		SELECT id, seq, url, origin, kind, depth, hops, state, reason, discovered_at, next_at FROM t ORDER BY id
		ON CONFLICT (id) DO NOTHING RETURNING id`,
		ids, urls, origins, kinds, depths, hops, states, reasons, discovered, next)
	got, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("insert %d URLs: %w", n, err)
	}
	if len(got) == 0 {
		return nil, nil
	}
	inserted := make(map[int64]bool, len(got))
	for _, id := range got {
		inserted[id] = true
	}
	added := make([]store.URL, 0, len(got))
	newOrigins := map[string]bool{}
	for _, u := range news {
		if !inserted[u.id] {
			continue
		}
		if !s.origins.Has(u.Origin) {
			newOrigins[pgText(u.Origin)] = true
		}
		added = append(added, store.URL{
			ID: u.id, URL: u.URL, Origin: u.Origin, Kind: u.Kind, Depth: u.Depth, Hops: u.Hops,
			State: u.State, Reason: u.Reason, DiscoveredAt: u.DiscoveredAt.UTC(), NextAt: firstDue(u.NewURL).UTC(),
		})
	}
	if len(newOrigins) > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO origins (key) SELECT k FROM unnest($1::text[]) AS k ORDER BY k
			ON CONFLICT (key) DO NOTHING`, sortedKeys(newOrigins)); err != nil {
			return nil, fmt.Errorf("insert %d origins: %w", len(newOrigins), err)
		}
	}
	return added, nil
}

// firstDue is when a new URL is first due: when it was discovered if queued, never otherwise.
func firstDue(n store.NewURL) time.Time {
	if n.State == store.StateQueued {
		return n.DiscoveredAt
	}
	return time.Time{}
}

// lastByKey returns the last element of xs for each key, in key order: within a batch the later
// change of a row wins, and rows are written in key order.
func lastByKey[T any, K cmp.Ordered](xs []T, key func(T) K) []T {
	at := make(map[K]int, len(xs))
	for i, x := range xs {
		at[key(x)] = i
	}
	if len(at) == len(xs) && slices.IsSortedFunc(xs, func(a, b T) int { return cmp.Compare(key(a), key(b)) }) {
		return xs
	}
	out := make([]T, 0, len(at))
	for _, i := range at {
		out = append(out, xs[i])
	}
	slices.SortFunc(out, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
	return out
}

// updateURLs applies updates (the last one of each ID) in one statement, failing with
// ErrUnknownURL when an ID is not stored.
func updateURLs(ctx context.Context, tx pgx.Tx, updates []store.URL) error {
	if len(updates) == 0 {
		return nil
	}
	us := lastByKey(updates, func(u store.URL) int64 { return u.ID })
	n := len(us)
	ids := make([]int64, n)
	depths, hops, statuses, rules, attempts := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	states, reasons, types, locations, canonicals := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	fetched, next := make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n)
	indexed, noindex, nofollow := make([]bool, n), make([]bool, n), make([]bool, n)
	etags, lastMods, warcFiles, warcIDs := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	warcOffsets := make([]int64, n)
	for i, u := range us {
		etags[i], lastMods[i], warcFiles[i], warcIDs[i] = pgText(u.ETag), pgText(u.LastModified), pgText(u.WARC.File), pgText(u.WARC.RecordID)
		warcOffsets[i] = u.WARC.Offset
		ids[i], depths[i], hops[i], statuses[i], rules[i], attempts[i] = u.ID, int32(u.Depth), int32(u.Hops), int32(u.Status), int32(u.RuleLine), int32(u.Attempts)
		states[i], reasons[i], types[i], locations[i], canonicals[i] = string(u.State), pgText(u.Reason), pgText(u.ContentType), pgText(u.Location), pgText(u.Canonical)
		fetched[i], next[i] = tz(u.FetchedAt), tz(u.NextAt)
		indexed[i], noindex[i], nofollow[i] = u.Indexed, u.NoIndex, u.NoFollow
	}
	tag, err := tx.Exec(ctx, `UPDATE urls SET depth = t.depth, hops = t.hops, state = t.state, status = t.status,
			reason = t.reason, rule_line = t.rule_line, fetched_at = t.fetched_at, next_at = t.next_at,
			attempts = t.attempts, content_type = t.content_type, location = t.location, indexed = t.indexed,
			noindex = t.noindex, nofollow = t.nofollow, canonical = t.canonical, etag = t.etag,
			last_modified = t.last_modified, warc_file = t.warc_file, warc_offset = t.warc_offset,
			warc_response_id = t.warc_response_id
		FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::int[],
			$8::timestamptz[], $9::timestamptz[], $10::int[], $11::text[], $12::text[], $13::boolean[],
			$14::boolean[], $15::boolean[], $16::text[], $17::text[], $18::text[], $19::text[], $20::bigint[],
			$21::text[])
			AS t(id, depth, hops, state, status, reason, rule_line, fetched_at, next_at, attempts,
			content_type, location, indexed, noindex, nofollow, canonical, etag, last_modified, warc_file,
			warc_offset, warc_response_id)
		WHERE urls.id = t.id`,
		ids, depths, hops, states, statuses, reasons, rules, fetched, next, attempts, types, locations,
		indexed, noindex, nofollow, canonicals, etags, lastMods, warcFiles, warcOffsets, warcIDs)
	if err != nil {
		return fmt.Errorf("update %d URLs: %w", n, err)
	}
	if int(tag.RowsAffected()) != n {
		return fmt.Errorf("update %d URLs, %d known: %w", n, tag.RowsAffected(), ErrUnknownURL)
	}
	return nil
}

// upsertOrigins writes origin records (the last one of each key) in one statement.
func upsertOrigins(ctx context.Context, tx pgx.Tx, records []store.Origin) error {
	if len(records) == 0 {
		return nil
	}
	os := lastByKey(records, func(o store.Origin) string { return o.Key })
	n := len(os)
	keys, reasons, etags, lastMods, pauseReasons := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	kinds, statuses, failures, strikes := make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, n)
	bodies := make([][]byte, n)
	fetched, expires, failing, retry, paused := make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n), make([]pgtype.Timestamptz, n)
	asNotFound, good, probing := make([]bool, n), make([]bool, n), make([]bool, n)
	sitemaps := make([]string, n) // text[] literals: unnest cannot take an array of arrays of varying length
	warcFiles, warcIDs, warcOffsets := make([]string, n), make([]string, n), make([]int64, n)
	gaps, gapReasons := make([]int64, n), make([]string, n)
	for i, o := range os {
		r := o.Robots
		gaps[i], gapReasons[i] = o.Gap.Milliseconds(), pgText(o.GapReason)
		warcFiles[i], warcOffsets[i], warcIDs[i] = pgText(r.WARC.File), r.WARC.Offset, pgText(r.WARC.RecordID)
		keys[i], reasons[i], etags[i], lastMods[i], pauseReasons[i] = pgText(o.Key), pgText(r.Reason), pgText(r.ETag), pgText(r.LastMod), pgText(o.PauseReason)
		kinds[i], statuses[i], failures[i], strikes[i] = int32(r.Kind), int32(r.Status), int32(r.Failures), int32(o.PauseStrikes)
		bodies[i] = r.Body
		if bodies[i] == nil {
			bodies[i] = []byte{}
		}
		fetched[i], expires[i], failing[i], retry[i], paused[i] = tz(r.FetchedAt), tz(r.ExpiresAt), tz(r.FailingSince), tz(r.RetryAt), tz(o.PausedUntil)
		asNotFound[i], good[i], probing[i] = r.AsNotFound, r.GoodBody, o.Probing
		sitemaps[i] = arrayLiteral(o.Sitemaps)
	}
	_, err := tx.Exec(ctx, `INSERT INTO origins (`+originColumns+`)
		SELECT t.key, t.kind, t.status, t.body, t.reason, t.fetched_at, t.expires_at, t.etag, t.last_mod,
			t.failing_since, t.failures, t.retry_at, t.as_not_found, t.good_body, t.paused_until, t.strikes,
			t.pause_reason, t.probing, t.sitemaps::text[], t.warc_file, t.warc_offset, t.warc_id, t.gap_ms, t.gap_reason
		FROM unnest($1::text[], $2::int[], $3::int[], $4::bytea[], $5::text[], $6::timestamptz[],
			$7::timestamptz[], $8::text[], $9::text[], $10::timestamptz[], $11::int[], $12::timestamptz[],
			$13::boolean[], $14::boolean[], $15::timestamptz[], $16::int[], $17::text[], $18::boolean[], $19::text[],
			$20::text[], $21::bigint[], $22::text[], $23::bigint[], $24::text[])
			AS t(key, kind, status, body, reason, fetched_at, expires_at, etag, last_mod, failing_since,
			failures, retry_at, as_not_found, good_body, paused_until, strikes, pause_reason, probing, sitemaps,
			warc_file, warc_offset, warc_id, gap_ms, gap_reason)
		ORDER BY t.key
		ON CONFLICT (key) DO UPDATE SET robots_kind = excluded.robots_kind,
			robots_status = excluded.robots_status, robots_body = excluded.robots_body,
			robots_reason = excluded.robots_reason, robots_fetched_at = excluded.robots_fetched_at,
			robots_expires_at = excluded.robots_expires_at, robots_etag = excluded.robots_etag,
			robots_last_mod = excluded.robots_last_mod, robots_failing_since = excluded.robots_failing_since,
			robots_failures = excluded.robots_failures, robots_retry_at = excluded.robots_retry_at,
			robots_as_not_found = excluded.robots_as_not_found, robots_good_body = excluded.robots_good_body,
			paused_until = excluded.paused_until, pause_strikes = excluded.pause_strikes,
			pause_reason = excluded.pause_reason, probing = excluded.probing, sitemaps = excluded.sitemaps,
			robots_warc_file = excluded.robots_warc_file, robots_warc_offset = excluded.robots_warc_offset,
			robots_warc_response_id = excluded.robots_warc_response_id, gap_ms = excluded.gap_ms,
			gap_reason = excluded.gap_reason`,
		keys, kinds, statuses, bodies, reasons, fetched, expires, etags, lastMods, failing, failures, retry,
		asNotFound, good, paused, strikes, pauseReasons, probing, sitemaps, warcFiles, warcOffsets, warcIDs,
		gaps, gapReasons)
	if err != nil {
		return fmt.Errorf("write %d origins: %w", n, err)
	}
	return nil
}

// arrayLiteral renders ss as a PostgreSQL text[] literal: every element double-quoted, with
// backslashes and double quotes escaped.
func arrayLiteral(ss []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range pgText(s) {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// pgText makes s storable as PostgreSQL text, which holds valid UTF-8 without NUL: invalid
// bytes become U+FFFD and NUL a space. Valid text without NUL, nearly always, is returned as is.
func pgText(s string) string {
	if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", " ")
}
