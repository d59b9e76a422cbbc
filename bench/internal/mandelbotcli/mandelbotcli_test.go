package mandelbotcli

import "testing"

// The summary `mandelbot crawl` prints (cmd/mandelbot/summary.go).
func TestSummaryLines(t *testing.T) {
	out := "Crawl ended: nothing left to crawl\n\n" +
		"This run     pages answered            20100  (422.9/s over 47.5s)\n" +
		"             robots.txt requests       100\n"
	stop, pages := SummaryLines(out)
	if stop != FinishedReason || pages != "20100 (422.9/s over 47.5s)" {
		t.Errorf("SummaryLines = %q, %q", stop, pages)
	}
	if stop, pages := SummaryLines("panic: boom\n"); stop != "" || pages != "" {
		t.Errorf("SummaryLines of no summary = %q, %q, want empty", stop, pages)
	}
}
