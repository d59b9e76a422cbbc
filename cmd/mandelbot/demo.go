package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/crawlctx"
	"github.com/fractle/mandelbot/internal/index"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/internal/testweb"
)

// demoMaxWait lets the demo sit out the sample web's one 503 with Retry-After (10 s), so the
// whole sample gets crawled, but nothing longer.
const demoMaxWait = 30 * time.Second

type demoFlags struct {
	addr    string
	data    string
	noServe bool
	verbose bool
	maxWait time.Duration
}

func newDemoCommand() *cobra.Command {
	var f demoFlags
	cmd := &cobra.Command{
		Use:   "demo [--addr 127.0.0.1:8080]",
		Short: "Crawl the bundled sample web on loopback, then serve its search page",
		Long: `Start the bundled sample web (five small sites on 127.0.0.1 with robots.txt rules, noindex
and nofollow pages, sitemaps, a 503 with Retry-After and a hostile page), crawl it with the real
crawler exactly as it would crawl the web, print the summary, and serve search over it.

The crawl goes to a temporary directory (removed on exit) unless --data names one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd, f) },
	}
	cmd.Flags().StringVar(&f.addr, "addr", defaultServeAddr, "address to serve the search page on")
	cmd.Flags().StringVar(&f.data, "data", "", "keep the crawl in DIR (default: a temporary directory)")
	cmd.Flags().BoolVar(&f.noServe, "no-serve", false, "stop after the crawl and the sample searches")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "log every request")
	cmd.Flags().DurationVar(&f.maxWait, "max-wait", demoMaxWait, "longest wait for a paused site before ending the crawl")
	return cmd
}

func runDemo(cmd *cobra.Command, f demoFlags) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	out := cmd.OutOrStdout()

	web, err := testweb.Start(testweb.Sample(), testweb.Options{})
	if err != nil {
		return fmt.Errorf("demo: start the sample web: %w", err)
	}
	defer web.Close()
	// A busy or bad --addr fails now, not after the crawl.
	var ln net.Listener
	if !f.noServe {
		if ln, err = listen(ctx, f.addr, out); err != nil {
			return err
		}
		defer ln.Close()
	}
	fmt.Fprintf(out, "Sample web: %d sites on 127.0.0.1 (%s)\n", len(web.Keys()), web.URL("bakery", "/"))

	data := f.data
	if data == "" {
		dir, err := os.MkdirTemp("", "mandelbot-demo-")
		if err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		defer os.RemoveAll(dir)
		data = dir
	}
	st, err := sqlite.Open(ctx, filepath.Join(data, "crawl.db"), sqlite.Options{})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	defer st.Close()

	fmt.Fprintf(out, "Crawling it politely (robots.txt first, one request at a time per site)...\n\n")
	progress := newProgress(cmd.ErrOrStderr(), f.verbose)
	stats, err := crawl.Run(crawlctx.WithStore(ctx, st), crawl.Config{
		Seeds: web.Seeds(), Resolve: web.Resolve(), RootCAs: web.RootCAs(),
		MaxWait: f.maxWait, Concurrency: 8, Agent: defaultAgent, Delay: crawl.NoDelay,
		Log: progress.logger(), OnProgress: progress.update, ProgressEvery: progressEvery,
	})
	progress.close()
	if err != nil {
		return fmt.Errorf("demo: crawl: %w", err)
	}
	counts, err := st.Counts(ctx, time.Now())
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	location := "sqlite:" + filepath.Join(data, "crawl.db")
	if f.data == "" {
		location = "" // a temporary directory, removed on exit: no export command to suggest
	}
	writeSummary(out, stats, stopLine(stats, runLimits{maxWait: f.maxWait}, err), counts, location, "--data "+shellQuote(f.data))
	demoSearches(ctx, out, st)
	if f.noServe {
		return nil
	}
	return serveOn(ctx, ln, site{store: st, agent: defaultAgent}, out)
}

// demoSearches shows, on the terminal, what the crawl made findable.
func demoSearches(ctx context.Context, w io.Writer, st index.Searcher) {
	for _, q := range []string{"sourdough", "roster", "old catalogue"} {
		fmt.Fprintf(w, "\n$ mandelbot search %s\n", q)
		page, err := st.Search(ctx, index.Query{Text: q, Limit: 3, Now: time.Now()})
		if err != nil {
			fmt.Fprintf(w, "search: %v\n", err)
			continue
		}
		writeSearchText(w, page, false)
	}
}
