package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"

	"github.com/fractle/mandelbot/internal/index"
)

// crawlResult is what `mandelbot crawl` said about its run.
type crawlResult struct {
	StopReason  string // from "Crawl ended: ..."
	CrawlerSays string // the "pages answered" figures
	Stdout      string
}

var (
	stopLine  = regexp.MustCompile(`(?m)^Crawl ended: (.*)$`)
	pagesLine = regexp.MustCompile(`(?m)pages answered\s+(.*)$`)
)

// crawl runs `mandelbot crawl` on the site at http://host:port/, reached on 127.0.0.1
// through --resolve, with no delay between requests, into the data directory data.
func crawl(ctx context.Context, bin, data, host string, port, perOrigin int) (crawlResult, error) {
	hp := host + ":" + strconv.Itoa(port)
	cmd := exec.CommandContext(ctx, bin, "crawl", "--data", data, "--delay", "0",
		"--per-origin", strconv.Itoa(perOrigin), "--resolve", hp+":127.0.0.1", "http://"+hp+"/")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	r := crawlResult{Stdout: out.String()}
	if m := stopLine.FindStringSubmatch(r.Stdout); m != nil {
		r.StopReason = strings.TrimSpace(m[1])
	}
	if m := pagesLine.FindStringSubmatch(r.Stdout); m != nil {
		r.CrawlerSays = strings.Join(strings.Fields(m[1]), " ")
	}
	if err != nil {
		return r, fmt.Errorf("mandelbot crawl: %w\n%s", err, errOut.String())
	}
	return r, nil
}

// search runs `mandelbot search --json --limit cutoff QUERY` on the crawl in data, the query
// as one argument, exactly as a person's shell would pass a quoted query, and returns the
// parsed answer. Exit status 2 (a query with no word) is an answer with no results, reported
// in the error string of the outcome rather than as a failure of the run.
func search(ctx context.Context, bin, data, query string) (index.PageJSON, string, error) {
	cmd := exec.CommandContext(ctx, bin, "search", "--data", data, "--json", "--limit", strconv.Itoa(cutoff), "--", query)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		return index.PageJSON{}, strings.TrimSpace(errOut.String()), nil
	}
	if err != nil {
		return index.PageJSON{}, "", fmt.Errorf("mandelbot search %q: %w\n%s", query, err, errOut.String())
	}
	var p index.PageJSON
	if err := json.Unmarshal(out.Bytes(), &p); err != nil {
		return index.PageJSON{}, "", fmt.Errorf("mandelbot search %q: parse JSON: %w", query, err)
	}
	return p, "", nil
}
