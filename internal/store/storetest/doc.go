// Package storetest is the conformance suite of store.Store: the behaviour every storage
// technology (the embedded SQLite store, PostgreSQL) must show, written once against the
// interface so the implementations cannot drift apart.
//
// An implementation's tests call Run with a function that opens a new, empty store:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store {
//			s, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), "crawl.db"), sqlite.Options{MergeAll: true})
//			if err != nil {
//				t.Fatal(err)
//			}
//			return s
//		})
//	}
//
// What the suite takes as the contract, beyond the words of store.go:
//
//   - Times come back as the same instant, in UTC. The suite's times have whole microseconds
//     (PostgreSQL's precision); a store need not keep finer ones.
//   - Nil and empty slices (robots.txt body, sitemaps) are the same value.
//   - IDs are positive and grow in discovery order: the order of a batch, then commit order. So
//     "ID order" (EachURL) and "discovery order" (DueURLs) are the same order.
//   - URL, Origin, Kind and DiscoveredAt of a known URL never change: an update that carries other
//     values is applied to the other fields only.
//   - Within one batch, changes apply in the order given: a later update of the same ID, or a later
//     record of the same origin, wins. New URLs are added before the batch's origin records are
//     written, so a batch may both discover an origin and record its robots.txt decision.
//   - EachOrigin's key order is Go's string order (bytewise), not a locale's collation.
//   - An origin record is never reset by the discovery of more of its URLs.
//
// Leases: the suite checks what every store must do (grant free origins, filter and order them,
// renew, release). Exclusion between owners, renewal, expiry and takeover, and fencing (the
// Shared/ checks) are checked only on stores that implement store.Shared, because an embedded
// store used by one process (SQLite) may grant every lease; elsewhere they are skipped.
package storetest
