package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/internal/index"
)

func newSearchCommand() *cobra.Command {
	var f storeFlags
	var asJSON bool
	var limit, offset int
	cmd := &cobra.Command{
		Use:   "search [--json] [--limit N] QUERY",
		Short: "Search what the crawl indexed, including link-only entries",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give the words to search for, e.g. mandelbot search 'robots.txt rules' (see 'mandelbot search --help')")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 1 || limit > index.MaxLimit {
				return usageErrorf("--limit must be between 1 and %d", index.MaxLimit)
			}
			if offset < 0 || offset > index.MaxOffset {
				return usageErrorf("--offset must be between 0 and %d", index.MaxOffset)
			}
			st, err := f.open(cmd.Context(), false)
			if err != nil {
				return err
			}
			defer st.Close()
			page, err := st.Search(cmd.Context(), index.Query{Text: strings.Join(args, " "), Limit: limit, Offset: offset, Now: time.Now()})
			if errors.Is(err, index.ErrEmptyQuery) {
				return usageErrorf("%v", err)
			}
			if err != nil {
				return fmt.Errorf("search: %w", err)
			}
			if asJSON {
				return writeSearchJSON(cmd.OutOrStdout(), page)
			}
			return writeSearchText(cmd.OutOrStdout(), page, isTerminal(cmd.OutOrStdout()))
		},
	}
	f.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"results": [...]} with url, title, snippet, link_only, reason, why`)
	cmd.Flags().IntVar(&limit, "limit", index.DefaultLimit, "results per page")
	cmd.Flags().IntVar(&offset, "offset", 0, "skip this many results (paging)")
	return cmd
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}

func writeSearchJSON(w io.Writer, p index.Page) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(index.JSONOf(p)); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}

func writeSearchText(w io.Writer, p index.Page, color bool) error {
	var b strings.Builder
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "Note: %s.\n", n)
	}
	if p.Total == 0 {
		fmt.Fprintf(&b, "No results for %q.\n", p.Query)
	} else {
		atLeast := ""
		if p.TotalIsLowerBound {
			atLeast = "at least "
		}
		fmt.Fprintf(&b, "%s%d result(s) for %q, showing %d-%d:\n\n", atLeast, p.Total, p.Query, p.Offset+1, p.Offset+len(p.Results))
	}
	for i, r := range p.Results {
		title := r.Title
		if title == "" {
			title = r.URL
		}
		mark := ""
		if r.LinkOnly {
			mark = " [not crawled]"
		}
		fmt.Fprintf(&b, "%d. %s%s\n   %s\n", p.Offset+i+1, title, mark, r.URL)
		if len(r.Snippet) > 0 {
			b.WriteString("   ")
			for _, s := range r.Snippet {
				switch {
				case s.Match && color:
					b.WriteString("\x1b[1m" + s.Text + "\x1b[0m")
				case s.Match:
					b.WriteString("[" + s.Text + "]")
				default:
					b.WriteString(s.Text)
				}
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "   %s\n\n", r.Why)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("search: %w", err)
	}
	return nil
}
