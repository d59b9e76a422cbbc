package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
)

// benchReused times the query set on the database at cfg.reuse, which an earlier run with the
// same -docs, -pages and -seed built and kept (-db): the generated web is walked again, in the
// build's order but without a store, only to count its words, so the query set is the one that
// run timed. Nothing is written to the database.
func benchReused(ctx context.Context, cfg config, origins int, out io.Writer) error {
	if _, err := os.Stat(cfg.reuse); err != nil {
		return fmt.Errorf("-reuse: %w", err)
	}
	st, err := sqlite.Open(ctx, cfg.reuse, sqlite.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("-reuse: %w", err)
	}
	defer st.Close()
	var df docFreq
	m := measurement{origins: origins, peakRSS: -1, refreshCPU: -1, refreshServerCPU: -1}
	kept := false
	if cfg.words != "" {
		if kept, err = loadWords(cfg.words, &df); err != nil {
			return err
		}
	}
	if !kept {
		w := newWeb(origins, cfg.pages, cfg.seed)
		if _, err := build(ctx, &urlSet{}, w, cfg.batch, time.Now().UTC().Truncate(time.Second), func(d store.Document) { df.add(d.Title, d.Text) }); err != nil {
			return err
		}
		if cfg.words != "" {
			if err := saveWords(cfg.words, &df); err != nil {
				return err
			}
		}
	}
	qs, classes, err := querySet(&df, cfg.queries, cfg.seed)
	if err != nil {
		return err
	}
	qs, m.classes = onlyClasses(qs, classes, cfg.class)
	m.bands[0], m.bands[1], m.bands[2], _ = df.bands()
	profile, closeProfile, err := createNamed("-cpuprofile", cfg.cpuProfile)
	if err != nil {
		return err
	}
	defer closeProfile()
	answers, closeAnswers, err := createNamed("-results", cfg.results)
	if err != nil {
		return err
	}
	defer closeAnswers()
	if m.samples, err = timeQueries(ctx, st, qs, cfg.repeat, cfg.limit, profile, answers); err != nil {
		return err
	}
	fmt.Fprintf(out, "load average at end: %s\n", host.LoadAverage())
	fmt.Fprintf(out, "database reused: %s (built by an earlier run, not rebuilt)\n\n", cfg.reuse)
	if cfg.dbstat {
		st.Close() // dbstat reads the files on connections of its own
		ts, err := storeBytes(ctx, cfg.reuse)
		if err != nil {
			return err
		}
		if err := reportBytes(out, ts, origins*cfg.pages); err != nil {
			return err
		}
		fmt.Fprintln(out)
	}
	return reportQueries(out, m)
}

// urlSet stands in for the store in benchReused's walk of the web: a commit adds the URLs it
// has not seen, as Store.Commit does, and stores nothing else.
type urlSet struct{ seen map[string]bool }

// Commit implements committer.
func (u *urlSet) Commit(_ context.Context, b store.Batch) ([]store.URL, error) {
	if u.seen == nil {
		u.seen = map[string]bool{}
	}
	var added []store.URL
	for _, n := range b.New {
		if u.seen[n.URL] {
			continue
		}
		u.seen[n.URL] = true
		added = append(added, store.URL{ID: store.IDOf(n.URL), URL: n.URL, Origin: n.Origin, Kind: n.Kind,
			Depth: n.Depth, State: n.State})
	}
	return added, nil
}

// createNamed creates the file a flag names, or returns a nil Writer when the flag is empty;
// the caller calls done when it has written it.
func createNamed(flag, name string) (w io.Writer, done func(), err error) {
	if name == "" {
		return nil, func() {}, nil
	}
	f, err := os.Create(name)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", flag, err)
	}
	return f, func() { f.Close() }, nil
}
