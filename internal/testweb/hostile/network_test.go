package hostile_test

import (
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// issue 9 ("failures that end"): a body that stalls after the header fails with ErrBodyStalled
// after the idle timeout, long before the total timeout; it is a timeout, never a complete body.
func TestStallIsANetworkError(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{BodyIdleTimeout: 300 * time.Millisecond, TotalTimeout: 30 * time.Second})
	h := sampleHeap(t)
	resp, err := get(t, c, base+hostile.PathStall)
	if !errors.Is(err, fetch.ErrBodyStalled) || fetch.Classify(err) != fetch.KindTimeout {
		t.Fatalf("err %v (%v), want ErrBodyStalled, a timeout", err, fetch.Classify(err))
	}
	if resp == nil || resp.Status != 200 || len(resp.Body) != 1<<10 {
		t.Errorf("want the 200 and the 1 KiB that came with the error, got %+v", resp)
	}
	resp.Release()
	h.check(t, 8*MiB, 5*time.Second)
}

// A body that drips a byte at a time never trips the idle timeout; the total timeout ends it.
func TestDripEndsAtTheTotalTimeout(t *testing.T) {
	base := start(t, hostile.Options{DripEvery: 10 * time.Millisecond})
	c := client(t, fetch.Options{BodyIdleTimeout: 300 * time.Millisecond, TotalTimeout: time.Second})
	h := sampleHeap(t)
	resp, err := get(t, c, base+hostile.PathDrip)
	if !errors.Is(err, fetch.ErrTotalTimeout) || errors.Is(err, fetch.ErrBodyStalled) {
		t.Fatalf("err %v, want the total timeout", err)
	}
	if resp == nil || len(resp.Body) == 0 {
		t.Error("the dripped bytes are not in the response")
	}
	h.check(t, 8*MiB, 3*time.Second)
}

// A server that never answers ends at the response header timeout, without a response.
func TestHangEndsAtTheHeaderTimeout(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{ResponseHeaderTimeout: 300 * time.Millisecond})
	h := sampleHeap(t)
	resp, err := get(t, c, base+hostile.PathHang)
	if resp != nil || fetch.Classify(err) != fetch.KindTimeout {
		t.Fatalf("resp %v, err %v; want no response and a timeout", resp, err)
	}
	h.check(t, 8*MiB, 3*time.Second)
}

// A connection reset mid-body is a reset error with the partial response; one reset before the
// answer is a reset error without one.
func TestResets(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	resp, err := get(t, c, base+hostile.PathBreak)
	if fetch.Classify(err) != fetch.KindReset || resp == nil || resp.Status != 200 {
		t.Errorf("break: resp %v, err %v (%v); want the 200 and a reset", resp, err, fetch.Classify(err))
	}
	resp.Release()
	resp, err = get(t, c, base+hostile.PathReset)
	if resp != nil || fetch.Classify(err) != fetch.KindReset {
		t.Errorf("reset: resp %v, err %v (%v); want no response and a reset", resp, err, fetch.Classify(err))
	}
}

// Bogus status lines and headers are errors without a response, at once.
func TestBogusResponses(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	h := sampleHeap(t)
	for i, raw := range hostile.BogusResponses {
		resp, err := get(t, c, base+hostile.PathBogusPrefix+strconv.Itoa(i))
		if err == nil || resp != nil {
			t.Errorf("%q: resp %v, err %v; want an error and no response", raw, resp, err)
		}
	}
	h.check(t, 8*MiB, 5*time.Second)
}

// A header over fetch's 1 MiB limit is an error; ten thousand small header fields are not.
func TestHugeAndManyHeaders(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	h := sampleHeap(t)
	if resp, err := get(t, c, base+hostile.PathHugeHeader); err == nil || resp != nil {
		t.Errorf("huge header: resp %v, err %v; want an error", resp, err)
	}
	resp, err := get(t, c, base+hostile.PathManyHeaders)
	if err != nil || len(resp.Header) < hostile.ManyHeaders {
		t.Fatalf("many headers: err %v", err)
	}
	resp.Release()
	h.check(t, 32*MiB, 5*time.Second)
}

// fetch follows no redirect: each hop of a loop or a 50-hop chain is a 3xx whose Location is
// resolved, for the crawler to send through its frontier (and its hop limit).
func TestRedirectLoopsAndChains(t *testing.T) {
	base := start(t, hostile.Options{})
	c := client(t, fetch.Options{})
	at := base + hostile.PathLoopA
	for range 10 {
		resp, err := get(t, c, at)
		if err != nil || resp.Status != http.StatusFound {
			t.Fatalf("%s: %v %v", at, resp, err)
		}
		at = resp.Location
	}
	if at != base+hostile.PathLoopA {
		t.Errorf("after 10 hops at %s, want back at the start of the loop", at)
	}
	at = base + hostile.PathChain
	hops := 0
	for ; hops <= hostile.ChainHops; hops++ {
		resp, err := get(t, c, at)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Status == 200 {
			break
		}
		at = resp.Location
	}
	if hops != hostile.ChainHops {
		t.Errorf("chain of %d hops, want %d", hops, hostile.ChainHops)
	}
}

// A redirect to a non-http scheme is a Location fetch refuses as an invalid URL; a redirect to a
// private address is refused by the dialer (the origin itself is pinned, as --resolve does).
func TestRedirectsToOtherSchemesAndPrivateAddresses(t *testing.T) {
	base := start(t, hostile.Options{})
	u := mustParse(t, base)
	c, err := fetch.New(fetch.Options{Resolve: map[string]string{"hostile.test:" + u.Port(): "127.0.0.1"},
		ConnectTimeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	origin := "http://hostile.test:" + u.Port()
	for _, s := range hostile.Schemes {
		resp, err := get(t, c, origin+hostile.PathSchemePrefix+s)
		if err != nil || resp.Status != http.StatusFound {
			t.Fatalf("%s: %v %v", s, resp, err)
		}
		if _, err := get(t, c, resp.Location); !errors.Is(err, fetch.ErrInvalidURL) {
			t.Errorf("%s: Location %q: err %v, want ErrInvalidURL", s, resp.Location, err)
		}
	}
	for i, target := range hostile.PrivateTargets {
		resp, err := get(t, c, origin+hostile.PathPrivatePrefix+strconv.Itoa(i))
		if err != nil || resp.Location == "" {
			t.Fatalf("%s: %v %v", target, resp, err)
		}
		if _, err := get(t, c, resp.Location); fetch.Classify(err) != fetch.KindPrivateAddress {
			t.Errorf("%s: err %v (%v), want the private address refused", resp.Location, err, fetch.Classify(err))
		}
	}
}
