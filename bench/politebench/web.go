package main

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits of the latency web.
const (
	// maxOrigins bounds -origins: the addresses 127.10.0.1 ... run over 250 per third octet.
	maxOrigins = 250 * 250
	// robotsBody is every origin's robots.txt: one path disallowed, so that a crawler that
	// ignores it shows in the gate check.
	robotsBody = "User-agent: *\nDisallow: /private/\n"
)

// webOptions describe a latency web: Origins sites, each on an address of its own in 127/8
// and all on one port, of Pages pages ("/" links to "/p/1" ... "/p/Pages-1" and to one
// "/private/" page), every answer held back Latency ± Jitter×Latency (uniform).
type webOptions struct {
	Origins, Pages int
	Latency        time.Duration
	Jitter         float64 // 0 to 1
	Seed           uint64
}

// hit is one request as the web saw it: when the handler began and when it returned.
type hit struct {
	path       string
	start, end time.Time
}

// latencyWeb is a running latency web. Its methods are safe for concurrent use.
type latencyWeb struct {
	opts      webOptions
	port      int
	addrs     []string // "127.10.x.y", one per origin
	listeners []net.Listener
	servers   []*http.Server

	mu   sync.Mutex
	log  map[int][]hit // origin index -> its requests, in arrival order
	rand *rand.Rand
}

// originAddr is the loopback address of origin i.
func originAddr(i int) string {
	return fmt.Sprintf("127.10.%d.%d", i/250, i%250+1)
}

// startWeb binds every origin's address on one free port and serves until ctx ends or Close.
func startWeb(opts webOptions) (*latencyWeb, error) {
	if opts.Origins < 1 || opts.Origins > maxOrigins || opts.Pages < 1 || opts.Jitter < 0 || opts.Jitter > 1 {
		return nil, fmt.Errorf("latency web: want 1-%d origins, pages >= 1, jitter 0-1", maxOrigins)
	}
	w := &latencyWeb{opts: opts, log: make(map[int][]hit), rand: rand.New(rand.NewPCG(opts.Seed, 1))}
	first, err := net.Listen("tcp", originAddr(0)+":0")
	if err != nil {
		return nil, fmt.Errorf("latency web: %w (is 127.0.0.0/8 routed to lo?)", err)
	}
	w.port = first.Addr().(*net.TCPAddr).Port
	w.listeners = append(w.listeners, first)
	for i := 1; i < opts.Origins; i++ {
		l, err := net.Listen("tcp", net.JoinHostPort(originAddr(i), strconv.Itoa(w.port)))
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("latency web: origin %d: %w", i, err)
		}
		w.listeners = append(w.listeners, l)
	}
	for i, l := range w.listeners {
		w.addrs = append(w.addrs, originAddr(i))
		srv := &http.Server{Handler: w.handler(i), ReadHeaderTimeout: 10 * time.Second}
		w.servers = append(w.servers, srv)
		go srv.Serve(l) //nolint:errcheck // ends with Close
	}
	return w, nil
}

// Close stops every origin.
func (w *latencyWeb) Close() {
	for _, s := range w.servers {
		s.Close()
	}
	for _, l := range w.listeners {
		l.Close()
	}
}

// Seeds are the origins' home pages.
func (w *latencyWeb) Seeds() []string {
	seeds := make([]string, len(w.addrs))
	for i, a := range w.addrs {
		seeds[i] = "http://" + net.JoinHostPort(a, strconv.Itoa(w.port)) + "/"
	}
	return seeds
}

// Pages is how many pages a crawler should fetch: every page of every origin, robots.txt and
// the disallowed page not counted.
func (w *latencyWeb) Pages() int { return w.opts.Origins * w.opts.Pages }

// Limit is the politeness limit in pages per second for a crawler that waits delay between
// an answer and its origin's next request: origins / (delay + mean latency).
func (w *latencyWeb) Limit(delay time.Duration) float64 {
	return float64(w.opts.Origins) / (delay + w.opts.Latency).Seconds()
}

func (w *latencyWeb) latency() time.Duration {
	w.mu.Lock()
	u := w.rand.Float64()
	w.mu.Unlock()
	return time.Duration(float64(w.opts.Latency) * (1 + w.opts.Jitter*(2*u-1)))
}

func (w *latencyWeb) handler(origin int) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body, status := w.page(r.URL.Path)
		select {
		case <-time.After(w.latency()): // the answer's latency: what this web simulates
		case <-r.Context().Done():
		}
		if r.URL.Path == "/robots.txt" {
			rw.Header().Set("Content-Type", "text/plain")
		} else {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		rw.WriteHeader(status)
		rw.Write([]byte(body)) //nolint:errcheck // the client's loss
		w.mu.Lock()
		w.log[origin] = append(w.log[origin], hit{path: r.URL.Path, start: start, end: time.Now()})
		w.mu.Unlock()
	})
}

// page is the body and status of path.
func (w *latencyWeb) page(path string) (string, int) {
	switch {
	case path == "/robots.txt":
		return robotsBody, http.StatusOK
	case path == "/":
		var b strings.Builder
		b.WriteString("<!doctype html><title>Home</title><h1>Home</h1><p>A site that answers slowly.</p><ul>")
		for p := 1; p < w.opts.Pages; p++ {
			fmt.Fprintf(&b, `<li><a href="/p/%d">page %d</a>`, p, p)
		}
		b.WriteString(`<li><a href="/private/x">private</a></ul>`)
		return b.String(), http.StatusOK
	case strings.HasPrefix(path, "/p/"):
		n, err := strconv.Atoi(path[len("/p/"):])
		if err != nil || n < 1 || n >= w.opts.Pages {
			return "not found", http.StatusNotFound
		}
		return fmt.Sprintf("<!doctype html><title>Page %d</title><h1>Page %d</h1><p>Words of page %d, answered slowly.</p><a href=\"/\">home</a>", n, n, n), http.StatusOK
	}
	return "not found", http.StatusNotFound
}

// gateReport is what the request log says of a crawler's politeness and completeness.
type gateReport struct {
	Pages, Robots, Private, Repeated, Missing int
	Overlaps                                  int           // requests that began while another to the same origin was in flight
	ShortGaps                                 int           // requests that began less than the delay after the origin's last answer
	ShortestGap                               time.Duration // the shortest gap seen between an answer and the next request
	BeforeRobots                              int           // page requests before the origin's robots.txt was answered
	First, Last                               time.Time     // the first request's start, the last answer's end
}

// gate reads the request log against delay and empties it for the next crawler.
func (w *latencyWeb) gate(delay time.Duration) gateReport {
	w.mu.Lock()
	log := w.log
	w.log = make(map[int][]hit)
	w.mu.Unlock()
	g := gateReport{ShortestGap: -1}
	for origin := range w.opts.Origins {
		hits := log[origin]
		slices.SortFunc(hits, func(a, b hit) int { return a.start.Compare(b.start) })
		seen := make(map[string]bool)
		robotsAt := time.Time{}
		for i, h := range hits {
			if g.First.IsZero() || h.start.Before(g.First) {
				g.First = h.start
			}
			if h.end.After(g.Last) {
				g.Last = h.end
			}
			switch {
			case h.path == "/robots.txt":
				g.Robots++
				if robotsAt.IsZero() {
					robotsAt = h.end
				}
			case strings.HasPrefix(h.path, "/private/"):
				g.Private++
			default:
				if seen[h.path] {
					g.Repeated++
				}
				seen[h.path] = true
				g.Pages++
				if robotsAt.IsZero() || h.start.Before(robotsAt) {
					g.BeforeRobots++
				}
			}
			if i == 0 {
				continue
			}
			prev := hits[i-1]
			if h.start.Before(prev.end) {
				g.Overlaps++
				continue
			}
			gap := h.start.Sub(prev.end)
			if gap < delay {
				g.ShortGaps++
			}
			if g.ShortestGap < 0 || gap < g.ShortestGap {
				g.ShortestGap = gap
			}
		}
		g.Missing += w.opts.Pages - len(seen)
	}
	return g
}

// problems are the gate's failures, in words; none for a polite, complete crawl.
func (g gateReport) problems() []string {
	var p []string
	add := func(n int, what string) {
		if n > 0 {
			p = append(p, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(g.Overlaps, "requests sent while another to the same origin was in flight")
	add(g.ShortGaps, "requests sent sooner than the delay after the origin's last answer")
	add(g.BeforeRobots, "page requests before the origin's robots.txt")
	add(g.Private, "requests for a path robots.txt disallows")
	add(g.Repeated, "page requests repeated")
	add(g.Missing, "pages never requested")
	return p
}
