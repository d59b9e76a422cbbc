package latencyweb

import (
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxOrigins bounds Options.Origins: the addresses 127.10.0.1 ... run over 250 per third octet.
const MaxOrigins = 250 * 250

// RobotsBody is every origin's robots.txt: one path disallowed, so that a crawler that ignores
// it shows in the gate check.
const RobotsBody = "User-agent: *\nDisallow: /private/\n"

// Options describe a latency web: Origins sites of Pages pages each ("/" links to "/p/1" ...
// "/p/Pages-1" and to one "/private/" page), every answer held back Latency ± Jitter×Latency
// (uniform, from a generator seeded with Seed).
type Options struct {
	Origins, Pages int
	Latency        time.Duration
	Jitter         float64 // 0 to 1
	Seed           uint64
}

// hit is one request as the web saw it: when the handler began and when it returned, and who
// sent it (its User-Agent).
type hit struct {
	path       string
	agent      string
	start, end time.Time
}

// Web is a running latency web. Its methods are safe for concurrent use; Close it when done.
type Web struct {
	opts      Options
	port      int
	addrs     []string // "127.10.x.y", one per origin
	listeners []net.Listener
	servers   []*http.Server

	mu   sync.Mutex
	log  map[int][]hit // origin index -> its requests, in the order they were answered
	rand *rand.Rand
}

// originAddr is the loopback address of origin i.
func originAddr(i int) string {
	return fmt.Sprintf("127.10.%d.%d", i/250, i%250+1)
}

// Start binds every origin's address on one free port and serves until Close.
func Start(opts Options) (*Web, error) {
	if opts.Origins < 1 || opts.Origins > MaxOrigins || opts.Pages < 1 || opts.Jitter < 0 || opts.Jitter > 1 {
		return nil, fmt.Errorf("latency web: want 1-%d origins, pages >= 1, jitter 0-1", MaxOrigins)
	}
	w := &Web{opts: opts, log: make(map[int][]hit), rand: rand.New(rand.NewPCG(opts.Seed, 1))}
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
func (w *Web) Close() {
	for _, s := range w.servers {
		s.Close()
	}
	for _, l := range w.listeners {
		l.Close()
	}
}

// Port is the one port every origin listens on.
func (w *Web) Port() int { return w.port }

// Seeds are the origins' home pages.
func (w *Web) Seeds() []string {
	seeds := make([]string, len(w.addrs))
	for i, a := range w.addrs {
		seeds[i] = "http://" + net.JoinHostPort(a, strconv.Itoa(w.port)) + "/"
	}
	return seeds
}

// Pages is how many pages a crawler should fetch: every page of every origin, robots.txt and
// the disallowed page not counted.
func (w *Web) Pages() int { return w.opts.Origins * w.opts.Pages }

// Limit is the politeness limit in pages per second for a crawler that waits delay between
// an answer and its origin's next request: origins / (delay + mean latency).
func (w *Web) Limit(delay time.Duration) float64 {
	return float64(w.opts.Origins) / (delay + w.opts.Latency).Seconds()
}

// MinDuration is the least time a polite crawl of the whole web can take at delay: each origin's
// robots.txt and pages one after the other, delay apart.
func (w *Web) MinDuration(delay time.Duration) time.Duration {
	return time.Duration(w.opts.Pages+1) * (delay + w.opts.Latency)
}

func (w *Web) latency() time.Duration {
	w.mu.Lock()
	u := w.rand.Float64()
	w.mu.Unlock()
	return time.Duration(float64(w.opts.Latency) * (1 + w.opts.Jitter*(2*u-1)))
}

func (w *Web) handler(origin int) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		body, status := w.page(r.URL.Path)
		timer := time.NewTimer(w.latency()) // the answer's latency: what this web simulates
		select {
		case <-timer.C:
		case <-r.Context().Done():
			timer.Stop()
		}
		if r.URL.Path == "/robots.txt" {
			rw.Header().Set("Content-Type", "text/plain")
		} else {
			rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		rw.WriteHeader(status)
		rw.Write([]byte(body)) //nolint:errcheck // the client's loss
		w.mu.Lock()
		w.log[origin] = append(w.log[origin], hit{path: r.URL.Path, agent: r.UserAgent(), start: start, end: time.Now()})
		w.mu.Unlock()
	})
}

// page is the body and status of path.
func (w *Web) page(path string) (string, int) {
	switch {
	case path == "/robots.txt":
		return RobotsBody, http.StatusOK
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
