package web

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// The crawl's memory metrics (crawl/metrics.go, issue 29) the dashboard shows: each consumer's
// share of --memory, and its use where it is known.
const (
	memoryShareMetric = "mandelbot_memory_share_bytes"
	memoryUsedMetric  = "mandelbot_memory_used_bytes"
)

// memoryRow is one consumer of the running crawl's memory budget, in MiB as text.
type memoryRow struct {
	Consumer, Share, Used string
	Over                  bool // the use is past the share (a soft limit overshot)
}

// liveMemory reads the memory budget's shares and uses from g (Options.Gatherer: the running
// crawl's registry), by consumer name; nil when g is nil or has none.
func liveMemory(g prometheus.Gatherer) []memoryRow {
	if g == nil {
		return nil
	}
	fams, _ := g.Gather() // what could be gathered: a partial answer still shows what it has
	share, used := map[string]float64{}, map[string]float64{}
	var order []string
	for _, f := range fams {
		var into map[string]float64
		isShare := f.GetName() == memoryShareMetric
		switch f.GetName() {
		case memoryShareMetric:
			into = share
		case memoryUsedMetric:
			into = used
		default:
			continue
		}
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "consumer" {
					if isShare {
						order = append(order, l.GetValue())
					}
					into[l.GetValue()] = m.GetGauge().GetValue()
				}
			}
		}
	}
	rows := make([]memoryRow, 0, len(order))
	for _, c := range order {
		row := memoryRow{Consumer: c, Share: mib(share[c]), Used: "—"}
		if u, ok := used[c]; ok {
			row.Used, row.Over = mib(u), u > share[c]
		}
		rows = append(rows, row)
	}
	return rows
}

func mib(b float64) string {
	return fmt.Sprintf("%.1f MiB", b/(1<<20))
}
