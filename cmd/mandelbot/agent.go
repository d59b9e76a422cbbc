package main

// agentFlagHelp says what --agent accepts, for usage errors. The check itself is
// robotstxt.IsAgentToken: the one definition of an agent token (docs/robots-rules.md rule 6), so
// that the crawler is named in robots.txt and robot tags exactly as it was told.
const agentFlagHelp = "--agent must be a product token such as Mandelbot: ASCII letters, digits, _ and - only"
