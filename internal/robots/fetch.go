package robots

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/pause"
	"github.com/fractle/mandelbot/robotstxt"
)

// MaxRedirects is how many redirects a robots.txt fetch follows; a longer chain counts as 4xx
// (docs/robots-rules.md rule 21, RFC 9309 §2.3.1.2).
const MaxRedirects = 5

// Getter performs one HTTP GET without following redirects. *fetch.Client implements it.
type Getter interface {
	Get(ctx context.Context, req fetch.Request) (*fetch.Response, error)
}

// FetchOptions tune Fetch. The zero value parses up to robotstxt.DefaultMaxBytes and uses
// time.Now as the clock.
type FetchOptions struct {
	// MaxBytes is the robots.txt parse limit (rule 10); below robotstxt.DefaultMaxBytes it is
	// raised to it.
	MaxBytes int
	// Header is added to the first request (for example If-None-Match for revalidation).
	Header http.Header
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// ErrRedirectWithoutLocation reports a 3xx robots.txt answer that names nowhere to go.
var ErrRedirectWithoutLocation = errors.New("redirect without a usable Location")

// Fetch asks for robotsURL and decides what it means for its origin, following the status rules
// of docs/robots-rules.md rule 21. It never returns an error: a failure is a Decision of
// KindUnreachable with Err set, because to the crawler an unreadable robots.txt is a result
// ("crawl none of it, try later"), not a reason to stop. Redirects are followed to any origin;
// the final answer counts as the robots.txt of the origin of robotsURL.
func Fetch(ctx context.Context, g Getter, robotsURL string, opts FetchOptions) (d Decision) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	d = Decision{URL: robotsURL, Final: robotsURL, FetchedAt: now(), MaxAge: -1}
	defer func() { d.DoneAt = now() }() // the named result: every return sets it
	limit := max(opts.MaxBytes, robotstxt.DefaultMaxBytes)
	header := opts.Header
	for hop := 0; ; hop++ {
		resp, err := g.Get(ctx, fetch.Request{URL: d.Final, Header: header, MaxDecodedBytes: int64(limit) + 1})
		// The body is kept (Decision.Body) as an exact-size copy, so the
		// response's buffer and its memory budget go back at once.
		var body []byte
		if resp != nil {
			body = bytes.Clone(resp.Body)
			resp.Release()
		}
		header = nil // validators belong to the first URL only
		if err != nil && resp != nil && resp.Status >= 400 && resp.Status < 500 && resp.Status != http.StatusTooManyRequests {
			err = nil // a 4xx means "no robots.txt" whatever its body holds
		}
		if err != nil {
			d.Kind, d.Err = KindUnreachable, fmt.Errorf("fetch robots.txt %s: %w", d.Final, err)
			return d.withEmptyRules()
		}
		d.Status = resp.Status
		switch {
		case resp.Status >= 200 && resp.Status < 300:
			d.Kind = KindRules
			d.Truncated = resp.Truncated
			d.Body = body
			d.Robots = robotstxt.Parse(body, robotstxt.MaxBytes(opts.MaxBytes))
			d.readCacheHeaders(resp.Header)
			return d
		case resp.Status == http.StatusNotModified && hop == 0 && len(opts.Header) > 0:
			d.Kind = KindNotModified
			d.readCacheHeaders(resp.Header)
			return d.withEmptyRules()
		case resp.Status >= 300 && resp.Status < 400:
			if resp.Location == "" {
				d.Kind, d.Err = KindUnreachable, fmt.Errorf("fetch robots.txt %s: status %d: %w", d.Final, resp.Status, ErrRedirectWithoutLocation)
				return d.withEmptyRules()
			}
			if hop == MaxRedirects {
				d.Kind = KindAllowAll
				return d.withEmptyRules()
			}
			d.Redirects = append(d.Redirects, resp.Location)
			d.Final = resp.Location
			continue
		case resp.Status == http.StatusTooManyRequests || resp.Status >= 500:
			d.Kind = KindUnreachable
			d.RetryAfter, _ = pause.RetryAfter(resp.Header.Get("Retry-After"), d.FetchedAt)
			return d.withEmptyRules()
		case resp.Status >= 400:
			d.Kind = KindAllowAll
			d.readCacheHeaders(resp.Header)
			return d.withEmptyRules()
		default: // 1xx or nonsense: not a usable answer
			d.Kind = KindUnreachable
			d.Err = fmt.Errorf("fetch robots.txt %s: unexpected status %d", d.Final, resp.Status)
			return d.withEmptyRules()
		}
	}
}

func (d Decision) withEmptyRules() Decision {
	if d.Robots == nil {
		d.Robots = robotstxt.Parse(nil)
	}
	return d
}

func (d *Decision) readCacheHeaders(h http.Header) {
	d.ETag = h.Get("ETag")
	d.LastModified = h.Get("Last-Modified")
	d.MaxAge = maxAge(h.Values("Cache-Control"))
}

// maxAge returns the max-age directive of Cache-Control, or -1. no-store and no-cache count as
// max-age 0: the server asks not to reuse the copy without asking again.
func maxAge(values []string) time.Duration {
	age := time.Duration(-1)
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			name, val, _ := strings.Cut(strings.Trim(part, " \t"), "=")
			switch {
			case equalFoldASCII(name, "max-age"):
				if secs, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64); err == nil && secs >= 0 {
					age = time.Duration(min(secs, int64(1<<62)/int64(time.Second))) * time.Second
				}
			case equalFoldASCII(name, "no-store"), equalFoldASCII(name, "no-cache"):
				age = 0
			}
		}
	}
	return age
}

// equalFoldASCII compares protocol tokens with ASCII-only case folding (strings.EqualFold would
// also fold the Kelvin sign to k).
func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
