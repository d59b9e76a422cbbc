package storetest

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// check is one conformance test, run against a new, empty store.
type check struct {
	name string
	fn   func(t *testing.T, s store.Store)
}

// checks lists the suite; each entry becomes a subtest of Run named after it.
var checks = []check{
	{"NewURLs/IDsAndOrder", testNewIDsAndOrder},
	{"NewURLs/DedupInOneBatch", testDedupInOneBatch},
	{"NewURLs/DedupAcrossBatches", testDedupAcrossBatches},
	{"NewURLs/NextAt", testNewNextAt},
	{"NewURLs/CreateOrigins", testNewCreatesOrigins},
	{"NewURLs/LargeBatch", testLargeBatch},
	{"Commit/EmptyBatch", testEmptyBatch},
	{"Commit/UnknownUpdateUndoesBatch", testUnknownUpdateUndoesBatch},
	{"Commit/OrderWithinBatch", testOrderWithinBatch},
	{"Commit/DoesNotRetainBatch", testDoesNotRetainBatch},
	{"Commit/TimesInUTC", testTimesUTC},
	{"Updates/RoundTrip", testUpdateRoundTrip},
	{"Updates/ImmutableFields", testUpdateImmutableFields},
	{"Origins/RoundTrip", testOriginRoundTrip},
	{"Origins/Replace", testOriginReplace},
	{"Origins/Unknown", testOriginUnknown},
	{"Origins/NotResetByDiscovery", testOriginNotReset},
	{"Origins/CallerOwnsResult", testOriginCallerOwns},
	{"DueURLs/Order", testDueOrder},
	{"DueURLs/Time", testDueTime},
	{"DueURLs/Limit", testDueLimit},
	{"LeaseOrigins/Order", testLeaseOrder},
	{"LeaseOrigins/Until", testLeaseUntil},
	{"LeaseOrigins/Max", testLeaseMax},
	{"LeaseOrigin/GrantRenewRelease", testLeaseOne},
	{"EachURL/Order", testEachURLOrder},
	{"EachURL/EarlyStop", testEachURLStop},
	{"EachOrigin/Order", testEachOriginOrder},
	{"EachOrigin/EarlyStop", testEachOriginStop},
	{"EachPage/Content", testEachPageContent},
	{"EachPage/Batches", testEachPageBatches},
	{"Counts", testCounts},
	{"Seeds", testSeeds},
	{"Settings", testSettings},
	{"LoadOrigin", testLoadOrigin},
	{"LoadOrigin/Requested", testLoadOriginRequested},
	{"Reschedule", testReschedule},
	{"Indexer/StagesDocuments", testIndexerStagesDocuments},
	{"Indexer/IndexPendingMerges", testIndexerIndexPendingMerges},
	{"Indexer/AnchorsWithinFactorTwo", testIndexerAnchorsWithinFactorTwo},
	{"Indexer/RefreshIndexExact", testIndexerRefreshIndexExact},
	{"Ranking/TitleBeatsBody", testRankTitleBeatsBody},
	{"Ranking/HeadingBeatsBody", testRankHeadingBeatsBody},
	{"Ranking/FetchedBeatsLinkOnly", testRankFetchedBeatsLinkOnly},
	{"Ranking/FragmentAnchorNeverTitles", testRankFragmentAnchorNeverTitles},
	{"Ranking/OnePageOneResult", testDedupeOnePageOneResult},
	{"Ranking/AnchorVotes", testRankAnchorVotes},
	{"Ranking/PhraseBeatsNear", testRankPhraseBeatsNear},
	{"Ranking/TitleAndURL", testRankTitleAndURL},
	{"Ranking/OutOfScopeBelowCrawled", testRankOutOfScopeBelowCrawled},
	{"Ranking/DefinedIdentifier", testRankDefinedIdentifier},
	{"Ranking/LinkListDemoted", testRankLinkListDemoted},
	{"Ranking/AbbreviationInTitleAndURL", testRankAbbreviationInTitleAndURL},
	{"Ranking/CompoundInTitleAndURL", testRankCompoundInTitleAndURL},
	{"Ranking/TaskFindsHowTo", testRankTaskFindsHowTo},
	{"Ranking/CitedDefinition", testRankCitedDefinition},
	{"Ranking/AbbreviationNoPlural", testRankAbbreviationNoPlural},
	{"Search/SnippetSentence", testSnippetSentence},
	{"Search/Respelled", testSearchRespelled},
	{"Search/Relaxed", testSearchRelaxed},
	{"Search/NamedAllButOne", testSearchNamedAllButOne},
	{"Search/CountStops", testSearchCountStops},
	{"Query/Phrase", testQueryPhrase},
	{"Query/Exclude", testQueryExclude},
	{"Query/Or", testQueryOr},
	{"Query/Prefix", testQueryPrefix},
	{"Query/Site", testQuerySite},
	{"Query/Identifiers", testQueryIdentifiers},
	{"Query/Malformed", testQueryMalformed},
	{"Query/Question", testQueryQuestion},
	{"Query/TextAndAnchors", testQueryTextAndAnchors},
	{"Concurrency", testConcurrency},
	{"Shared/Exclusion", testSharedExclusion},
	{"Shared/Renewal", testSharedRenewal},
	{"Shared/Expiry", testSharedExpiry},
	{"Shared/Fencing", testSharedFencing},
	{"Shared/NextDue", testSharedNextDue},
}

// Run runs the conformance suite, one subtest per behaviour. open must return a new, empty
// store each time it is called (with t the subtest's); Run closes it when the subtest ends, and
// reports an error from Close. The store's IndexPending must merge the link changes waiting at
// every call while it holds a few links (sqlite.Options.MergeAll): the merges that a crawl
// sees every few thousand pages (issue 26 part 2) are the Indexer checks' subject. open may
// register its own t.Cleanup (to remove files, say): those run after the store is closed.
//
// The subtests run in parallel (t.Parallel), each on its own store: open must give each call a
// store of its own (a file, a database schema). Run the suite with -race: one subtest commits
// from 8 goroutines at once.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			s := open(t)
			t.Cleanup(func() {
				if err := s.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			c.fn(t, s)
		})
	}
}
