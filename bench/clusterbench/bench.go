package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fractle/mandelbot/bench/internal/host"
	"github.com/fractle/mandelbot/bench/internal/mandelbotcli"
	"github.com/fractle/mandelbot/bench/internal/pgschema"
	"github.com/fractle/mandelbot/internal/testweb"
)

func bench(ctx context.Context, cfg config, out io.Writer) error {
	tmp, err := os.MkdirTemp("", "clusterbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin, err := mandelbotcli.BuiltOr(ctx, cfg.bin, cfg.src, tmp)
	if err != nil {
		return err
	}
	var cnt counter
	web, err := testweb.Start(testweb.Generate(testweb.GenOptions{Origins: cfg.origins, PagesPerOrigin: cfg.pages, LinksPerPage: 4, Seed: 1}),
		testweb.Options{MaxLog: -1, OnRequest: cnt.onRequest})
	if err != nil {
		return err
	}
	defer web.Close()
	batch := "default"
	if cfg.leaseBatch > 0 {
		batch = fmt.Sprint(cfg.leaseBatch)
	}
	fmt.Fprintf(out, "clusterbench: testweb.Generate %d origins x %d pages, --concurrency %d per process, --lease-batch %s, PostgreSQL %s, mandelbot %s\n",
		cfg.origins, cfg.pages, cfg.concurrency, batch, cfg.pg, bin)
	fmt.Fprintf(out, "load average at start: %s\n\n", host.LoadAverage())
	var sizes pgschema.Size
	for _, mode := range cfg.modes {
		delay := time.Duration(0)
		if mode == "delay" {
			delay = cfg.delay
		}
		rows := []result{{}} // rows[0] is SQLite's; workers 0: not run
		if cfg.sqlite {
			sqlite, err := crawl(ctx, bin, web, &cnt, 1, []string{"--data", filepath.Join(tmp, "sqlite-"+mode)}, delay, cfg.concurrency)
			if err != nil {
				return fmt.Errorf("%s, SQLite: %w", mode, err)
			}
			rows[0] = sqlite
		}
		for _, n := range cfg.workers {
			schema := fmt.Sprintf("clusterbench_%s_%d_%d", mode, n, os.Getpid())
			loc := withSchema(cfg.pg, schema)
			storeArgs := []string{"--store", loc}
			if cfg.leaseBatch > 0 {
				storeArgs = append(storeArgs, "--lease-batch", fmt.Sprint(cfg.leaseBatch))
			}
			r, err := crawl(ctx, bin, web, &cnt, n, storeArgs, delay, cfg.concurrency)
			if err == nil && n == cfg.workers[0] && sizes.Rows == nil {
				sizes, err = pgschema.Measure(ctx, cfg.pg, schema)
			}
			if cfg.keep {
				fmt.Fprintf(out, "kept schema %s\n", schema)
			} else if derr := pgschema.Drop(ctx, cfg.pg, schema); err == nil {
				err = derr
			}
			if err != nil {
				return fmt.Errorf("%s, %d PostgreSQL workers: %w", mode, n, err)
			}
			rows = append(rows, r)
		}
		report(out, mode, delay, rows)
	}
	if sizes.Rows != nil {
		reportSizes(out, sizes)
	}
	fmt.Fprintf(out, "load average at end: %s\n", host.LoadAverage())
	return nil
}

func report(out io.Writer, mode string, delay time.Duration, rows []result) {
	fmt.Fprintf(out, "%s-bound (--delay %s):\n\n", mode, delay)
	fmt.Fprintln(out, "| store | workers | pages | wall s | pages/s | vs 1 PG worker | vs SQLite | requests s | pages/s until the last request | crawl CPU µs/page | PG server CPU µs/page |")
	fmt.Fprintln(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	var one float64
	for _, r := range rows[1:] {
		if r.workers == 1 {
			one = r.pagesPerSec()
		}
	}
	for i, r := range rows {
		if i == 0 && r.workers == 0 {
			continue // -sqlite=false
		}
		name, vsOne, vsSQLite, server := "PostgreSQL", "-", "-", "-"
		if i == 0 {
			name = "SQLite"
		} else if one > 0 {
			vsOne = fmt.Sprintf("%.2fx", r.pagesPerSec()/one)
		}
		if rows[0].workers > 0 {
			vsSQLite = fmt.Sprintf("%.2fx", r.pagesPerSec()/rows[0].pagesPerSec())
		}
		if i > 0 && r.serverCPU >= 0 {
			server = fmt.Sprintf("%.0f", r.cpuPerPage(r.serverCPU))
		}
		fmt.Fprintf(out, "| %s | %d | %d | %.1f | %.0f | %s | %s | %.1f | %.0f | %.0f | %s |\n", name, r.workers, r.pages, r.wall.Seconds(),
			r.pagesPerSec(), vsOne, vsSQLite, r.requests.Seconds(), r.requestRate(), r.cpuPerPage(r.cpu), server)
	}
	fmt.Fprintln(out)
}

func reportSizes(out io.Writer, sz pgschema.Size) {
	urls := sz.Rows["urls"]
	if urls == 0 {
		return
	}
	names := make([]string, 0, len(sz.Rows))
	var total int64
	for t, n := range sz.Rows {
		names = append(names, fmt.Sprintf("%s %d", t, n))
		total += n
	}
	slices.Sort(names)
	fmt.Fprintf(out, "PostgreSQL after one worker's crawl: %d URLs, %d rows (%.1f per URL: %s), %.1f MB with indexes and TOAST (%.1f KB per URL)\n\n",
		urls, total, float64(total)/float64(urls), strings.Join(names, ", "), float64(sz.Bytes)/1e6, float64(sz.Bytes)/float64(urls)/1e3)
}
