package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The worst case: many wildcard rules that almost match a long path. A
// matcher that backtracks over '*' takes time exponential in the number of
// stars here; a linear one takes about path length x pattern length.
const (
	// worstRules is the number of Disallow rules in the worst-case file.
	worstRules = 200
	// worstStars is the number of "*a" segments before the final "*b".
	worstStars = 20
	// worstPathLen is the length of the matched path: "/" then 'a's.
	worstPathLen = 16 << 10
	// worstTarget is how long a library is timed on the worst case when
	// each call is fast enough; the reported figure is the mean of the
	// last (largest) batch of calls.
	worstTarget = 2 * time.Second
)

// worstBody returns a robots.txt with one "User-agent: *" group of
// worstRules rules "/*a*a...*a*bN": worstStars "*a" segments, then "*b"
// and the rule number N, so that no two rules are identical.
func worstBody() []byte {
	var b bytes.Buffer
	b.WriteString("User-agent: *\n")
	stars := strings.Repeat("*a", worstStars)
	for i := range worstRules {
		fmt.Fprintf(&b, "Disallow: /%s*b%d\n", stars, i)
	}
	return b.Bytes()
}

// worstPath returns "/" followed by 'a's, worstPathLen bytes in all.
func worstPath() string { return "/" + strings.Repeat("a", worstPathLen-1) }

// worstHost is the host of the worst-case URL for libraries that take
// whole URLs; nothing is ever fetched from it.
const worstHost = "https://example.com"

// worstResult is one library's worst-case figure.
type worstResult struct {
	calls   int           // calls in the batch the figure comes from
	perCall time.Duration // mean time per call in that batch
	cpuCall time.Duration // mean process CPU time per call; 0 when unknown
	allowed bool
	capped  bool // the child was stopped at the cap
	err     error
}

// runWorstChild is the body of the child process that times one library
// on the worst case. It writes one line per completed batch to w:
// "batch CALLS NANOSECONDS CPU-NANOSECONDS ALLOWED" (CPU -1 when the
// system does not say). Batches double in size until the
// calls made take worstTarget in all.
func runWorstChild(w io.Writer, name string) error {
	p, ok := peerByName(name)
	if !ok {
		return fmt.Errorf("worst case: unknown library %q", name)
	}
	path := worstPath()
	decide := p.worst(worstBody(), path, worstHost+path)
	var total time.Duration
	for n := 1; total < worstTarget; n *= 2 {
		allowed := false
		cpu0, cpuOK := processCPU()
		start := time.Now()
		for range n {
			allowed = decide()
		}
		d := time.Since(start)
		cpu1, _ := processCPU()
		total += d
		cpu := int64(-1)
		if cpuOK {
			cpu = (cpu1 - cpu0).Nanoseconds()
		}
		if _, err := fmt.Fprintf(w, "batch %d %d %d %t\n", n, d.Nanoseconds(), cpu, allowed); err != nil {
			return fmt.Errorf("worst case: report batch: %w", err)
		}
	}
	return nil
}

// runWorst times library name on the worst case in a child process (this
// same program, with -worst-child), so that a library that does not finish
// can be stopped at limit without leaving a goroutine burning a CPU under
// the next measurement.
func runWorst(name string, limit time.Duration) worstResult {
	exe, err := os.Executable()
	if err != nil {
		return worstResult{err: fmt.Errorf("worst case %s: find own executable: %w", name, err)}
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-worst-child", name)
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second
	runErr := cmd.Run()

	var r worstResult
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 5 || f[0] != "batch" {
			continue
		}
		n, err1 := strconv.Atoi(f[1])
		ns, err2 := strconv.ParseInt(f[2], 10, 64)
		cpu, err3 := strconv.ParseInt(f[3], 10, 64)
		allowed, err4 := strconv.ParseBool(f[4])
		if err := errors.Join(err1, err2, err3, err4); err != nil || n <= 0 {
			return worstResult{err: fmt.Errorf("worst case %s: bad report %q: %w", name, sc.Text(), err)}
		}
		r.calls, r.perCall, r.cpuCall, r.allowed = n, time.Duration(ns/int64(n)), time.Duration(max(cpu, 0)/int64(n)), allowed
	}
	switch {
	case ctx.Err() != nil:
		r.capped = true
	case runErr != nil:
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		r.err = fmt.Errorf("worst case %s: child: %w: %s", name, runErr, first)
	}
	return r
}
