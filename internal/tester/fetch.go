package tester

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/urlnorm"
)

// FetchOptions are the address protections and identity of a tester fetch: the same fields of
// fetch.Options a crawl sets from --allow-private, --resolve and its agent. The zero value
// refuses loopback and private addresses and sends fetch.DefaultUserAgent.
type FetchOptions struct {
	// UserAgent is the User-Agent header; "" means fetch.DefaultUserAgent.
	UserAgent string
	// AllowPrivate lets the fetch connect to loopback and private addresses (the CLI allows them:
	// the operator typed the URL; a web page allows them only when its server was started so).
	AllowPrivate bool
	// Resolve pins host names to addresses like curl's --resolve (see fetch.Options.Resolve);
	// a pinned address is dialled even when it is private.
	Resolve map[string]string
}

// ErrNotRobotsURL reports a robots.txt location that is not an absolute http(s) URL.
var ErrNotRobotsURL = errors.New("not an absolute http(s) URL")

// RobotsURL checks raw, the location of a robots.txt a person typed, and returns the URL to
// fetch: raw itself, or, when raw names only a site ("https://example.com" or
// "https://example.com/"), that origin's /robots.txt, the one file a crawler reads
// (docs/robots-rules.md rule 20). Anything else that is not an absolute http(s) URL is an error
// wrapping ErrNotRobotsURL; a bare host name gets the URL it probably meant as a suggestion.
func RobotsURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := urlnorm.Parse(raw)
	if err != nil {
		if guess, gerr := urlnorm.Parse("https://" + raw); raw != "" && raw[0] != '/' && !strings.Contains(raw, "://") && gerr == nil {
			if guess.Path() == "/" && guess.Query() == "" {
				return "", fmt.Errorf("%q: %w; did you mean %s?", raw, ErrNotRobotsURL, guess.RobotsURL())
			}
			return "", fmt.Errorf("%q: %w; did you mean %s?", raw, ErrNotRobotsURL, guess)
		}
		return "", fmt.Errorf("%q: %w", raw, ErrNotRobotsURL)
	}
	if u.Path() == "/" && u.Query() == "" {
		return u.RobotsURL(), nil
	}
	return u.String(), nil
}

// Fetch reads the robots.txt at robotsURL with the crawler's own status rules (robots.Fetch,
// docs/robots-rules.md rule 21) and its address protections (opts), as `mandelbot robots test
// URL` and the web tester both do. A robots.txt that gave no answer at all (a refused address, a
// name that does not resolve, a timeout) is an error: the person asked about a file that could
// not be read. Any answer, a 5xx or 429 included, is a Decision.
func Fetch(ctx context.Context, robotsURL string, opts FetchOptions) (robots.Decision, error) {
	client, err := fetch.New(fetch.Options{UserAgent: opts.UserAgent, AllowPrivate: opts.AllowPrivate, Resolve: opts.Resolve})
	if err != nil {
		return robots.Decision{}, fmt.Errorf("fetch robots.txt: %w", err)
	}
	defer client.Close()
	dec := robots.Fetch(ctx, client, robotsURL, robots.FetchOptions{})
	if dec.Kind == robots.KindUnreachable && dec.Status == 0 {
		return robots.Decision{}, fmt.Errorf("%w (the crawler would crawl nothing on this origin until it can read robots.txt)", dec.Err)
	}
	return dec, nil
}

// Unreadable says, for a person, why a robots.txt fetch got no answer: the kind of network
// failure (fetch.Classify) in words, without the layers of wrapping a log line keeps.
func Unreadable(err error) string {
	switch fetch.Classify(err) {
	case fetch.KindDNS:
		return "its host name does not resolve"
	case fetch.KindRefused:
		return "the connection was refused (nothing listens there)"
	case fetch.KindReset:
		return "the connection was closed before the answer was complete"
	case fetch.KindUnreachable:
		return "there is no route to its host"
	case fetch.KindTimeout:
		return "it did not answer in time"
	case fetch.KindPrivateAddress:
		return "its address is loopback or private"
	case fetch.KindCanceled:
		return "the request was canceled"
	case fetch.KindTLS:
		return "the TLS handshake failed (its certificate was not accepted, or no protocol was agreed)"
	}
	return err.Error()
}
