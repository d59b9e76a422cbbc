package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fractle/mandelbot/bench/internal/pindial"
)

// The ceiling: a child process that does nothing but GET a list of URLs with net/http at a
// given concurrency, reading every body, so the crawler's requests per second can be set
// against what the same machine, web and Go HTTP stack allow.

// loopUserAgent is the User-Agent of the ceiling's requests.
const loopUserAgent = "crawlbench-loop"

// loopTimeout bounds one request of the loop; the fake web answers in microseconds.
const loopTimeout = 30 * time.Second

// loopReport is what the loop child prints to stdout, one JSON object.
type loopReport struct {
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`    // requests without an answer
	NonOK    int     `json:"non_ok"`    // answers other than 200
	Bytes    int64   `json:"bytes"`     // body bytes read
	Conns    int     `json:"conns"`     // connections dialled
	Seconds  float64 `json:"seconds"`   // from the first request to the last answer, inside the child
	FirstErr string  `json:"first_err"` // the first error, if any
}

// runLoop is the child's main: it reads the URLs of urlFile (one a line), GETs them with
// concurrency workers, which take the URLs in file order, and writes a loopReport to out.
// resolves are "host:port:addr" entries; a URL whose host and port is not among them is
// refused, so the loop can only reach the fake web.
func runLoop(urlFile string, concurrency int, resolves []string, out io.Writer) error {
	urls, err := readLines(urlFile)
	if err != nil {
		return err
	}
	pins, err := pindial.New(resolves)
	if err != nil {
		return err
	}
	var dials atomic.Int64
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			dials.Add(1)
			return pins.DialContext(ctx, network, address)
		},
		MaxIdleConns:        0, // no limit over all hosts
		MaxIdleConnsPerHost: concurrency,
		IdleConnTimeout:     time.Minute,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: loopTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	var (
		next                    atomic.Int64
		mu                      sync.Mutex
		rep                     = loopReport{Requests: len(urls)}
		wg                      sync.WaitGroup
		start                   = time.Now()
		errCount, nonOK, nbytes atomic.Int64
	)
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(urls) {
					return
				}
				status, n, err := get(client, urls[i])
				nbytes.Add(n)
				switch {
				case err != nil:
					errCount.Add(1)
					mu.Lock()
					if rep.FirstErr == "" {
						rep.FirstErr = err.Error()
					}
					mu.Unlock()
				case status != http.StatusOK:
					nonOK.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	rep.Seconds = time.Since(start).Seconds()
	rep.Errors, rep.NonOK, rep.Bytes = int(errCount.Load()), int(nonOK.Load()), nbytes.Load()
	rep.Conns = int(dials.Load())
	if err := json.NewEncoder(out).Encode(rep); err != nil {
		return fmt.Errorf("loop: write report: %w", err)
	}
	return nil
}

// get requests url and reads the whole body; it returns the status and the body bytes read.
func get(client *http.Client, url string) (int, int64, error) {
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, url, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("loop: get %s: %w", url, err)
	}
	req.Header.Set("User-Agent", loopUserAgent)
	resp, err := client.Do(req)
	if err != nil {
		return 0, 0, fmt.Errorf("loop: get %s: %w", url, err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return resp.StatusCode, n, fmt.Errorf("loop: read %s: %w", url, err)
	}
	return resp.StatusCode, n, nil
}

// readLines returns the non-empty lines of a file.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("loop: read URLs: %w", err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimRight(sc.Text(), "\r"); line != "" {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("loop: read URLs %s: %w", path, err)
	}
	return out, nil
}

// writeLines writes lines to a new file at path, one a line.
func writeLines(path string, lines []string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write URL list: %w", err)
	}
	return nil
}
