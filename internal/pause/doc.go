// Package pause holds the arithmetic of pausing an origin (docs/robots-rules.md rule 23): reading
// Retry-After, capping it, and the exponential backoff used when a 503 or 429 gives none. It keeps
// no state and reads no clock: the caller passes "now" and stores the result.
package pause
