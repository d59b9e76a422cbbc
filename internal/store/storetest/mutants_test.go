package storetest_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store"
)

// A mutant is a correct store (SQLite) with one behaviour of the contract broken, and the check
// of the suite that must catch it.
type mutant struct {
	name  string // the bug, as a sentence
	check string // the subtest of storetest.Run that must fail
	wrap  func(s store.Store) store.Store
}

// mutantNoMerge is the store as it is, opened with IndexPending's merges at a crawl's size
// (crawlMerges), where Run wants every link change merged at once.
const mutantNoMerge = "IndexPending folds but merges no link change, leaving every anchor text for RefreshIndex"

// crawlMerges names the mutants whose store openSQLite opens with the merges of a crawl.
var crawlMerges = map[string]bool{mutantNoMerge: true}

var mutants = []mutant{
	{"phrases searched as loose words", "Query/Phrase", rewriteQuery(strings.NewReplacer(`"`, " ").Replace)},
	{"exclusions ignored", "Query/Exclude", rewriteQuery(func(q string) string {
		return strings.Join(slices.DeleteFunc(strings.Fields(q), func(f string) bool { return strings.HasPrefix(f, "-") }), " ")
	})},
	{"OR read as AND", "Query/Or", rewriteQuery(strings.NewReplacer(" OR ", " ").Replace)},
	{"a prefix searched as a whole word", "Query/Prefix", rewriteQuery(strings.NewReplacer("*", "").Replace)},
	{"site: filters ignored", "Query/Site", rewriteQuery(func(q string) string {
		return strings.Join(slices.DeleteFunc(strings.Fields(q), func(f string) bool { return strings.HasPrefix(f, "site:") }), " ")
	})},
	{"identifiers searched with their connectors dropped", "Query/Identifiers", rewriteQuery(strings.NewReplacer("_", "", "-", "").Replace)},
	{"questions searched word for word", "Query/Question", rewriteQuery(func(q string) string {
		return `"` + strings.Join(strings.Fields(q), `" "`) + `"`
	})},
	{"anchor text not searchable", "Query/TextAndAnchors", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Links = slices.Clone(b.Links)
			for i := range b.Links {
				b.Links[i].Anchor = ""
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"a malformed query answered without a note", "Query/Malformed", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			p.Notes = nil
			return p, err
		}}
	}},
	{"misspelt words searched as typed", "Search/Respelled", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			if slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "showing results for") }) {
				return index.Page{Query: q.Text, Terms: q.Parse().Terms(), Offset: q.Offset, Limit: q.Limit}, err
			}
			return p, err
		}}
	}},
	{"a query of known words that matches nothing answered with nothing", "Search/Relaxed", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			if len(p.Missing) > 0 {
				return index.Page{Query: q.Text, Terms: q.Parse().Terms(), Offset: q.Offset, Limit: q.Limit}, err
			}
			return p, err
		}}
	}},
	{"the page named for all of the query but one word not put first", "Search/NamedAllButOne", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			if slices.ContainsFunc(p.Notes, func(n string) bool { return strings.Contains(n, "the page named for") }) {
				p.Results, p.Notes = p.Results[1:], nil
			}
			return p, err
		}}
	}},
	{"a title weighs no more than the body", "Ranking/TitleBeatsBody", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Documents = slices.Clone(b.Documents)
			for i, d := range b.Documents {
				b.Documents[i].Title, b.Documents[i].Text = "", d.Title+" "+d.Text
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"headings not indexed apart from the body", "Ranking/HeadingBeatsBody", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Documents = slices.Clone(b.Documents)
			for i := range b.Documents {
				b.Documents[i].Headings = ""
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"total not marked as a lower bound", "Search/CountStops", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			p.TotalIsLowerBound = false
			return p, err
		}}
	}},
	{"link-only entries not discounted", "Ranking/FetchedBeatsLinkOnly", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for i, r := range p.Results {
				if r.LinkOnly {
					p.Results[i].Score = r.Score / index.LinkOnlyFactor
				}
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"anchor votes not counted", "Ranking/AnchorVotes", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for i, r := range p.Results {
				p.Results[i].Score = r.Score / (1 + index.AnchorVotePrior*math.Log1p(float64(r.AnchorVotes)))
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"title and URL together not boosted", "Ranking/TitleAndURL", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for i, r := range p.Results {
				p.Results[i].Score, p.Results[i].TitleURLFactor = r.Score/r.TitleURLFactor, 1
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"a page that defines the identifier the query names not favoured", "Ranking/DefinedIdentifier", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for i, r := range p.Results {
				p.Results[i].Score, p.Results[i].DefinesFactor = r.Score/r.DefinesFactor, 1
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"abbreviations in titles and URLs not read as the words they begin", "Ranking/AbbreviationInTitleAndURL",
		titleURLUnless(func(title string, q []string) bool {
			return !slices.ContainsFunc(q, func(w string) bool { return !strings.Contains(strings.ToLower(title), w) })
		})},
	{"a word of a URL path that compounds two query words not read as them", "Ranking/CompoundInTitleAndURL", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			words := strings.Fields(strings.ToLower(q.Text))
			for i, r := range p.Results {
				rest := r.URL[strings.Index(r.URL, "://")+3:]
				path := strings.FieldsFunc(strings.ToLower(rest[strings.Index(rest, "/"):]), func(c rune) bool {
					return !unicode.IsLetter(c) && !unicode.IsDigit(c)
				}) // the words of the URL's path, as written
				spelt := slices.ContainsFunc(words, func(w string) bool {
					return slices.Contains(path, w) || slices.Contains(path, strings.TrimSuffix(w, "s"))
				})
				if r.TitleURLFactor != 1 && !spelt {
					p.Results[i].Score, p.Results[i].TitleURLFactor = r.Score/r.TitleURLFactor, 1
				}
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"a task's verb required in the how-to's title", "Ranking/TaskFindsHowTo", titleURLUnless(func(title string, q []string) bool {
		return strings.Contains(strings.ToLower(title), q[0])
	})},
	{"a definition other pages cite not put first", "Ranking/CitedDefinition", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for i, r := range p.Results {
				p.Results[i].Score, p.Results[i].CitedFactor = r.Score/r.CitedFactor, 1
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"https read as the plural of http", "Ranking/AbbreviationNoPlural", rewriteQuery(strings.NewReplacer("https", "http").Replace)},
	{"pages that are mostly links not demoted", "Ranking/LinkListDemoted", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for i, r := range p.Results {
				p.Results[i].Score, p.Results[i].LinkListFactor = r.Score/r.LinkListFactor, 1
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}},
	{"the snippet is the first sentence with the query's first word", "Search/SnippetSentence", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			w := strings.Fields(q.Text)
			if err != nil || len(w) < 2 {
				return p, err
			}
			first, err := s.Search(ctx, index.Query{Text: w[0], Limit: index.MaxLimit, Now: q.Now})
			for i, r := range p.Results {
				for _, f := range first.Results {
					if f.URL == r.URL {
						p.Results[i].Snippet = f.Snippet
					}
				}
			}
			return p, err
		}}
	}},
	{"out-of-scope link-only entries ranked as ones not crawled yet", "Ranking/OutOfScopeBelowCrawled", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.New = slices.Clone(b.New)
			for i, n := range b.New {
				if n.State == store.StateOutOfScope {
					b.New[i].State, b.New[i].Reason = store.StateQueued, ""
				}
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"the words as one phrase not boosted", "Ranking/PhraseBeatsNear", rewriteQuery(func(q string) string {
		w := strings.Fields(q) // the same words, in the reverse order: no page has them as a phrase
		slices.Reverse(w)
		return strings.Join(w, " ")
	})},
	{"anchor text of links to a fragment titles the page", "Ranking/FragmentAnchorNeverTitles", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Links = slices.Clone(b.Links)
			for i := range b.Links {
				b.Links[i].Fragment = false
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"a page's URLs each its own result", "Ranking/OnePageOneResult", func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			for _, r := range slices.Clone(p.Results) {
				if e, _ := s.Explain(ctx, r.URL+"index.html"); strings.HasSuffix(r.URL, "/") && e.Indexed {
					p.Results = append(p.Results, index.Result{URL: e.URL})
				}
			}
			return p, err
		}}
	}},
	{"EachPage stops after its first batch", "EachPage/Batches", func(s store.Store) store.Store {
		return patched{Store: s, eachPage: func(ctx context.Context, fn func(store.Page) error) error {
			n := 0
			return s.EachPage(ctx, func(p store.Page) error {
				if n++; n > store.PageBatch {
					return nil
				}
				return fn(p)
			})
		}}
	}},
	{"EachPage loses the response header", "EachPage/Content", func(s store.Store) store.Store {
		return patched{Store: s, eachPage: func(ctx context.Context, fn func(store.Page) error) error {
			return s.EachPage(ctx, func(p store.Page) error {
				p.Header = http.Header{}
				return fn(p)
			})
		}}
	}},
	{"EachPage gives the text of a page that may not be indexed", "EachPage/Content", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Documents = slices.Clone(b.Documents)
			for i := range b.Documents {
				b.Documents[i].Index = true
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"Reschedule ignores a new revisit interval", "Reschedule", func(s store.Store) store.Store {
		return patched{Store: s, reschedule: func(ctx context.Context, r store.Reschedule) error {
			r.Revisit = 0
			return s.Reschedule(ctx, r)
		}}
	}},
	{"Reschedule ignores FetchedBefore", "Reschedule", func(s store.Store) store.Store {
		return patched{Store: s, reschedule: func(ctx context.Context, r store.Reschedule) error {
			r.FetchedBefore = time.Time{}
			return s.Reschedule(ctx, r)
		}}
	}},
	{"Reschedule makes URLs due in every state, not only fetched ones", "Reschedule", func(s store.Store) store.Store {
		return patched{Store: s, reschedule: func(ctx context.Context, r store.Reschedule) error {
			if err := s.Reschedule(ctx, r); err != nil || r.FetchedBefore.IsZero() {
				return err
			}
			var b store.Batch
			err := s.EachURL(ctx, func(u store.URL) error {
				if u.State != store.StateFetched && !u.NextAt.IsZero() && u.NextAt.After(r.Now) {
					u.NextAt = r.Now
					b.Updates = append(b.Updates, u)
				}
				return nil
			})
			if err != nil {
				return err
			}
			_, err = s.Commit(ctx, b)
			return err
		}}
	}},
	{"Reschedule pushes back URLs that were due earlier", "Reschedule", func(s store.Store) store.Store {
		return patched{Store: s, reschedule: func(ctx context.Context, r store.Reschedule) error {
			if err := s.Reschedule(ctx, r); err != nil || r.FetchedBefore.IsZero() {
				return err
			}
			var b store.Batch
			err := s.EachURL(ctx, func(u store.URL) error {
				if u.State == store.StateFetched && !u.FetchedAt.After(r.FetchedBefore) && u.NextAt.Before(r.Now) {
					u.NextAt = r.Now
					b.Updates = append(b.Updates, u)
				}
				return nil
			})
			if err != nil {
				return err
			}
			_, err = s.Commit(ctx, b)
			return err
		}}
	}},
	{"LoadOrigin leaves out URLs that are not due", "LoadOrigin", func(s store.Store) store.Store {
		return patched{Store: s, loadOrigin: func(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
			l, err := s.LoadOrigin(ctx, key, now, limit)
			l.IDs = l.IDs[:0]
			for _, u := range l.Due {
				l.IDs = append(l.IDs, u.ID)
			}
			return l, err
		}}
	}},
	{"LoadOrigin never says more are due", "LoadOrigin", func(s store.Store) store.Store {
		return patched{Store: s, loadOrigin: func(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
			l, err := s.LoadOrigin(ctx, key, now, limit)
			l.More = false
			return l, err
		}}
	}},
	{"LoadOrigin counts every URL not due as requested (out of scope, disallowed and sitemaps too)", "LoadOrigin/Requested", func(s store.Store) store.Store {
		return patched{Store: s, loadOrigin: func(ctx context.Context, key string, now time.Time, limit int) (store.OriginLoad, error) {
			l, err := s.LoadOrigin(ctx, key, now, limit)
			l.Requested = len(l.Waiting)
			return l, err
		}}
	}},
	{"IndexPending reports work but indexes nothing", "Indexer/StagesDocuments", func(s store.Store) store.Store {
		return patched{Store: s, indexPending: func(ctx context.Context, max int) (int, error) {
			return s.IndexLag(ctx)
		}}
	}},
	{mutantNoMerge, "Indexer/IndexPendingMerges", func(s store.Store) store.Store { return s }},
	{"IndexPending rewrites every changed anchor text, at every merge", "Indexer/AnchorsWithinFactorTwo", func(s store.Store) store.Store {
		return patched{Store: s, indexPending: func(ctx context.Context, max int) (int, error) {
			n, err := s.IndexPending(ctx, max)
			if err != nil {
				return n, err
			}
			_, err = s.RefreshIndex(ctx) // exact at every merge
			return n, err
		}}
	}},
	{"RefreshIndex leaves anchor text within a factor of two only", "Indexer/RefreshIndexExact", func(s store.Store) store.Store {
		return patched{Store: s, refreshIndex: func(ctx context.Context) (int, error) {
			return s.IndexPending(ctx, math.MaxInt) // a merge by the power-of-two rule, not exact
		}}
	}},
	{"new URLs returned in reverse order", "NewURLs/IDsAndOrder", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			added, err := s.Commit(ctx, b)
			slices.Reverse(added)
			return added, err
		}}
	}},
	{"the last copy of a URL in a batch wins", "NewURLs/DedupInOneBatch", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.New = slices.Clone(b.New)
			slices.Reverse(b.New)
			added, err := s.Commit(ctx, b)
			slices.Reverse(added)
			return added, err
		}}
	}},
	{"known URLs returned as new", "NewURLs/DedupAcrossBatches", reportKnownAsNew},
	{"a URL every writer finds returned as new to each", "Concurrency", reportKnownAsNew},
	{"a large batch loses its URLs past the 500th", "NewURLs/LargeBatch", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.New = b.New[:min(len(b.New), 500)]
			return s.Commit(ctx, b)
		}}
	}},
	{"a failed batch leaves its origins behind", "Commit/UnknownUpdateUndoesBatch", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			added, err := s.Commit(ctx, b)
			if err != nil {
				var origins []store.Origin
				for _, n := range b.New {
					origins = append(origins, store.Origin{Key: n.Origin})
				}
				s.Commit(ctx, store.Batch{Origins: origins})
			}
			return added, err
		}}
	}},
	{"queued URLs returned with no due time", "NewURLs/NextAt", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			added, err := s.Commit(ctx, b)
			for i := range added {
				added[i].NextAt = time.Time{}
			}
			return added, err
		}}
	}},
	{"an origin's gap and its reason not kept (issue 29: export --robots shows them)", "Origins/RoundTrip", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Origins = slices.Clone(b.Origins)
			for i := range b.Origins {
				b.Origins[i].Gap, b.Origins[i].GapReason = 0, ""
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"origins of new URLs not created", "NewURLs/CreateOrigins", func(s store.Store) store.Store {
		return patched{Store: s,
			origin: func(ctx context.Context, key string) (store.Origin, bool, error) {
				o, ok, err := s.Origin(ctx, key)
				if ok && o.Robots.Kind == 0 && len(o.Sitemaps) == 0 {
					return store.Origin{}, false, err
				}
				return o, ok, err
			},
			eachOrigin: func(ctx context.Context, fn func(store.Origin) error) error {
				return s.EachOrigin(ctx, func(o store.Origin) error {
					if o.Robots.Kind == 0 && len(o.Sitemaps) == 0 {
						return nil
					}
					return fn(o)
				})
			}}
	}},
	{"an empty batch is an error", "Commit/EmptyBatch", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			if b.Empty() {
				return nil, errors.New("mutant: empty batch")
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"new URLs committed apart from the rest of the batch", "Commit/UnknownUpdateUndoesBatch", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			added, err := s.Commit(ctx, store.Batch{New: b.New})
			if err != nil {
				return nil, err
			}
			_, err = s.Commit(ctx, store.Batch{Updates: b.Updates, Origins: b.Origins})
			return added, err
		}}
	}},
	{"changes within a batch applied last first", "Commit/OrderWithinBatch", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Updates, b.Origins = slices.Clone(b.Updates), slices.Clone(b.Origins)
			slices.Reverse(b.Updates)
			slices.Reverse(b.Origins)
			return s.Commit(ctx, b)
		}}
	}},
	{"a cache of origin records keeps the caller's slices", "Commit/DoesNotRetainBatch", func(s store.Store) store.Store {
		return cachedOrigins(s, func(o store.Origin) store.Origin { return o }, func(o store.Origin) store.Origin { return cloneOrigin(o) })
	}},
	{"a cache of origin records hands out its slices", "Origins/CallerOwnsResult", func(s store.Store) store.Store {
		return cachedOrigins(s, cloneOrigin, func(o store.Origin) store.Origin { return o })
	}},
	{"times returned in the zone they were given in", "Commit/TimesInUTC", func(s store.Store) store.Store {
		zone := time.FixedZone("UTC+05:30", 5*3600+1800)
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			added, err := s.Commit(ctx, b)
			for i := range added {
				added[i].DiscoveredAt, added[i].NextAt = added[i].DiscoveredAt.In(zone), added[i].NextAt.In(zone)
			}
			return added, err
		}}
	}},
	{"updates drop NoFollow", "Updates/RoundTrip", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Updates = slices.Clone(b.Updates)
			for i := range b.Updates {
				b.Updates[i].NoFollow = false
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"updates rewrite the URL and its discovery time", "Updates/ImmutableFields", func(s store.Store) store.Store {
		rewritten := map[int64]store.URL{}
		return patched{Store: s,
			commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
				added, err := s.Commit(ctx, b)
				if err == nil {
					for _, u := range b.Updates {
						rewritten[u.ID] = u
					}
				}
				return added, err
			},
			eachURL: func(ctx context.Context, fn func(store.URL) error) error {
				return s.EachURL(ctx, func(u store.URL) error {
					if r, ok := rewritten[u.ID]; ok {
						u.URL, u.Origin, u.Kind, u.DiscoveredAt = r.URL, r.Origin, r.Kind, r.DiscoveredAt
					}
					return fn(u)
				})
			}}
	}},
	{"origin records lose their sitemaps", "Origins/RoundTrip", func(s store.Store) store.Store {
		return patched{Store: s, origin: func(ctx context.Context, key string) (store.Origin, bool, error) {
			o, ok, err := s.Origin(ctx, key)
			o.Sitemaps = nil
			return o, ok, err
		}}
	}},
	{"an origin record is merged into the previous one", "Origins/Replace", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			b.Origins = slices.Clone(b.Origins)
			for i, o := range b.Origins {
				if old, ok, _ := s.Origin(ctx, o.Key); ok && len(o.Sitemaps) == 0 {
					b.Origins[i].Sitemaps = old.Sitemaps
				}
			}
			return s.Commit(ctx, b)
		}}
	}},
	{"unknown origins reported with a zero record", "Origins/Unknown", func(s store.Store) store.Store {
		return patched{Store: s, origin: func(ctx context.Context, key string) (store.Origin, bool, error) {
			o, ok, err := s.Origin(ctx, key)
			if !ok && err == nil {
				return store.Origin{Key: key}, true, nil
			}
			return o, ok, err
		}}
	}},
	{"discovering a URL resets its origin's record", "Origins/NotResetByDiscovery", func(s store.Store) store.Store {
		return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			var reset []store.Origin
			for _, n := range b.New {
				reset = append(reset, store.Origin{Key: n.Origin})
			}
			b.Origins = append(reset, b.Origins...)
			return s.Commit(ctx, b)
		}}
	}},
	{"due URLs in due-time order", "DueURLs/Order", func(s store.Store) store.Store {
		return patched{Store: s, dueURLs: func(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error) {
			us, err := s.DueURLs(ctx, origin, now, limit)
			slices.SortStableFunc(us, func(a, b store.URL) int { return a.NextAt.Compare(b.NextAt) })
			return us, err
		}}
	}},
	{"a URL due exactly now is not due", "DueURLs/Time", func(s store.Store) store.Store {
		return patched{Store: s, dueURLs: func(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error) {
			return s.DueURLs(ctx, origin, now.Add(-time.Nanosecond), limit)
		}}
	}},
	{"due URLs one over the limit", "DueURLs/Limit", func(s store.Store) store.Store {
		return patched{Store: s, dueURLs: func(ctx context.Context, origin string, now time.Time, limit int) ([]store.URL, error) {
			return s.DueURLs(ctx, origin, now, limit+1)
		}}
	}},
	{"leased origins in key order", "LeaseOrigins/Order", func(s store.Store) store.Store {
		return patched{Store: s, leaseOrigins: func(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
			keys, err := s.LeaseOrigins(ctx, owner, now, until, ttl, max)
			slices.Sort(keys)
			return keys, err
		}}
	}},
	{"an origin due exactly at until is not leased", "LeaseOrigins/Until", func(s store.Store) store.Store {
		return patched{Store: s, leaseOrigins: func(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
			return s.LeaseOrigins(ctx, owner, now, until.Add(-time.Nanosecond), ttl, max)
		}}
	}},
	{"one origin leased over max", "LeaseOrigins/Max", func(s store.Store) store.Store {
		return patched{Store: s, leaseOrigins: func(ctx context.Context, owner string, now, until time.Time, ttl time.Duration, max int) ([]string, error) {
			return s.LeaseOrigins(ctx, owner, now, until, ttl, max+1)
		}}
	}},
	{"a released origin stays held", "LeaseOrigin/GrantRenewRelease", func(s store.Store) store.Store {
		holder := map[string]string{}
		return patched{Store: s, leaseOrigin: func(ctx context.Context, owner, key string, now time.Time, ttl time.Duration) (bool, error) {
			if h, ok := holder[key]; ok && h != owner {
				return false, nil
			}
			holder[key] = owner
			return true, nil
		}}
	}},
	{"URLs walked newest first", "EachURL/Order", func(s store.Store) store.Store {
		return patched{Store: s, eachURL: func(ctx context.Context, fn func(store.URL) error) error {
			var all []store.URL
			if err := s.EachURL(ctx, func(u store.URL) error { all = append(all, u); return nil }); err != nil {
				return err
			}
			for _, u := range slices.Backward(all) {
				if err := fn(u); err != nil {
					return err
				}
			}
			return nil
		}}
	}},
	{"the URL walk wraps fn's error", "EachURL/EarlyStop", func(s store.Store) store.Store {
		return patched{Store: s, eachURL: func(ctx context.Context, fn func(store.URL) error) error {
			if err := s.EachURL(ctx, fn); err != nil {
				return fmt.Errorf("mutant: walk: %w", err)
			}
			return nil
		}}
	}},
	{"origins walked in a locale's collation", "EachOrigin/Order", func(s store.Store) store.Store {
		collate := strings.NewReplacer("-", "", ".", "", ":", "", "/", "").Replace
		return patched{Store: s, eachOrigin: func(ctx context.Context, fn func(store.Origin) error) error {
			var all []store.Origin
			if err := s.EachOrigin(ctx, func(o store.Origin) error { all = append(all, o); return nil }); err != nil {
				return err
			}
			slices.SortStableFunc(all, func(a, b store.Origin) int { return cmp.Compare(collate(a.Key), collate(b.Key)) })
			for _, o := range all {
				if err := fn(o); err != nil {
					return err
				}
			}
			return nil
		}}
	}},
	{"the origin walk goes on after fn's error", "EachOrigin/EarlyStop", func(s store.Store) store.Store {
		return patched{Store: s, eachOrigin: func(ctx context.Context, fn func(store.Origin) error) error {
			var first error
			err := s.EachOrigin(ctx, func(o store.Origin) error {
				if err := fn(o); err != nil && first == nil {
					first = err
				}
				return nil
			})
			return cmp.Or(first, err)
		}}
	}},
	{"Counts leaves out the error state", "Counts", func(s store.Store) store.Store {
		return patched{Store: s, counts: func(ctx context.Context) (map[store.State]int, error) {
			c, err := s.Counts(ctx, time.Now())
			maps.DeleteFunc(c, func(st store.State, _ int) bool { return st == store.StateError })
			return c, err
		}}
	}},
	{"leases granted whatever another owner holds", "Shared/Exclusion", sharedMutant(grantAll)},
	{"renewal leaves a lease's expiry as it was", "Shared/Renewal", sharedMutant(noRenew)},
	{"an expired lease is never taken over", "Shared/Expiry", sharedMutant(neverExpire)},
	{"Commit ignores the batch's owner", "Shared/Fencing", sharedMutant(noFence)},
	{"NextDue ignores the leases of other owners", "Shared/NextDue", sharedMutant(nextDueNoLeases)},
	{"Seeds includes the targets of redirects", "Seeds", func(s store.Store) store.Store {
		return patched{Store: s, seeds: func(ctx context.Context) ([]string, error) {
			var seeds []string
			err := s.EachURL(ctx, func(u store.URL) error {
				if u.Depth == 0 && u.Kind == store.KindPage {
					seeds = append(seeds, u.URL)
				}
				return nil
			})
			return seeds, err
		}}
	}},
	{"a second save of a setting is ignored", "Settings", func(s store.Store) store.Store {
		return patched{Store: s, saveSetting: func(ctx context.Context, key, value string) error {
			if _, ok, err := s.Setting(ctx, key); ok || err != nil {
				return err
			}
			return s.SaveSetting(ctx, key, value)
		}}
	}},
}

// sharedMutant is the reference shared store (sharedRef) with bug.
func sharedMutant(bug sharedBug) func(store.Store) store.Store {
	return func(s store.Store) store.Store { return newSharedRef(s, bug) }
}

// reportKnownAsNew breaks de-duplication as the caller sees it: Commit returns every URL the
// batch names, known or not, once.
func reportKnownAsNew(s store.Store) store.Store {
	return patched{Store: s, commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
		added, err := s.Commit(ctx, b)
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, u := range added {
			seen[u.URL] = true
		}
		for _, n := range b.New {
			if !seen[n.URL] {
				seen[n.URL] = true
				added = append(added, store.URL{URL: n.URL, Origin: n.Origin, State: n.State, DiscoveredAt: n.DiscoveredAt})
			}
		}
		return added, nil
	}}
}

// cachedOrigins puts a write-through cache of origin records in front of s, copying records
// into it with in and out of it with out.
func cachedOrigins(s store.Store, in, out func(store.Origin) store.Origin) store.Store {
	cache := map[string]store.Origin{}
	return patched{Store: s,
		commit: func(ctx context.Context, b store.Batch) ([]store.URL, error) {
			added, err := s.Commit(ctx, b)
			if err == nil {
				for _, o := range b.Origins {
					cache[o.Key] = in(o)
				}
			}
			return added, err
		},
		origin: func(ctx context.Context, key string) (store.Origin, bool, error) {
			if o, ok := cache[key]; ok {
				return out(o), true, nil
			}
			return s.Origin(ctx, key)
		},
		eachOrigin: func(ctx context.Context, fn func(store.Origin) error) error {
			return s.EachOrigin(ctx, func(o store.Origin) error {
				if c, ok := cache[o.Key]; ok {
					o = out(c)
				}
				return fn(o)
			})
		}}
}

func cloneOrigin(o store.Origin) store.Origin {
	o.Robots.Body, o.Sitemaps = slices.Clone(o.Robots.Body), slices.Clone(o.Sitemaps)
	return o
}

// rewriteQuery is a store whose search runs a rewritten query: a query language with one
// operator broken.
func rewriteQuery(rewrite func(string) string) func(s store.Store) store.Store {
	return func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			q.Text = rewrite(q.Text)
			return s.Search(ctx, q)
		}}
	}
}

// titleURLUnless is a store whose title-and-URL rule (index.TitleURLBoost) holds only for the
// results whose title keep says hold the query's words (q, the words of the query as typed,
// lower-cased): the others' TitleURLFactor is taken out of their score.
func titleURLUnless(keep func(title string, q []string) bool) func(s store.Store) store.Store {
	return func(s store.Store) store.Store {
		return patched{Store: s, search: func(ctx context.Context, q index.Query) (index.Page, error) {
			p, err := s.Search(ctx, q)
			words := strings.Fields(strings.ToLower(q.Text))
			for i, r := range p.Results {
				if r.TitleURLFactor != 1 && !keep(r.Title, words) {
					p.Results[i].Score, p.Results[i].TitleURLFactor = r.Score/r.TitleURLFactor, 1
				}
			}
			slices.SortStableFunc(p.Results, func(a, b index.Result) int { return cmp.Compare(b.Score, a.Score) })
			return p, err
		}}
	}
}
