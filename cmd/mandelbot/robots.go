package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/tester"
	"github.com/fractle/mandelbot/robotstxt"
)

// defaultAgent is the product token the crawler answers to in robots.txt and robot tags; the
// crawl package holds the default (issue 27: defaults live in one place).
const defaultAgent = crawl.DefaultAgent

// maxURLLineBytes bounds one line of a --urls file.
const maxURLLineBytes = 64 << 10

func newRobotsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "robots",
		Short: "Work with robots.txt files",
	}
	cmd.AddCommand(newRobotsTestCommand())
	return cmd
}

type robotsTestFlags struct {
	agent   string
	explain bool
	json    bool
	urls    string
}

func newRobotsTestCommand() *cobra.Command {
	var f robotsTestFlags
	cmd := &cobra.Command{
		Use:   "test [--agent NAME] [--explain] [--json] [--urls FILE] ROBOTS URL...",
		Short: "Check URLs against a robots.txt exactly as the crawler would",
		Long: `Check URLs against a robots.txt exactly as the crawler would.

ROBOTS is a file path, - for standard input, or an http(s) URL of a robots.txt (a site's bare
address means its /robots.txt), fetched with the crawler's own status rules (2xx parsed, 3xx followed up to 5 hops, 4xx allows everything, 5xx,
429 and network errors make the origin unreachable). Each URL is an absolute http(s) URL or a path
starting with /.

Prints one line per URL, in order: ALLOWED<TAB>URL or DISALLOWED<TAB>URL; --explain adds the
deciding line and rule, and writes the group chosen and the ignored lines to standard error.
Exit status: 0 all allowed, 1 any disallowed, 2 usage or read error.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRobotsTest(cmd, f, args[0], args[1:])
		},
	}
	cmd.Flags().StringVar(&f.agent, "agent", defaultAgent, "product token to match User-agent lines against")
	cmd.Flags().BoolVar(&f.explain, "explain", false, "say why: deciding line and rule, group chosen, ignored lines")
	cmd.Flags().BoolVar(&f.json, "json", false, "print one JSON document with every verdict and its explanation")
	cmd.Flags().StringVar(&f.urls, "urls", "", "read more URLs from FILE, one per line (- for standard input)")
	return cmd
}

func runRobotsTest(cmd *cobra.Command, f robotsTestFlags, source string, urls []string) error {
	if agent, _, _ := strings.Cut(f.agent, "/"); !robotstxt.IsAgentToken(agent) {
		return usageErrorf("%s (a /version is ignored)", agentFlagHelp)
	}
	if f.urls != "" {
		more, err := readURLList(cmd, f.urls, source)
		if err != nil {
			return &exitError{code: exitUsage, err: err}
		}
		urls = append(urls, more...)
	}
	if len(urls) == 0 {
		return usageErrorf("no URL to test: give URLs after ROBOTS or --urls FILE")
	}
	dec, err := loadRobots(cmd, source)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	rep, err := tester.Check(dec, source, f.agent, urls)
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	out := cmd.OutOrStdout()
	if (dec.Truncated || dec.Robots.Truncated()) && !f.explain && !f.json {
		// --explain's summary and --json say it too; without them the verdicts alone would hide
		// that rules past the cut were not read (issue 10).
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s is longer than %d KiB: only its first %d KiB were read, as a crawler reads it; rules after the cut do not count\n",
			source, robotstxt.DefaultMaxBytes>>10, robotstxt.DefaultMaxBytes>>10)
	}
	switch {
	case f.json:
		err = rep.WriteJSON(out)
	default:
		if f.explain {
			if err := rep.WriteSummary(cmd.ErrOrStderr()); err != nil {
				return &exitError{code: exitUsage, err: err}
			}
		}
		err = rep.WriteVerdicts(out, f.explain)
	}
	if err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	if rep.AnyDisallowed() {
		return &exitError{code: exitFailure}
	}
	return nil
}

// loadRobots reads ROBOTS: a file, standard input, or an http(s) URL fetched with the crawler's
// status semantics (docs/robots-rules.md rule 21). A file or standard input is read only up to the
// parse limit (plus one byte, so the parser sees that it was cut).
func loadRobots(cmd *cobra.Command, source string) (robots.Decision, error) {
	if strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://") {
		return fetchRobots(cmd.Context(), source)
	}
	var r io.Reader
	if source == "-" {
		r = cmd.InOrStdin()
	} else {
		file, err := os.Open(source)
		if err != nil {
			return robots.Decision{}, fmt.Errorf("read robots.txt: %w", err)
		}
		defer file.Close()
		if st, err := file.Stat(); err == nil && st.IsDir() {
			return robots.Decision{}, fmt.Errorf("read robots.txt: %s is a directory", source)
		}
		r = file
	}
	body, err := io.ReadAll(io.LimitReader(r, robotstxt.DefaultMaxBytes+1))
	if err != nil {
		return robots.Decision{}, fmt.Errorf("read robots.txt %s: %w", source, err)
	}
	return robots.Decision{
		Kind: robots.KindRules, URL: "", Final: source, MaxAge: -1,
		Robots: robotstxt.Parse(body), Truncated: len(body) > robotstxt.DefaultMaxBytes,
	}, nil
}

// fetchRobots fetches the robots.txt at source with the tester's one code path (tester.Fetch),
// which the web tester shares. The operator named this URL, so it may be on loopback or a
// private network, unlike links found in pages.
func fetchRobots(ctx context.Context, source string) (robots.Decision, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	robotsURL, err := tester.RobotsURL(source)
	if err != nil {
		return robots.Decision{}, fmt.Errorf("fetch robots.txt: %w", err)
	}
	return tester.Fetch(ctx, robotsURL, tester.FetchOptions{AllowPrivate: true, UserAgent: testerUserAgent()})
}

// readURLList reads one URL per line, skipping blank lines and lines starting with '#'.
func readURLList(cmd *cobra.Command, path, robotsSource string) ([]string, error) {
	var r io.Reader
	if path == "-" {
		if robotsSource == "-" {
			return nil, errors.New("ROBOTS and --urls cannot both be standard input")
		}
		r = cmd.InOrStdin()
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read --urls: %w", err)
		}
		defer file.Close()
		r = file
	}
	var urls []string
	br := bufio.NewReaderSize(r, maxURLLineBytes)
	for lineNo := 1; ; lineNo++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("read --urls %s: line %d is longer than %d bytes", path, lineNo, maxURLLineBytes)
		}
		if s := strings.Trim(string(line), " \t\r\n"); s != "" && !strings.HasPrefix(s, "#") {
			urls = append(urls, s)
		}
		if err == io.EOF {
			return urls, nil
		}
		if err != nil {
			return nil, fmt.Errorf("read --urls %s: %w", path, err)
		}
	}
}
