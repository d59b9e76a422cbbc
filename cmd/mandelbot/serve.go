package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/tester"
	"github.com/fractle/mandelbot/internal/web"
	"github.com/fractle/mandelbot/robotstxt"
)

// Limits of the HTTP server behind `mandelbot serve`. The site bounds each request's work
// (web.DefaultTimeout); these bound the connection around it.
const (
	defaultServeAddr = "127.0.0.1:8080"
	// serveReadHeaderTimeout stops a client that trickles its headers (slowloris).
	serveReadHeaderTimeout = 5 * time.Second
	// serveReadTimeout leaves room for the tester's largest form (web.MaxFormBytes) on a slow link.
	serveReadTimeout = 30 * time.Second
	// serveWriteTimeout outlasts the site's own request deadline, so the site answers first.
	serveWriteTimeout = web.DefaultTimeout + 5*time.Second
	serveIdleTimeout  = 2 * time.Minute
	// serveMaxHeaderBytes fits the longest query string the site accepts (web.MaxRawQueryBytes).
	serveMaxHeaderBytes = web.MaxRawQueryBytes + 16<<10
	// serveShutdownTimeout is how long requests in flight may finish after SIGINT or SIGTERM.
	serveShutdownTimeout = 10 * time.Second
)

func newServeCommand() *cobra.Command {
	var f storeFlags
	var addr, agent string
	var resolves []string
	var allowPrivate bool
	cmd := &cobra.Command{
		Use:   "serve [--addr 127.0.0.1:8080] [--data DIR|--store URL] [--agent NAME] [--allow-private] [--resolve HOST:PORT:ADDR]",
		Short: "Serve the search page, JSON API, robots.txt tester, crawl dashboard and /metrics",
		Long: `Serve a crawl over HTTP: the search page (/), why a URL is in the index or missing
(/explain), the JSON API (/api/search, as 'mandelbot search --json' prints it), the robots.txt
tester (/robots: a robots.txt pasted, or fetched from its URL with the crawler's status rules;
loopback and private addresses only with --allow-private, or --resolve for the hosts it pins),
the crawl dashboard (/dashboard) and Prometheus metrics (/metrics: the crawl's figures, Go
runtime and process).

The store is opened read-only, so serve can run beside a crawl. Stops cleanly on SIGINT or
SIGTERM. The default address is loopback; any other prints a warning, since the pages show
everything the crawl learned.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, _, err := net.SplitHostPort(addr); err != nil {
				return usageErrorf("--addr %q: want HOST:PORT, e.g. 127.0.0.1:8080: %v", addr, err)
			}
			if !robotstxt.IsAgentToken(agent) {
				return usageErrorf("%s", agentFlagHelp)
			}
			resolve, err := parseResolves(resolves)
			if err != nil {
				return usageErrorf("%v", err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			st, err := f.open(ctx, false)
			if err != nil {
				return err
			}
			defer st.Close()
			tf := tester.FetchOptions{UserAgent: testerUserAgent(), AllowPrivate: allowPrivate, Resolve: resolve}
			return serveStore(ctx, st, addr, agent, tf, cmd.OutOrStdout())
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&addr, "addr", defaultServeAddr, "address to listen on, HOST:PORT (port 0 picks a free port)")
	cmd.Flags().StringVar(&agent, "agent", defaultAgent, "product token the robots.txt tester checks for by default")
	cmd.Flags().BoolVar(&allowPrivate, "allow-private", false, "let the robots.txt tester fetch from loopback and private network addresses")
	cmd.Flags().StringArrayVar(&resolves, "resolve", nil, "HOST:PORT:ADDR: the tester connects to ADDR for HOST:PORT, like curl; also allows loopback (repeatable)")
	return cmd
}

// testerUserAgent is the User-Agent of the tester's robots.txt fetches, from the CLI or a page:
// the crawler's own.
func testerUserAgent() string {
	return fetch.FormatUserAgent(fetch.Product, version, fetch.ContactURL)
}

// parseResolves reads --resolve values (curl's HOST:PORT:ADDR) into fetch.Options.Resolve's map.
func parseResolves(list []string) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(list))
	for _, r := range list {
		hp, addr, err := fetch.ParseResolve(r)
		if err != nil {
			return nil, fmt.Errorf("--resolve %q: want HOST:PORT:ADDR, e.g. example.com:443:127.0.0.1", r)
		}
		out[hp] = addr
	}
	return out, nil
}

// serveStore serves the site over st on addr until ctx ends (see serveOn); fetch are the
// tester's fetch permissions (tf).
func serveStore(ctx context.Context, st store.Store, addr, agent string, tf tester.FetchOptions, out io.Writer) error {
	ln, err := listen(ctx, addr, out)
	if err != nil {
		return err
	}
	return serveOn(ctx, ln, site{store: st, agent: agent, fetch: tf}, out)
}

// listen binds addr, so a busy or bad address fails before any work starts; a warning is
// written to out first when addr is not loopback.
func listen(ctx context.Context, addr string, out io.Writer) (net.Listener, error) {
	if warn := exposure(addr); warn != "" {
		fmt.Fprintf(out, "warning: %s\n", warn)
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("serve: --addr %s: %w", addr, err)
	}
	return ln, nil
}

// site is what serveOn shows: a store, the tester's default agent, and, during a crawl, the
// crawl's own metrics.
type site struct {
	store   store.Store
	agent   string
	metrics prometheus.Gatherer       // nil: the store's figures only
	refresh time.Duration             // how often the dashboard reloads; 0: web.DashboardRefresh
	fetch   tester.FetchOptions       // the tester's robots.txt fetches: address permissions, User-Agent
	gaps    func() map[string]web.Gap // the running crawl's gaps (crawl --serve); nil: none
}

// serveOn serves the site on ln until ctx ends, then shuts down gracefully, letting requests in
// flight finish (at most serveShutdownTimeout). It writes "Serving on http://ADDR" to out, with
// the address actually bound (so port 0 is usable), and "Stopped." when done. Server errors are
// logged to out. The store stays open: the caller owns it (the demo and crawl --serve pass the
// store they crawl into). ln is closed on return.
func serveOn(ctx context.Context, ln net.Listener, s site, out io.Writer) error {
	log := slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: slog.LevelWarn}))
	h, err := web.New(web.Options{Store: s.store, Agent: s.agent, Log: log, Gatherer: s.metrics, Refresh: s.refresh, TesterFetch: s.fetch, Gaps: s.gaps})
	if err != nil {
		ln.Close()
		return fmt.Errorf("serve: %w", err)
	}
	srv := newHTTPServer(h, log)
	fmt.Fprintf(out, "Serving on http://%s\n", ln.Addr())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), serveShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		return fmt.Errorf("serve: shut down: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	fmt.Fprintln(out, "Stopped.")
	return nil
}

// newHTTPServer wraps h in a server with every timeout and size limit set: net/http has none
// by default.
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: serveReadHeaderTimeout,
		ReadTimeout:       serveReadTimeout,
		WriteTimeout:      serveWriteTimeout,
		IdleTimeout:       serveIdleTimeout,
		MaxHeaderBytes:    serveMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// exposure returns a warning when addr may be reachable from other machines, or "" for a
// loopback address. A host name other than localhost is not resolved: it gets the warning.
func exposure(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return "" // Listen reports it
	}
	if isLocalhost(host) {
		return ""
	}
	ip, err := netip.ParseAddr(host)
	switch {
	case host == "" || (err == nil && ip.IsUnspecified()):
		return fmt.Sprintf("--addr %s listens on every network interface: anyone who can reach this machine can read the crawl", addr)
	case err == nil && ip.IsLoopback():
		return ""
	}
	return fmt.Sprintf("--addr %s is not a loopback address: anyone who can reach it can read the crawl", addr)
}

// isLocalhost reports whether host is "localhost" in any ASCII case (strings.EqualFold would
// also accept Unicode look-alikes such as the long s).
func isLocalhost(host string) bool {
	const want = "localhost"
	if len(host) != len(want) {
		return false
	}
	for i := 0; i < len(host); i++ {
		if c := host[i]; c != want[i] && c+'a'-'A' != want[i] {
			return false
		}
	}
	return true
}
