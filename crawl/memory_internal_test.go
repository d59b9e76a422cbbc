package crawl

import (
	"errors"
	"testing"

	"github.com/fractle/mandelbot/internal/budget"
	"github.com/fractle/mandelbot/internal/fetch"
)

// issue 29 ("one memory budget"; in-flight work bounded by the budget too): Config.Memory sizes
// the fetch client's body budget and its body limits, the idle pool, and caps the concurrency;
// a budget under MinMemory is refused, naming Memory.
func TestMemoryBudgetSizesTheConsumers(t *testing.T) {
	seeds := []string{"https://example.com/"}
	for _, tc := range []struct {
		memory                 int64
		concurrency, wantConc  int
		wantBodies, wantDecode int64
	}{
		{0, 0, min(DefaultConcurrency, 512), 64 << 20, fetch.MaxDecodedFor(64 << 20)},
		{0, 1000, 512, 64 << 20, fetch.MaxDecodedFor(64 << 20)},
		{1 << 30, 1000, 1000, 304 << 20, fetch.DefaultMaxDecodedBytes},  // a Go limit of 760 MiB
		{128 << 20, 1000, 192, 24 << 20, fetch.MaxDecodedFor(24 << 20)}, // issue 29: FixedReserve comes off the Go limit
		{MinMemory, 1000, 192, 24 << 20, fetch.MaxDecodedFor(24 << 20)},
	} {
		p, err := Config{Seeds: seeds, Memory: tc.memory, Concurrency: tc.concurrency}.plan()
		if err != nil {
			t.Fatal(err)
		}
		if tc.wantConc = min(tc.wantConc, MaxConcurrency()); p.crawl.Concurrency != tc.wantConc { // and the open-file limit's
			t.Errorf("Memory %d MiB, Concurrency %d: %d in flight, want %d", tc.memory>>20, tc.concurrency, p.crawl.Concurrency, tc.wantConc)
		}
		if got := p.fetch.Budget.Size(); got != tc.wantBodies {
			t.Errorf("Memory %d MiB: body budget %d, want %d", tc.memory>>20, got, tc.wantBodies)
		}
		if p.fetch.MaxDecodedBytes != tc.wantDecode || tc.wantDecode <= 0 {
			t.Errorf("Memory %d MiB: decoded limit %d, want %d", tc.memory>>20, p.fetch.MaxDecodedBytes, tc.wantDecode)
		}
		if c, err := fetch.New(p.fetch); err != nil {
			t.Errorf("Memory %d MiB: the client refuses the options: %v", tc.memory>>20, err)
		} else {
			c.Close()
		}
		if p.fetch.MaxIdleConns <= 0 || int64(p.fetch.MaxIdleConns)*budget.IdleConnBytes > p.memory.Of(budget.Connections) {
			t.Errorf("Memory %d MiB: %d idle connections, beyond the connections' share", tc.memory>>20, p.fetch.MaxIdleConns)
		}
	}
	for _, m := range []int64{MinMemory - 1, 96 << 20, -1} {
		err := Config{Seeds: seeds, Memory: m}.Check()
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Field != "Memory" {
			t.Errorf("Memory %d: %v, want a ConfigError naming Memory", m, err)
		}
	}
	if s, _ := (Config{}).MemoryShares(); s.GoLimit != 160<<20 || s.Total != DefaultMemory {
		t.Errorf("default shares %+v, want a 160 MiB Go limit of 256 MiB", s)
	}
}

// issue 29 ("WARC capture copies" among the consumers): a crawl that archives charges each
// request's wire copy to the bodies' share, so its body limits leave room for it, and the client
// accepts them, down to MinMemory; a crawl that does not archives keeps the limits above.
func TestMemoryBudgetMakesRoomForTheWARCCopy(t *testing.T) {
	for _, m := range []int64{0, 128 << 20, MinMemory} {
		p, err := Config{Seeds: []string{"https://example.com/"}, Memory: m, WARCDir: t.TempDir()}.plan()
		if err != nil {
			t.Fatalf("Memory %d MiB with WARCDir: %v", m>>20, err)
		}
		raw, decoded := fetch.LimitsFor(p.fetch.Budget.Size(), true)
		if !p.fetch.Capture || p.fetch.MaxRawBytes != raw || p.fetch.MaxDecodedBytes != decoded || decoded <= 0 {
			t.Errorf("Memory %d MiB with WARCDir: capture %v, limits %d/%d, want the capture's %d/%d", m>>20,
				p.fetch.Capture, p.fetch.MaxRawBytes, p.fetch.MaxDecodedBytes, raw, decoded)
		}
		if c, err := fetch.New(p.fetch); err != nil {
			t.Errorf("Memory %d MiB with WARCDir: the client refuses the options: %v", m>>20, err)
		} else {
			c.Close()
		}
	}
}
