package crawl

import (
	"reflect"
	"testing"
	"time"

	"github.com/fractle/mandelbot/internal/crawler"
	"github.com/fractle/mandelbot/internal/frontier"
	"github.com/fractle/mandelbot/internal/robots"
)

// Issue 28 item 4: Stats is declared here, not aliased; statsOf must carry every figure of the
// crawler's Stats (a field added there and forgotten here fails), and typed values keep their
// meaning.
func TestStatsCarriesEveryCrawlerFieldIssue28(t *testing.T) {
	var raw crawler.Stats
	rv := reflect.ValueOf(&raw).Elem()
	for i := range rv.NumField() {
		f := rv.Field(i)
		switch f.Kind() {
		case reflect.Int:
			f.SetInt(int64(100 + i))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.String:
			f.SetString(rv.Type().Field(i).Name)
		case reflect.Uint8:
			f.SetUint(uint64(crawler.StopWaiting))
		case reflect.Struct: // time.Time, or frontier.MemoryUse
			if f.Type() == reflect.TypeFor[frontier.MemoryUse]() {
				f.Set(reflect.ValueOf(frontier.MemoryUse{Max: 1, Used: 2, Queues: 3, Known: 4, Peak: 5, Partial: 6, Starved: 7}))
				continue
			}
			f.Set(reflect.ValueOf(time.Unix(int64(1000+i), 0)))
		case reflect.Array:
			for k := range f.Len() {
				f.Index(k).SetInt(int64(10 * k))
			}
		case reflect.Slice: // Gaps
			f.Set(reflect.ValueOf([]crawler.OriginGap{{Origin: "http://a.test:80", Gap: 3 * time.Second, Reason: "slow answers"}}))
		default:
			t.Fatalf("crawler.Stats.%s: kind %s not covered by this test", rv.Type().Field(i).Name, f.Kind())
		}
	}
	pub := reflect.ValueOf(statsOf(raw))
	for i := range rv.NumField() {
		name := rv.Type().Field(i).Name
		got := pub.FieldByName(name)
		if !got.IsValid() {
			t.Errorf("crawl.Stats has no %s", name)
			continue
		}
		switch name {
		case "StopReason":
			if got.Interface() != StopWaiting {
				t.Errorf("StopReason = %v, want waiting", got.Interface())
			}
		case "RobotsOutcomes":
			want := [NumRobotsOutcomes]int{RobotsRules: 10, RobotsAllowAll: 20, RobotsUnreachable: 30, RobotsNotModified: 40}
			if got.Interface() != want {
				t.Errorf("RobotsOutcomes = %v, want %v", got.Interface(), want)
			}
		case "Frontier":
			if want := (FrontierMemory{Max: 1, Used: 2, Queues: 3, Known: 4, Peak: 5, Partial: 6, Starved: 7}); got.Interface() != want {
				t.Errorf("Frontier = %+v, want %+v", got.Interface(), want)
			}
		case "Gaps":
			want := []OriginGap{{Origin: "http://a.test:80", Gap: 3 * time.Second, Reason: "slow answers"}}
			if !reflect.DeepEqual(got.Interface(), want) {
				t.Errorf("Gaps = %v, want %v", got.Interface(), want)
			}
		default:
			if !reflect.DeepEqual(got.Interface(), rv.Field(i).Interface()) {
				t.Errorf("%s = %v, want %v", name, got.Interface(), rv.Field(i).Interface())
			}
		}
	}
}

// Every robots.txt decision kind has its RobotsOutcome, named as the metrics label always was,
// and every stop reason of the crawler its StopReason.
func TestTypedOutcomesAndStopReasonsIssue28(t *testing.T) {
	seen := map[RobotsOutcome]bool{}
	for _, k := range []robots.Kind{robots.KindRules, robots.KindAllowAll, robots.KindUnreachable, robots.KindNotModified} {
		o, ok := robotsOutcomeOf(k)
		if !ok || seen[o] || o.String() != k.String() {
			t.Errorf("robots kind %s -> %v (%t), want a distinct outcome named alike", k, o, ok)
		}
		seen[o] = true
	}
	stops := map[StopReason]bool{}
	for r := crawler.StopFinished; r <= crawler.StopFailed; r++ {
		s := stopReasonOf(r)
		if s == StopNone || stops[s] {
			t.Errorf("crawler stop %v -> %v: want a distinct reason", r, s)
		}
		stops[s] = true
	}
}
