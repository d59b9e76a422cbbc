package host

import "testing"

func TestParseLoadAvg(t *testing.T) {
	if got := parseLoadAvg("1.74 2.29 4.61 2/167 1237\n"); got != "1.74 2.29 4.61" {
		t.Errorf("parseLoadAvg = %q", got)
	}
	for _, bad := range []string{"1.74\n", ""} {
		if got := parseLoadAvg(bad); got != "unavailable" {
			t.Errorf("parseLoadAvg(%q) = %q", bad, got)
		}
	}
}
