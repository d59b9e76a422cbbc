package sitemap

import (
	"errors"
	"net/url"
	"unicode/utf8"
)

// Reasons a location is skipped. They are not returned to callers (only
// counted in Result.Skipped) but keep the checks testable one by one.
var (
	errLocEmpty  = errors.New("empty location")
	errLocUTF8   = errors.New("location not valid UTF-8")
	errLocParse  = errors.New("location not accepted by net/url")
	errLocScheme = errors.New("location not http or https")
	errLocNoHost = errors.New("location has no host")
)

// checkLoc decides, minimally, whether a trimmed location may be delivered:
// it must be non-empty, valid UTF-8 (sitemaps.org: files are UTF-8; the XML
// decoder enforces it already, a text sitemap does not), parse with net/url,
// have the scheme http or https (net/url folds the scheme to lower case) and
// a host. The length is checked by the field that collected it.
//
// The caller re-parses with its own URL parser; the point here is only to
// count as skipped what no crawler could fetch.
func checkLoc(loc string) error {
	if loc == "" {
		return errLocEmpty
	}
	if !utf8.ValidString(loc) {
		return errLocUTF8
	}
	u, err := url.Parse(loc)
	if err != nil {
		return errLocParse
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return errLocScheme
	}
	if u.Host == "" {
		return errLocNoHost
	}
	return nil
}
