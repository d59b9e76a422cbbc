package web

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// issue 29 ("/metrics and the dashboard show each share's use"): under `crawl --serve`, the
// dashboard shows each consumer of the memory budget with its share, and its use where the crawl
// reports one; without a running crawl it shows no memory table.
func TestDashboardShowsTheMemoryShares(t *testing.T) {
	reg := prometheus.NewRegistry()
	share := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: memoryShareMetric, Help: "share"}, []string{"consumer"})
	share.WithLabelValues("bodies").Set(64 << 20)
	share.WithLabelValues("page_caches").Set(32 << 20)
	reg.MustRegister(share)
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: memoryUsedMetric, Help: "used",
		ConstLabels: prometheus.Labels{"consumer": "bodies"}}, func() float64 { return 3 << 19 }))
	srv := newSite(t, seedDashboard(t), func(o *Options) { o.Gatherer = reg })
	_, body := get(t, srv, "/dashboard")
	i := strings.Index(body, `<table id="memory">`)
	if i < 0 {
		t.Fatalf("the dashboard has no memory table:\n%s", body)
	}
	table := body[i:]
	table = table[:strings.Index(table, "</table>")]
	for _, want := range []string{
		`<td><code>bodies</code></td><td class="num">64.0 MiB</td><td class="num">1.5 MiB</td>`,
		`<td><code>page_caches</code></td><td class="num">32.0 MiB</td><td class="num">—</td>`,
	} {
		if !strings.Contains(table, want) {
			t.Errorf("memory table lacks %s:\n%s", want, table)
		}
	}
	if _, body := get(t, newSite(t, seedDashboard(t), nil), "/dashboard"); strings.Contains(body, `id="memory"`) {
		t.Error("a dashboard without a running crawl shows a memory table")
	}
}
