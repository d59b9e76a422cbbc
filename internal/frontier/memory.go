package frontier

import (
	"slices"
	"time"
	"unsafe"

	"github.com/fractle/mandelbot/internal/store"
)

// What the Frontier charges to its share (Options.MaxBytes, the memory budget's frontier share,
// issue 29): each origin's queue, at its capacity, with the strings of the URLs in it, and each
// ID of its known set.
const (
	// QueuedURLBytes is one slot of a queue: a store.URL record. The strings it points to are
	// charged on top, at their length.
	QueuedURLBytes = int64(unsafe.Sizeof(store.URL{}))
	// KnownIDBytes is one ID of an origin's known set: a Go map of int64 keys measured 25 bytes
	// per entry at 200 entries (issue 29); the rest is for the map's growth.
	KnownIDBytes = 32
	// RefillURLBytes is the least a URL not read yet is counted at when sizing a load, a refill
	// or an origin's window: its record and 256 bytes of strings (its URL, origin key, reason,
	// validators), or more when the URLs discovered are longer on average (urlEstimate). Every
	// URL is charged at its length once it is in a queue.
	RefillURLBytes = QueuedURLBytes + 256
	// wakeFraction: an origin that waits for room to refill (starved) is woken once 1/wakeFraction
	// of the share is free, or when no queue holds anything, so that it refills more than a URL
	// or two at a time.
	wakeFraction = 8
)

// MemoryUse is what the Frontier charges to its share now, and the most it charged at once.
type MemoryUse struct {
	Max    int64 // Options.MaxBytes (0: no bound)
	Used   int64 // queues and known sets together
	Queues int64 // queues: their capacity in records, and the strings of the URLs in them
	Known  int64 // known sets: KnownIDBytes per ID
	Peak   int64 // the most Used since New
	// Partial counts the origins whose known set is a cache, not every URL the store has of them
	// (it did not fit): their new URLs go through the store, which de-duplicates them, and come
	// back by refills.
	Partial int
	// Starved counts the origins waiting for room in the share to refill their queue.
	Starved int
}

// Memory reports what the Frontier charges to its share.
func (f *Frontier) Memory() MemoryUse {
	m := MemoryUse{Max: f.opts.MaxBytes, Used: f.queueBytes + f.knownBytes, Queues: f.queueBytes,
		Known: f.knownBytes, Peak: f.peak}
	for _, o := range f.origins {
		if o.partial {
			m.Partial++
		}
		if o.starved {
			m.Starved++
		}
	}
	return m
}

// urlEstimate is what a URL of o not read yet is counted at: RefillURLBytes, or its record and
// the mean length of the strings of o's URLs seen lately, when longer.
func (o *origin) urlEstimate() int64 {
	return max(RefillURLBytes, QueuedURLBytes+o.meanStr)
}

// observe folds the strings of u, a URL of o just discovered or read, into o's mean (a moving
// average over about the last 4; the first URL sets it).
func (o *origin) observe(u *store.URL) {
	if o.meanStr == 0 {
		o.meanStr = urlBytes(u)
		return
	}
	o.meanStr += (urlBytes(u) - o.meanStr) / 4
}

// urlBytes is what u costs in a queue beyond its slot: its strings.
func urlBytes(u *store.URL) int64 {
	return int64(len(u.URL) + len(u.Origin) + len(u.Reason) + len(u.ContentType) + len(u.Location) +
		len(u.Canonical) + len(u.ETag) + len(u.LastModified) + len(u.WARC.File) + len(u.WARC.RecordID))
}

// enqueue appends us to o's queue, within a window of w URLs. When the array is full, the queue
// first moves to the front of it if popped slots are free at its head; otherwise it moves to a
// larger array (growth), so that the queue's capacity, which is charged, stays within the window
// (or what is queued, when more than the window was handed over at once).
func (o *origin) enqueue(w int, us ...store.URL) {
	if o.head > 0 && len(o.queue)+len(us) > cap(o.queue) {
		n := copy(o.queue, o.queue[o.head:])
		clear(o.queue[n:])
		o.queue, o.head = o.queue[:n], 0
	}
	if c := o.growth(len(us), w); c > 0 {
		grown := make([]store.URL, len(o.queue)-o.head, cap(o.queue)+c)
		copy(grown, o.queue[o.head:])
		o.queue, o.head = grown, 0
	}
	o.queue = append(o.queue, us...)
	for i := range us {
		o.strBytes += urlBytes(&us[i])
	}
}

// growth is how many slots enqueue would add to o's array to queue n more URLs within a window
// of w: none while they fit (after moving to the front), else double the queue, but no more than
// the window, and no less than what is needed.
func (o *origin) growth(n, w int) int {
	queued := o.queued()
	if queued+n <= cap(o.queue) {
		return 0
	}
	want := max(queued+n, min(2*cap(o.queue), w))
	return want - cap(o.queue)
}

// recountQueue recomputes o.strBytes after o's queue was rewritten in place.
func (o *origin) recountQueue() {
	o.strBytes = 0
	for i := o.head; i < len(o.queue); i++ {
		o.strBytes += urlBytes(&o.queue[i])
	}
}

// queueCost and knownCost are what o's queue and known set are charged.
func (o *origin) queueCost() int64 { return int64(cap(o.queue))*QueuedURLBytes + o.strBytes }
func (o *origin) knownCost() int64 { return int64(len(o.known)) * KnownIDBytes }

// recharge brings the Frontier's totals up to date with o's queue and known set. Every change to
// them is followed by a recharge (fix calls it).
func (f *Frontier) recharge(o *origin) {
	q, k := o.queueCost(), o.knownCost()
	f.queueBytes += q - o.chargedQueue
	f.knownBytes += k - o.chargedKnown
	o.chargedQueue, o.chargedKnown = q, k
	f.peak = max(f.peak, f.queueBytes+f.knownBytes)
}

// discharge takes o's charges off the totals, when o is forgotten.
func (f *Frontier) discharge(o *origin) {
	f.unreserve(o)
	f.queueBytes -= o.chargedQueue
	f.knownBytes -= o.chargedKnown
	o.chargedQueue, o.chargedKnown = 0, 0
}

// room is how many bytes of the share are free (no bound: as many as an int64 holds).
func (f *Frontier) room() int64 {
	if f.opts.MaxBytes <= 0 {
		return 1<<63 - 1
	}
	return f.opts.MaxBytes - f.queueBytes - f.knownBytes - f.reserved
}

// reserve sets room aside for the limit URLs a load or refill of o will hand over, so that what
// is discovered meanwhile does not take it; Loaded and Refilled give it back (unreserve) as they
// charge what came.
func (f *Frontier) reserve(o *origin, limit int) {
	if f.opts.MaxBytes > 0 {
		o.reserved = int64(limit) * o.urlEstimate()
		f.reserved += o.reserved
	}
}

func (f *Frontier) unreserve(o *origin) {
	f.reserved -= o.reserved
	o.reserved = 0
}

// admit reports whether n more IDs fit in o's known set. When they do not, o's known set no
// longer holds every URL of the origin: o becomes partial (for the rest of the run).
func (f *Frontier) admit(o *origin, n int) bool {
	if int64(n)*KnownIDBytes <= f.room() {
		return true
	}
	o.partial = true
	return false
}

// window is how many due URLs o may hold in memory: Options.Window, and with a share, no more
// than an even part of it per origin known (at least one).
func (f *Frontier) window() int {
	w := f.opts.Window
	if f.opts.MaxBytes > 0 {
		fair := f.opts.MaxBytes / int64(max(len(f.origins), 1)) / RefillURLBytes
		w = min(w, int(max(fair, 1)))
	}
	return w
}

// fill is how many due URLs a load or refill of o may read now: its window, no more
// than the free part of the share holds. With too little room, the known sets give theirs back
// first (reclaim). A refill that still finds no room waits (ok false) while other queues hold
// URLs that will drain; with nothing queued anywhere it reads one URL at least, so the crawl
// goes on however small the share.
func (f *Frontier) fill(o *origin) (limit int, ok bool) {
	limit = f.window()
	if f.opts.MaxBytes <= 0 {
		return limit, true
	}
	each := o.urlEstimate()
	if f.room() < int64(limit)*each {
		f.reclaim(int64(limit) * each)
	}
	limit = min(limit, int(max(f.room(), 0)/each))
	if limit >= 1 {
		return limit, true
	}
	if f.queueBytes > 0 {
		return 0, false
	}
	return 1, true
}

// reclaim empties known sets, the largest first, until need bytes and an eighth of the share
// are free or no known set holds anything. An origin whose known set is emptied becomes partial:
// its set is a cache from then on.
func (f *Frontier) reclaim(need int64) {
	target := need + f.opts.MaxBytes/wakeFraction
	if f.room() >= target || f.knownBytes == 0 {
		return
	}
	holders := make([]*origin, 0, len(f.origins))
	for _, o := range f.origins {
		if len(o.known) > 0 {
			holders = append(holders, o)
		}
	}
	slices.SortFunc(holders, func(a, b *origin) int { return len(b.known) - len(a.known) })
	for _, o := range holders {
		if f.room() >= target {
			return
		}
		o.known = make(map[int64]struct{})
		o.partial = true
		f.recharge(o)
	}
}

// starve makes o wait for room in the share before it refills (fill said no).
func (f *Frontier) starve(o *origin) {
	o.starved = true
	f.starved = append(f.starved, o)
}

// wake readies the origins waiting for room once an eighth of the share is free, or no queue
// holds anything (fill then reads at least one URL).
func (f *Frontier) wake(now time.Time) {
	if len(f.starved) == 0 || (f.room() < f.opts.MaxBytes/wakeFraction && f.queueBytes > 0) {
		return
	}
	starved := f.starved
	f.starved = nil
	for _, o := range starved {
		o.starved = false
		f.fix(o, now)
	}
}
