package main

import "github.com/fractle/mandelbot/robotstxt"

// isProductToken reports whether s is a usable --agent value: exactly one agent token as
// robots.txt matching reads it (robotstxt.IsAgentToken, robots-semantics.md rule 6: ASCII
// letters, digits, "_" and "-"), so that the crawler is named in robots.txt and robot tags
// exactly as it was told. The definition lives in robotstxt, not here.
func isProductToken(s string) bool {
	return robotstxt.IsAgentToken(s)
}

// agentFlagHelp says what --agent accepts, for usage errors.
const agentFlagHelp = "--agent must be a product token such as Mandelbot: ASCII letters, digits, _ and - only"
