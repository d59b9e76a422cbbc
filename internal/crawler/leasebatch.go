package crawler

import "time"

// The lease batch of a cluster worker (issue 31: "the default lease batch follows from the
// delay and the concurrency, not from a constant"). Each origin has a request out for about an
// answer time of every delay + answer time, so Concurrency requests in flight keep
// Concurrency × (delay + answer) / answer origins busy. Holding more would only keep them from
// the other workers; holding fewer leaves requests idle behind the delay, and a web of more
// origins than the batch is crawled in waves, each as long as an origin's crawl (5,000 origins
// of 20 pages at a 2 s delay, a batch of 4,096: a second wave of 904 origins, 46 s more).
const (
	// DefaultLeaseBatch bounds the batch a worker sizes for itself (Options.LeaseBatch 0, and
	// newLeaseKeeper's batch 0): 512 requests in flight at a 2 s delay and 65 ms answers. It
	// bounds the leases one statement renews and the origins the frontier holds.
	DefaultLeaseBatch = 16384
	// leaseAnswerTime is the answer time the batch is sized for until the crawl has met some: a
	// typical web page's.
	leaseAnswerTime = 250 * time.Millisecond
	// minLeaseAnswerTime bounds the answer time the batch is sized for from below: an origin
	// answering at once still keeps a request busy for the scheduler's turn.
	minLeaseAnswerTime = 10 * time.Millisecond
	// answerWeight is the weight of the newest answer time in their moving average, one in
	// answerWeight: about the last second's answers at the politeness limit of thousands of
	// origins set the batch (at 1 in 64, a worker at a load average of 20 saw its batch swing
	// between 1,536 and 5,632 within seconds).
	answerWeight = 1024
)

// defaultLeaseBatch is the origins concurrency requests in flight keep busy when each origin
// waits delay after an answer of about answer, at least concurrency and at most
// DefaultLeaseBatch.
func defaultLeaseBatch(concurrency int, delay, answer time.Duration) int {
	answer = max(answer, minLeaseAnswerTime)
	perRequest := int((max(delay, 0) + answer + answer - 1) / answer)
	return min(max(concurrency, 1)*perRequest, DefaultLeaseBatch)
}

// acquireStep bounds the origins one acquire adds to a worker's batch: what its requests can
// start at once. Workers that start together then take turns and share the web's origins (one
// acquire of the whole batch left the other workers of a cluster nothing), and one worker alone
// fills its batch in a few acquires.
func acquireStep(concurrency int) int { return max(concurrency, 1) }

// batchSizer follows the answer times a crawl meets (a moving average) and sizes the batch from
// them. Not safe for concurrent use (the lease keeper's lock guards it).
type batchSizer struct {
	concurrency int
	delay       time.Duration
	answer      time.Duration // the moving average; leaseAnswerTime before the first answer
}

func newBatchSizer(concurrency int, delay time.Duration) *batchSizer {
	return &batchSizer{concurrency: concurrency, delay: delay, answer: leaseAnswerTime}
}

func (b *batchSizer) answered(took time.Duration) {
	b.answer += (max(took, 0) - b.answer) / answerWeight
}

func (b *batchSizer) batch() int { return defaultLeaseBatch(b.concurrency, b.delay, b.answer) }
