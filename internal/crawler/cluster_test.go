package crawler

import (
	"testing"
	"time"
)

// Issue 31: a worker whose origins are handed back acquires again at once only when its last
// acquire found the batch full (due origins may have been left behind); when that acquire found
// nothing more to take, the next one waits for the poll (at the end of a crawl an acquire after
// every release, each a look at every origin of the store, held the releases up).
func TestIssue31ReleaseAcquiresAgainOnlyAfterAFullBatch(t *testing.T) {
	k := newLeaseKeeper(sharedStore(t, 1), "a", keeperTTL, 2)
	c := newCluster(k, time.Minute)
	if !c.acquire(t0) {
		t.Fatal("no first acquire")
	}
	c.acquired(loadResp{req: loadReq{acquire: true}}, t0) // nothing found, room left
	c.released()
	if c.acquire(t0) {
		t.Error("acquired again at once after a release, though the last acquire left room")
	}
	later := t0.Add(maxClusterPoll)
	if !c.acquire(later) {
		t.Fatal("no acquire at the next poll")
	}
	k.Granted("http://x.test", later)
	k.Granted("http://y.test", later)
	c.acquired(loadResp{req: loadReq{acquire: true}}, later) // the batch full
	k.Lost([]string{"http://x.test"})
	c.released()
	if !c.acquire(later) {
		t.Error("no acquire at once after a release from a full batch")
	}
}
