package store

import "github.com/cespare/xxhash/v2"

// IDOf is the ID of a canonical URL in every store: the low 63 bits of its 64-bit xxHash, or 1
// when those are zero. It is the one place that decides a URL's identity, so the crawler can
// de-duplicate new URLs and name link targets without asking the store, and several crawl
// processes sharing one store agree on every ID.
//
// Two different URLs with the same ID are one URL to a store: the second is taken as already
// known and is not recorded. Among n distinct URLs the chance that any two collide is about
// n²/2⁶⁴: 5·10⁻⁸ for a million URLs, 5·10⁻⁴ for a hundred million.
func IDOf(canonicalURL string) int64 {
	id := int64(xxhash.Sum64String(canonicalURL) >> 1)
	if id == 0 {
		return 1
	}
	return id
}
