package pause

import (
	"net/http"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// docs/robots-rules.md rule 23: Retry-After in seconds or as an HTTP date sets the pause.
func TestRule23_RetryAfterForms(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"120", 120 * time.Second, true},
		{" 0 ", 0, true},
		{now.Add(90 * time.Minute).Format(http.TimeFormat), 90 * time.Minute, true},
		{"Sun, 22 Nov 2026 12:30:00 GMT", 30 * time.Minute, true},
		{"Sunday, 22-Nov-26 13:00:00 GMT", time.Hour, true},    // RFC 850 form
		{"Sun Nov 22 12:00:10 2026", 10 * time.Second, true},   // asctime form
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true}, // a date in the past: retry now, never negative
		{"", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999999", time.Duration(maxRetryAfterSeconds) * time.Second, true},
	}
	for _, tt := range tests {
		got, ok := RetryAfter(tt.value, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("RetryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

// docs/robots-rules.md rule 23: without Retry-After, exponential backoff from 1 minute, capped.
func TestRule23_BackoffDoublesAndIsCapped(t *testing.T) {
	var p Policy
	want := []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute}
	for i, w := range want {
		if got := p.Duration(i+1, 0, false); got != w {
			t.Errorf("strike %d: %v, want %v", i+1, got, w)
		}
	}
	if got := p.Duration(1000, 0, false); got != DefaultMax {
		t.Errorf("strike 1000: %v, want the cap %v", got, DefaultMax)
	}
	small := Policy{FirstBackoff: time.Second, Max: 5 * time.Second}
	if got := small.Duration(10, 0, false); got != 5*time.Second {
		t.Errorf("custom cap: %v", got)
	}
}

// docs/robots-rules.md rule 23: Retry-After sets the pause, capped (default 24 h).
func TestRule23_RetryAfterWinsAndIsCapped(t *testing.T) {
	var p Policy
	if got := p.Duration(3, 30*time.Second, true); got != 30*time.Second {
		t.Errorf("Retry-After 30s on strike 3: %v", got)
	}
	if got := p.Duration(1, 72*time.Hour, true); got != DefaultMax {
		t.Errorf("Retry-After 72h: %v, want cap %v", got, DefaultMax)
	}
}
