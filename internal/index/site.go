package index

import "strings"

// OriginLikePatterns returns the SQL LIKE patterns (escape character `\`) that an origin key
// ("scheme://host[:port]") matches when its host is site or a subdomain of it: the one rendering
// of a site: filter (Parsed.HostInSites) that stores with an origin column share.
func OriginLikePatterns(site string) []string {
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(site)
	return []string{"%://" + esc, "%://" + esc + ":%", "%." + esc, "%." + esc + ":%"}
}
