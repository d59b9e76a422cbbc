package crawler

import (
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/fractle/mandelbot/internal/extract"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstag"
)

// MaxAddedPerPage bounds the URLs one Options.OnPage call may add (Page.Add): as many as the
// links the extractor reads from one page.
const MaxAddedPerPage = extract.DefaultMaxLinks

// MaxRedirectChains bounds the redirect chains the scheduler remembers for Page.Redirects at
// once (one per redirect target not requested yet); beyond it a target's chain is not kept
// (its Page.Redirects is empty, its Hops still counts them).
const MaxRedirectChains = 10_000

// NotAddedReason is the reason of a link that Options.AddedOnly keeps out of the crawl.
const NotAddedReason = "a link the page callback did not add (only added URLs are followed)"

// Errors of Page.Add. The URL of ErrNotFollowed is recorded (out of scope, with the reason), as
// a link that is not followed would be.
var (
	ErrNotFollowed  = errors.New("not followed")
	ErrPageNoFollow = errors.New("the page's robot tags say nofollow")
	ErrAddClosed    = errors.New("the page callback has returned")
	ErrTooManyAdded = fmt.Errorf("more than %d URLs added from one page", MaxAddedPerPage)
)

// Page is a page answer with its body, for Options.OnPage: everything of Document, the body as
// fetched, the redirect chain that led to it, and Add.
type Page struct {
	Document
	// Body is the body after content decoding, cut at the fetch limits (Truncated). It is the
	// fetcher's buffer, charged to its memory budget: valid until OnPage returns, never to be
	// modified or kept (copy what you keep).
	Body []byte
	// Redirects are the URLs that redirected to URL in this run, the first one first (nil: none
	// known: URL was known before a redirect named it, the chain began in an earlier run, or
	// MaxRedirectChains was reached).
	Redirects []string
	// Hops is how many redirects led to URL when a redirect named it first (store.URL.Hops).
	Hops int

	mu       sync.Mutex
	closed   bool
	w        *worker
	res      *result
	from     store.URL
	header   http.Header
	added    int
	held     map[string]int // notAdded's index
	noFollow int8           // 0: not decided yet, 1: follow, -1: nofollow
}

// Add puts ref, resolved against the page's URL, into the crawl as a link of the page would
// go: depth one more than the page's, through the scope, Filter and trap rules, then the
// frontier (robots.txt, pauses, the delay), saved with the page's outcome. A URL the crawl
// knows already is not added again (no error). It fails with ErrNotFollowed (wrapped, with the
// reason) when the rules keep the URL out (it is recorded out of scope), ErrPageNoFollow on a
// page whose robot tags say nofollow (rule 26), ErrTooManyAdded past MaxAddedPerPage, ErrAddClosed
// once OnPage has returned, or a parse error for a ref that is not an http(s) URL. Safe for
// concurrent use during the call.
func (p *Page) Add(ref string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrAddClosed
	}
	if p.noFollow == 0 {
		p.noFollow = 1
		if p.Robots.NoFollow || robotstag.FromHeader(p.header, p.w.opts.Frontier.Agent).NoFollow {
			p.noFollow = -1
		}
	}
	if p.noFollow < 0 {
		return ErrPageNoFollow
	}
	if p.added >= MaxAddedPerPage {
		return ErrTooManyAdded
	}
	base, err := p.w.parser.Parse(p.from.URL)
	if err != nil {
		return err
	}
	target, err := p.w.parser.Resolve(base, ref)
	if err != nil {
		return err
	}
	p.added++
	n := p.w.newURL(target, store.KindPage, p.from.Depth+1, 0)
	if n.State != store.StateQueued {
		p.res.found = append(p.res.found, n)
		return fmt.Errorf("%s: %w: %s", n.URL, ErrNotFollowed, n.Reason)
	}
	if i, ok := p.notAdded()[n.URL]; ok {
		// The page links to it too: that link, held back by AddedOnly, is followed after all.
		p.res.found[i].State, p.res.found[i].Reason = store.StateQueued, ""
		return nil
	}
	p.res.found = append(p.res.found, n)
	return nil
}

// notAdded indexes the page's links that Options.AddedOnly holds back, by URL (built once).
func (p *Page) notAdded() map[string]int {
	if p.held == nil {
		p.held = make(map[string]int)
		if p.w.opts.AddedOnly {
			for i, n := range p.res.found {
				if n.State == store.StateOutOfScope && n.Reason == NotAddedReason {
					p.held[n.URL] = i
				}
			}
		}
	}
	return p.held
}

// close ends the page's call: Add refuses from now on.
func (p *Page) close() {
	p.mu.Lock()
	p.closed = true
	p.Body = nil
	p.mu.Unlock()
}

// callPage hands the page to Options.OnPage and returns res with what it added in res.found,
// the road of the page's links to the frontier and the store. res is taken and returned by value
// so that only a crawl with an OnPage moves it to the heap (issue 26: 1.2 KB a page otherwise).
func (w *worker) callPage(res result, t task, body []byte, header http.Header) result {
	p := &Page{Document: *res.page, Body: body, Redirects: t.via, Hops: t.url.Hops, w: w, res: &res, from: t.url, header: header}
	func() {
		defer p.close() // Add refuses from now on, so res is read below with no Add under way
		w.opts.OnPage(p)
	}()
	return res
}
