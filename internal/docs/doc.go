// Package docs holds no code: its tests keep the repository's documents in step with the code
// they describe. TestRulesDoc... checks that docs/robots-rules.md has a section for every
// robots rule a test is named after or a comment cites (issue 30).
package docs
