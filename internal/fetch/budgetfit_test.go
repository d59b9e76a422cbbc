package fetch

import (
	"testing"
)

// issue 29 ("one memory budget": the body buffers' share of --memory): the decoded body limit
// fitted to a budget keeps the largest request within it, New accepts it, and a budget that
// holds the defaults keeps them.
func TestMaxDecodedForFitsTheBudget(t *testing.T) {
	for _, size := range []int64{22 << 20, 44 << 20, 64 << 20, 88 << 20, 112 << 20} {
		d := MaxDecodedFor(size)
		if d <= 0 || d > DefaultMaxDecodedBytes {
			t.Fatalf("MaxDecodedFor(%d MiB) = %d", size>>20, d)
		}
		if need := largestCharge(limits{decoded: d}, false, 0); need > size {
			t.Errorf("MaxDecodedFor(%d MiB) = %d: its largest request takes %d, over the budget", size>>20, d, need)
		}
		if d < DefaultMaxDecodedBytes && largestCharge(limits{decoded: d + 1024}, false, 0) <= size {
			t.Errorf("MaxDecodedFor(%d MiB) = %d leaves room for a larger limit", size>>20, d)
		}
		c, err := New(Options{MaxBufferedBytes: size, MaxDecodedBytes: d})
		if err != nil {
			t.Errorf("New with %d MiB and the fitted limit %d: %v", size>>20, d, err)
			continue
		}
		c.Close()
	}
	if d := MaxDecodedFor(112 << 20); d != DefaultMaxDecodedBytes {
		t.Errorf("MaxDecodedFor(112 MiB) = %d, want the default", d)
	}
	if d := MaxDecodedFor(8 << 20); d != 0 {
		t.Errorf("MaxDecodedFor(8 MiB) = %d, want 0: not even the decoder's window fits", d)
	}
}
