package frontier

import (
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/pace"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

// never is a ready time that no clock reaches: the origin waits for an outcome, not for time.
var never = time.Unix(1<<62, 0)

// origin is the in-memory state of one origin. Its fields are owned by the Frontier.
type origin struct {
	key   string
	host  string
	delay time.Duration // the configured delay, the gap's floor (applyCrawlDelay)
	// delayWhy names where delay comes from; gap is the adaptive part (issue 29, pace.go).
	delayWhy string
	gap      pace.Gap
	// savedGap is the gap in the last record handed out to be written (record, GapMoved).
	savedGap time.Duration

	loaded    bool
	loading   bool
	refilling bool
	hasMore   bool // the store may hold due URLs that are not in queue
	// deferred holds, earliest first, when the retries written to the store (Retry) fall due:
	// once one has come, the store holds a due URL again (wakeDeferred).
	deferred []time.Time

	robots     *robots.State
	robotsBusy bool

	queue []store.URL
	head  int
	// strBytes is the length of the strings of the URLs in queue[head:] (urlBytes), charged to
	// the Frontier's share with the queue's capacity (memory.go).
	strBytes int64
	// known holds the ID of every URL of the origin this process knows (store.IDOf): those the
	// store had when the origin was loaded, and those discovered since. Before the load it
	// holds only the discovered ones. Once partial, it is a cache of some of them: the rest did
	// not fit in the Frontier's share (issue 29), and only the store knows every URL.
	known   map[int64]struct{}
	partial bool
	// chargedQueue and chargedKnown are what the queue and the known set were last charged
	// (Frontier.recharge). starved: the origin waits for room in the share to refill.
	chargedQueue, chargedKnown int64
	starved                    bool
	reserved                   int64 // room set aside for a load or refill in progress (reserve)
	meanStr                    int64 // the mean length of the strings of its URLs seen lately (observe)

	// took holds the IDs of the URLs handed out whose request took a page of the origin's
	// budget and is not answered yet, so that a request given back returns exactly what it took.
	took map[int64]struct{}

	// inflight counts requests on the wire (handed out, not yet Answered); processing counts
	// answers Answered whose record is not reported yet (Processed).
	inflight, processing int
	// resumed: an answer Answered since the last Processed ended a pause; the next Processed
	// reports it, for the record to be persisted.
	resumed bool
	// overflow counts discovered URLs that did not fit the window and are not durable yet: the
	// queue is refilled from the store only once they are (OverflowPersisted).
	overflow int
	// overflowedInRefill: a URL overflowed while a refill was being read (see Refilled).
	overflowedInRefill bool
	// writes and durable count the origin's writes issued (Done, RobotsDone, StepSkip) and
	// reported Persisted; writes are persisted in the order issued, so writes-durable of them
	// are not durable yet (unsaved). gate is the number of the
	// last write that carried a robots.txt decision or a pause: nothing is requested until it is
	// durable (the decision must survive a crash before the gate acts on it).
	writes, durable, gate int

	notBefore    time.Time // politeness: no request starts before this
	pausedUntil  time.Time
	pauseStrikes int
	pauseReason  string
	probing      bool
	// probeInFlight marks the one request sent while probing: only its answer may end the
	// probing, not the answer to a request that was already in flight when the pause began.
	probeInFlight bool
	sitemaps      []string

	// away: the process lost the origin's lease (Frontier.Away); nothing more is requested, and
	// the origin is forgotten once nothing of it is outstanding.
	away bool

	readyAt time.Time
	index   int // in the heap
}

// outstanding reports whether the caller still owes the Frontier a report about the origin: a
// load, refill, request, record of an answered request or robots.txt fetch, or a write not
// durable yet.
func (o *origin) outstanding() bool {
	return o.loading || o.refilling || o.robotsBusy || o.inflight > 0 || o.processing > 0 || o.unsaved() > 0 || o.overflow > 0
}

// idle reports whether the origin has nothing left to do in this run: loaded, nothing queued in
// memory or in the store, nothing outstanding.
func (o *origin) idle() bool {
	return o.loaded && o.queued() == 0 && !o.hasMore && !o.outstanding()
}

func (o *origin) queued() int { return len(o.queue) - o.head }

// unsaved is how many of the origin's outcomes were handed back to the caller and not yet
// reported Persisted.
func (o *origin) unsaved() int { return o.writes - o.durable }

// canRefill reports whether the queue may be refilled from the store now: the store may hold
// more, and every outcome (of requests in flight and of answers being processed) and overflowed
// URL of the origin is durable, so that the store's answer misses nothing and repeats nothing in
// flight.
func (o *origin) canRefill() bool {
	return o.hasMore && !o.refillBlocked()
}

// refillBlocked reports whether an outcome or overflowed URL of the origin is not durable yet,
// so that the store's answer to a refill could miss or repeat something.
func (o *origin) refillBlocked() bool {
	return o.inflight != 0 || o.processing != 0 || o.unsaved() != 0 || o.overflow != 0
}

// pop takes the first queued URL. An emptied queue lets go of its array: an origin with nothing
// queued holds none of the Frontier's share.
func (o *origin) pop() store.URL {
	u := o.queue[o.head]
	o.queue[o.head] = store.URL{}
	o.head++
	o.strBytes -= urlBytes(&u)
	if o.head == len(o.queue) {
		o.queue, o.head = nil, 0
	}
	return u
}

func (o *origin) pushFront(u store.URL) {
	o.strBytes += urlBytes(&u)
	if o.head > 0 {
		o.head--
		o.queue[o.head] = u
		return
	}
	o.queue = append([]store.URL{u}, o.queue...)
}

// record is the persistent form of the origin's state, with its current gap and why (issue
// 29). The record is handed out to be written: its gap counts as saved (gapMoved).
func (o *origin) record() store.Origin {
	gap, why := o.gapNow()
	o.savedGap = gap
	return store.Origin{
		Key: o.key, Robots: o.robots.Record(),
		PausedUntil: o.pausedUntil, PauseStrikes: o.pauseStrikes, PauseReason: o.pauseReason,
		Probing: o.probing, Sitemaps: o.sitemaps, Gap: gap, GapReason: why,
	}
}

// capacity is how many requests may be in flight: one while probing after a pause (rule 23).
func (o *origin) capacity(perOrigin int) int {
	if o.probing {
		return 1
	}
	return perOrigin
}

// computeReady returns when the origin next has something to do at or after now, or never.
// With releaseIdle, an idle origin is ready (to be released) once its delay has passed.
func (o *origin) computeReady(now time.Time, perOrigin int, releaseIdle bool) time.Time {
	switch {
	case o.away:
		return never
	case releaseIdle && o.idle():
		return latest(o.notBefore, now)
	case !o.loaded:
		return never // loaded from toLoad (loads.go), then ready
	case o.robotsBusy || o.refilling || o.durable < o.gate:
		return never
	}
	if o.queued() == 0 {
		if o.starved {
			return never // until the share has room (Frontier.wake)
		}
		if o.canRefill() {
			return now // StepRefill
		}
		if at, ok := o.nextDeferred(); ok && !o.refillBlocked() {
			return latest(at, now) // StepRefill once a retry is due
		}
		return never
	}
	if _, _, ok := o.disallowedHead(now); ok {
		return latest(o.pausedUntil, now) // StepSkip: no request, so no gap (issue 31)
	}
	gate := latest(o.pausedUntil, o.notBefore)
	if o.robots.Usable(now) {
		if o.inflight < o.capacity(perOrigin) {
			return latest(gate, now)
		}
		// At capacity: only a robots.txt revalidation could be next.
		if due := o.robots.NextDue(); !due.IsZero() {
			return latest(gate, due)
		}
		return never
	}
	// No usable decision: the next thing is fetching robots.txt, when it is due.
	return latest(gate, o.robots.NextDue(), now)
}

// disallowedHead reports whether the head of the queue is a URL the usable robots.txt
// decision disallows, with the decision's verdict and reason: it is recorded (StepSkip) without
// a request, so neither the origin's gap nor its requests in flight hold it back (issue 31: a
// disallowed URL last in its queue held the crawl's end back by a gap). A decision due for
// revalidation decides nothing: the URL waits for the new one (rule 22).
func (o *origin) disallowedHead(now time.Time) (robotstxt.Verdict, string, bool) {
	if o.queued() == 0 || !o.robots.Usable(now) {
		return robotstxt.Verdict{}, "", false
	}
	if due, _ := o.robots.Due(now); due {
		return robotstxt.Verdict{}, "", false
	}
	allowed, verdict, reason := o.robots.Test(pathAndQuery(o.queue[o.head].URL))
	return verdict, reason, !allowed
}

func latest(ts ...time.Time) time.Time {
	var m time.Time
	for _, t := range ts {
		if t.After(m) {
			m = t
		}
	}
	return m
}

// hostOf returns the host name of an origin key "scheme://host[:port]" ("[::1]" stays bracketed).
func hostOf(key string) string {
	if i := strings.Index(key, "://"); i >= 0 {
		key = key[i+3:]
	}
	if strings.HasPrefix(key, "[") {
		if j := strings.IndexByte(key, ']'); j >= 0 {
			return key[:j+1]
		}
	}
	if j := strings.LastIndexByte(key, ':'); j >= 0 {
		return key[:j]
	}
	return key
}

// pathAndQuery returns the request target of a canonical absolute URL (docs/robots-rules.md
// rule 12): everything from the first '/' after the authority, without a fragment.
func pathAndQuery(u string) string {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	j := strings.IndexAny(rest, "/?#")
	if j < 0 {
		return "/"
	}
	rest = rest[j:]
	if k := strings.IndexByte(rest, '#'); k >= 0 {
		rest = rest[:k]
	}
	if rest == "" || rest[0] != '/' {
		rest = "/" + rest
	}
	return rest
}
