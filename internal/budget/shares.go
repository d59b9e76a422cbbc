package budget

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Sizes of the whole memory budget of a crawl process (issue 29, `--memory`).
const (
	// DefaultMemory is the budget of a crawl given none: its peak RSS stays under it (issue 9's
	// promise, "peak RSS under 256 MiB by default whatever the web does").
	DefaultMemory = 256 << 20
	// FixedReserve is the part of the Reserve share that does not shrink with the budget: the
	// mapped binary (20.8 MiB resident in smaps at the peak of a crawl at 128 MiB) and SQLite's C
	// heap beyond the page caches (its statements, FTS5's pending terms, the allocator's kept
	// size classes: about 19 MiB at 1,000 origins, TestOutsideTheGoLimitFitsItsShares in crawl).
	// Until issue 29's 128 MiB runs the whole reserve was a quarter of the budget, which at 128
	// MiB left 32 MiB for these 40: the calendar crawl peaked 0.8 MiB over its bound.
	FixedReserve = 40 << 20
	// MinBodies is the least Bodies share a budget may leave: a brotli decoder's 16 MiB window
	// beside a 5 MiB body.
	MinBodies = 24 << 20
	// MinMemory is the smallest budget accepted, the smallest whose shares hold FixedReserve and
	// MinBodies (see Split): below it the fixed costs, the Go runtime and one request do not
	// fit beside each other.
	MinMemory = (MinBodies*10/bodiesOfGoHeap + FixedReserve) * 64 / goHeapAndFixed
)

// What one holder of the Connections share costs, for sizing the concurrency and the idle
// pool from the share: two thirds of it for requests in flight, a third for idle connections.
// (crawlbench, issue 29: 1,000 requests in flight instead of 16 cost 83 MiB more, about 86 KiB
// each with their idle connections.)
const (
	// RequestBytes is a request in flight beside its body: its worker's and the transport's
	// goroutines, the connection's read and write buffers, TLS records, the parsed URL and
	// header.
	RequestBytes = 64 << 10
	// IdleConnBytes is an idle keep-alive connection (its buffers and two goroutines: issue 8
	// measured about 35 KiB).
	IdleConnBytes = 36 << 10
)

// Consumer names a part of a crawl process that holds memory, with a share of the budget. The
// names are those /metrics and the dashboard show (label consumer).
type Consumer string

// The consumers of a crawl's memory. Shares says how much of the budget each gets, and how it
// keeps to it.
const (
	// GoHeap is the Go runtime's soft memory limit (runtime/debug.SetMemoryLimit): everything
	// the Go heap holds, so the consumers inside it (Bodies, Connections, Frontier) too. The
	// collector works harder as the heap nears it.
	GoHeap Consumer = "go_heap"
	// Bodies is the fetch client's budget: response bodies in flight or not yet released, their
	// decoders' windows, raw copies, and the wire copies a crawl that writes WARC files keeps of
	// each exchange until it is archived. A request past it waits (internal/fetch), and the body
	// limits are lowered so that the largest request, wire copy included, fits in it.
	Bodies Consumer = "bodies"
	// Connections covers the requests in flight beyond their bodies (goroutines, transport
	// buffers) and the idle keep-alive connections: the concurrency and the idle pool are sized
	// from it.
	Connections Consumer = "connections"
	// Frontier is the origins' windows of due URLs held in memory and their known sets (the
	// seen set): the frontier charges both to it and keeps under it (frontier.Options.MaxBytes).
	// A window shrinks to an even part of the share per origin, a URL that does not fit waits
	// in the store for a refill, a refill waits for room, and a known set that does not fit
	// becomes a cache in front of the store's de-duplication.
	Frontier Consumer = "frontier"
	// PageCaches is the SQLite page caches of every connection of the store, outside the Go
	// heap: each connection's cache_size is its part of this share.
	PageCaches Consumer = "page_caches"
	// Reserve is what the rest of the process holds outside the Go heap's limit: FixedReserve
	// for the mapped binary and SQLite's allocations beyond the page caches, which do not shrink
	// with the budget, and a part of the budget for the collector's overshoot of a soft limit on
	// a loaded machine.
	Reserve Consumer = "reserve"
)

// Consumers lists the consumers in the order they are shown.
var Consumers = []Consumer{GoHeap, Bodies, Connections, Frontier, PageCaches, Reserve}

// The division of a budget, in 64ths (one place for it: Split applies it). Of the whole,
// PageCaches gets pageCachesOf and Reserve FixedReserve plus reserveOf; GoHeap gets the rest, so
// that the three add up to the whole. Of GoHeap, Bodies, Connections and Frontier get their parts
// (tenths of GoHeap); what they leave (2/10 of it) is the heap of parsing, extraction, the
// indexer's batches and the writer.
//
// At 256 MiB: a Go limit of 160 MiB (192 until issue 29, when the page caches had no bound and
// the hostile web's crawl peaked at 243-259 MiB), 64 MiB of bodies (112 then: the largest
// request at the default body limits, 64.25 MiB, no longer fits, so the decoded limit is 31.8
// MiB), 48 MiB of connections (512 requests in flight, crawl.DefaultConcurrency, and 455 idle
// connections), 16 MiB of frontier, 32 MiB of page caches (54 then, with every reader open) and
// 64 MiB of reserve. At 128 MiB: a Go limit of 60 MiB (80 before FixedReserve), 24 MiB of
// bodies, 18 of connections (192 in flight), 6 of frontier, 16 of page caches, 52 of reserve.
const (
	pageCachesOf = 8
	reserveOf    = 6
	// goHeapAndFixed is the 64ths the Go limit and FixedReserve share.
	goHeapAndFixed = 64 - pageCachesOf - reserveOf

	// Of GoHeap, in tenths.
	bodiesOfGoHeap      = 4
	connectionsOfGoHeap = 3
	frontierOfGoHeap    = 1
)

// Shares is a memory budget divided among its consumers, in bytes. Make it with Split.
type Shares struct {
	Total int64
	bytes map[Consumer]int64
}

// Split divides total bytes among the consumers (0 means DefaultMemory). A total under
// MinMemory is an error naming the minimum.
func Split(total int64) (Shares, error) {
	if total == 0 {
		total = DefaultMemory
	}
	if total < MinMemory {
		return Shares{}, fmt.Errorf("%s is under the minimum memory budget of %s (a crawl process holds %s, its binary and SQLite's heap, whatever its budget, and needs %s of Go heap for one response body)",
			FormatSize(total), FormatSize(MinMemory), FormatSize(FixedReserve), FormatSize(MinBodies))
	}
	part := total / 64
	pageCaches, reserve := part*pageCachesOf, FixedReserve+part*reserveOf
	goHeap := total - pageCaches - reserve
	return Shares{Total: total, bytes: map[Consumer]int64{
		GoHeap:      goHeap,
		Bodies:      goHeap / 10 * bodiesOfGoHeap,
		Connections: goHeap / 10 * connectionsOfGoHeap,
		Frontier:    goHeap / 10 * frontierOfGoHeap,
		PageCaches:  pageCaches,
		Reserve:     reserve,
	}}, nil
}

// Of is consumer c's share in bytes (0 for an unknown consumer or the zero Shares).
func (s Shares) Of(c Consumer) int64 { return s.bytes[c] }

// MaxInFlight is the most requests the Connections share holds in flight at once (at least 1).
func (s Shares) MaxInFlight() int { return int(max(s.Of(Connections)*2/3/RequestBytes, 1)) }

// MaxIdleConns is the most idle keep-alive connections the Connections share holds (at least 1).
func (s Shares) MaxIdleConns() int { return int(max(s.Of(Connections)/3/IdleConnBytes, 1)) }

// ParseSize parses a size as an operator writes it: a number of bytes with an optional unit,
// binary (KiB, MiB, GiB) or short (K, M, G: also powers of 1024, as GOMEMLIMIT and most memory
// flags read them; B for bytes), case-insensitive, with optional space: "256MiB", "1GiB",
// "512M", "1073741824". Fractions, negative numbers and other units are errors.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := strings.IndexFunc(t, func(r rune) bool { return !unicode.IsDigit(r) })
	num, unit := t, ""
	if i >= 0 {
		num, unit = t[:i], strings.ToLower(strings.TrimSpace(t[i:]))
	}
	if num == "" {
		return 0, fmt.Errorf("%q is not a size: want a number of bytes with an optional unit, e.g. 256MiB, 1GiB or 512M", s)
	}
	var shift uint
	switch unit {
	case "", "b":
	case "k", "kb", "kib":
		shift = 10
	case "m", "mb", "mib":
		shift = 20
	case "g", "gb", "gib":
		shift = 30
	case "t", "tb", "tib":
		shift = 40
	default:
		return 0, fmt.Errorf("%q is not a size: unknown unit %q (want B, KiB, MiB, GiB or TiB; K, M, G, T)", s, t[i:])
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is not a size: the number is too large", s)
	}
	return n << shift, nil
}

// FormatSize writes n bytes in the largest binary unit that divides it ("256MiB"), or in bytes.
func FormatSize(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n != 0 && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}
