package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/tester"
)

// server holds what every handler shares. It is immutable after New, so the handler is safe
// for concurrent use.
type server struct {
	store      store.Store
	agent      string
	now        func() time.Time
	log        *slog.Logger
	timeout    time.Duration
	maxOrigins int
	maxURLs    int
	refresh    time.Duration
	pages      *pages
	// testerFetch are the protections of the tester's robots.txt fetches; fetchSlots bounds
	// how many run at once (a buffered channel used as a semaphore).
	testerFetch tester.FetchOptions
	fetchSlots  chan struct{}
	gaps        func() map[string]Gap // nil: none known
	crawl       prometheus.Gatherer   // the running crawl's metrics (Options.Gatherer); nil: none
}

// New returns the site's handler over opts.Store. It fails only on a missing store or a
// template that does not parse (a bug caught by any test). The handler is safe for concurrent
// use; it never writes to the store.
func New(opts Options) (http.Handler, error) {
	if opts.Store == nil {
		return nil, errors.New("web: Options.Store is required")
	}
	opts = opts.withDefaults()
	p, err := parsePages()
	if err != nil {
		return nil, err
	}
	s := &server{store: opts.Store, agent: opts.Agent, now: opts.Now, log: opts.Log, timeout: opts.Timeout,
		maxOrigins: opts.MaxOrigins, maxURLs: opts.MaxTesterURLs, refresh: opts.Refresh, pages: p,
		testerFetch: opts.TesterFetch, fetchSlots: make(chan struct{}, opts.MaxTesterFetches), gaps: opts.Gaps,
		crawl: opts.Gatherer}

	reg := prometheus.NewRegistry()
	if err := reg.Register(newCollector(opts.Store, opts.Now, opts.Timeout)); err != nil {
		return nil, fmt.Errorf("web: register metrics: %w", err)
	}
	var gather prometheus.Gatherer = reg
	if opts.Gatherer != nil {
		gather = prometheus.Gatherers{reg, opts.Gatherer}
	}
	rt, err := newRuntimeRegistry()
	if err != nil {
		return nil, err
	}
	metrics := promhttp.HandlerFor(withRuntime{main: gather, runtime: rt}, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(opts.Log.Handler(), slog.LevelError),
		Timeout:  opts.Timeout,
	})

	static, err := staticHandler()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	s.route(mux, "/{$}", s.html(s.searchPage), http.MethodGet)
	s.route(mux, "/explain", s.html(s.explainPage), http.MethodGet)
	s.route(mux, "/api/search", http.HandlerFunc(s.apiSearch), http.MethodGet)
	s.route(mux, "/robots", http.NewCrossOriginProtection().Handler(s.html(s.robotsPage)), http.MethodGet, http.MethodPost)
	s.route(mux, "/dashboard", s.html(s.dashboardPage), http.MethodGet)
	s.route(mux, "/metrics", metrics, http.MethodGet)
	s.route(mux, "/static/", static, http.MethodGet)
	s.route(mux, "/", s.html(s.notFound)) // any method: there is nothing here

	return securityHeaders(mux), nil
}

// route registers h for pattern, answering 405 to any method not in methods (HEAD is allowed
// wherever GET is, as HTTP says; no methods means any), 414 to an oversized query string, and
// giving h a deadline and a request body of at most MaxFormBytes.
func (s *server) route(mux *http.ServeMux, pattern string, h http.Handler, methods ...string) {
	allowed := append([]string{}, methods...)
	for _, m := range methods {
		if m == http.MethodGet {
			allowed = append(allowed, http.MethodHead)
		}
	}
	allow := strings.Join(allowed, ", ")
	api := strings.HasPrefix(pattern, "/api/")
	mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok := len(allowed) == 0
		for _, m := range allowed {
			ok = ok || r.Method == m
		}
		if !ok {
			w.Header().Set("Allow", allow)
			s.fail(w, r, api, &requestError{status: http.StatusMethodNotAllowed,
				msg: fmt.Sprintf("method %s is not allowed here; use %s", r.Method, allow)})
			return
		}
		if len(r.URL.RawQuery) > MaxRawQueryBytes {
			s.fail(w, r, api, &requestError{status: http.StatusRequestURITooLong,
				msg: fmt.Sprintf("the query string is longer than %d bytes", MaxRawQueryBytes)})
			return
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxFormBytes)
		}
		ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
		defer cancel()
		h.ServeHTTP(w, r.WithContext(ctx))
	}))
}

// securityHeaders sets the headers every response carries: no script at all, resources only
// from this site, no framing, no sniffing, and no Referer sent to the pages results link to.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentSecurityPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Referrer-Policy", "no-referrer")
		hd.Set("X-Frame-Options", "DENY")
		h.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy allows the site's own stylesheet and icon and nothing else: no script
// of any kind (the pages need none), no plugins, forms only to this site, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'none'; object-src 'none'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// requestError is a problem with the request, shown to the user with its status.
type requestError struct {
	status int
	msg    string
}

func (e *requestError) Error() string { return e.msg }

func badRequest(format string, args ...any) error {
	return &requestError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// statusOf maps an error to the status and the message the user sees. Errors that are not the
// user's are logged and shown without their details.
func (s *server) statusOf(r *http.Request, err error) (int, string) {
	var re *requestError
	if errors.As(err, &re) {
		return re.status, re.msg
	}
	s.log.ErrorContext(r.Context(), "web: request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	if errors.Is(err, context.DeadlineExceeded) {
		return http.StatusInternalServerError, fmt.Sprintf("the request took longer than %s and was stopped", s.timeout)
	}
	return http.StatusInternalServerError, "something went wrong on the server; the details are in its log"
}

// fail answers err as JSON for the API, as a page otherwise.
func (s *server) fail(w http.ResponseWriter, r *http.Request, api bool, err error) {
	status, msg := s.statusOf(r, err)
	if api {
		writeJSONError(w, status, msg)
		return
	}
	s.write(w, r, view{name: "error", status: status, title: http.StatusText(status), data: errorData{Status: status, Message: sentence(msg)}})
}

// sentence capitalises the first letter of an ASCII message for a page.
func sentence(msg string) string {
	if msg != "" && 'a' <= msg[0] && msg[0] <= 'z' {
		return string(msg[0]-'a'+'A') + msg[1:]
	}
	return msg
}

type errorData struct {
	Status  int
	Message string
}

func (s *server) notFound(r *http.Request) (view, error) {
	return view{}, &requestError{status: http.StatusNotFound, msg: fmt.Sprintf("there is no page at %s", r.URL.Path)}
}
