package fetch

import "fmt"

// The parts of the default User-Agent header. Product is the token that
// robots.txt groups name (docs/robots-rules.md rule 6).
const (
	Product    = "Mandelbot"
	Version    = "0.1.0"
	ContactURL = "https://github.com/fractle/mandelbot"

	// DefaultUserAgent is the User-Agent sent when Options.UserAgent is
	// empty: "Mandelbot/0.1.0 (+https://github.com/fractle/mandelbot)".
	DefaultUserAgent = Product + "/" + Version + " (+" + ContactURL + ")"
)

// FormatUserAgent returns a User-Agent in Mandelbot's form,
// "PRODUCT/VERSION (+CONTACT)", for callers that set their own version or
// contact page. It does not validate; [New] does.
func FormatUserAgent(product, version, contactURL string) string {
	return fmt.Sprintf("%s/%s (+%s)", product, version, contactURL)
}
