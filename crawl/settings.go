package crawl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/crawlctx"
	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/internal/store/sqlite"
	"github.com/fractle/mandelbot/urlnorm"
)

// settingsKey is the store.Settings key a crawl's saved settings live under.
const settingsKey = "crawl"

// Resume tells how a run's settings relate to those saved with its crawl (Config.OnResume).
type Resume struct {
	// Saved reports that the store held the settings of an earlier run (false: a new crawl, or
	// one saved before settings were kept).
	Saved bool
	// Kept lists the saved settings this run uses because its Config left them zero; Changed,
	// the settings its Config set to another value than the saved one (Was "": the default),
	// saved for the next run in their place. Both are in the order of the Config's fields.
	Kept, Changed []Setting
}

// Setting is one saved setting: its Config field, its value as text (regular expressions and
// Resolve entries joined with a space), and, in Resume.Changed, the value it replaced.
type Setting struct {
	Field, Value, Was string
}

// saved is what a crawl remembers of what it was told: the settings that decide what may be
// fetched. A zero field was never given: its default applies.
type saved struct {
	Scope             string   `json:"scope,omitempty"`
	Include           []string `json:"include,omitempty"`
	Exclude           []string `json:"exclude,omitempty"`
	AllowPrivate      bool     `json:"allow_private,omitempty"`
	Resolve           []string `json:"resolve,omitempty"`
	Agent             string   `json:"agent,omitempty"`
	MaxDepth          int      `json:"max_depth,omitempty"`
	MaxPages          int      `json:"max_pages,omitempty"`
	MaxPagesPerOrigin int      `json:"max_pages_per_origin,omitempty"`
}

func (c Config) settings() saved {
	return saved{
		Scope: c.Scope, Include: patternStrings(c.Include), Exclude: patternStrings(c.Exclude),
		AllowPrivate: c.AllowPrivate, Resolve: c.Resolve, Agent: c.Agent,
		MaxDepth: c.MaxDepth, MaxPages: c.MaxPages, MaxPagesPerOrigin: c.MaxPagesPerOrigin,
	}
}

func patternStrings(res []*regexp.Regexp) []string {
	if len(res) == 0 {
		return nil
	}
	out := make([]string, len(res))
	for i, re := range res {
		out[i] = re.String()
	}
	return out
}

// field is one saved setting as merge handles it: its value in the Config and in the saved
// settings as text ("" when zero), and how to take the saved value into the Config.
type field struct {
	name      string
	mine, was string
	takeSaved func(c *Config) error
}

// withSaved is c with every saved setting c leaves zero, and what that did.
func (c Config) withSaved(s saved, ok bool) (Config, Resume, error) {
	r := Resume{Saved: ok}
	if !ok {
		return c, r, nil
	}
	mine := c.settings()
	num := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	flag := func(b bool) string {
		if b {
			return "true"
		}
		return ""
	}
	list := func(l []string) string { return strings.Join(l, " ") }
	fields := []field{
		{"Scope", mine.Scope, s.Scope, func(c *Config) error { c.Scope = s.Scope; return nil }},
		{"Include", list(mine.Include), list(s.Include), func(c *Config) (err error) { c.Include, err = compileSaved(s.Include); return err }},
		{"Exclude", list(mine.Exclude), list(s.Exclude), func(c *Config) (err error) { c.Exclude, err = compileSaved(s.Exclude); return err }},
		{"AllowPrivate", flag(mine.AllowPrivate), flag(s.AllowPrivate), func(c *Config) error { c.AllowPrivate = true; return nil }},
		{"Resolve", list(mine.Resolve), list(s.Resolve), func(c *Config) error { c.Resolve = slices.Clone(s.Resolve); return nil }},
		{"Agent", mine.Agent, s.Agent, func(c *Config) error { c.Agent = s.Agent; return nil }},
		{"MaxDepth", num(mine.MaxDepth), num(s.MaxDepth), func(c *Config) error { c.MaxDepth = s.MaxDepth; return nil }},
		{"MaxPages", num(mine.MaxPages), num(s.MaxPages), func(c *Config) error { c.MaxPages = s.MaxPages; return nil }},
		{"MaxPagesPerOrigin", num(mine.MaxPagesPerOrigin), num(s.MaxPagesPerOrigin), func(c *Config) error { c.MaxPagesPerOrigin = s.MaxPagesPerOrigin; return nil }},
	}
	for _, f := range fields {
		switch {
		case f.mine == f.was:
		case f.mine == "":
			if err := f.takeSaved(&c); err != nil {
				return c, r, err
			}
			r.Kept = append(r.Kept, Setting{Field: f.name, Value: f.was})
		default:
			r.Changed = append(r.Changed, Setting{Field: f.name, Value: f.mine, Was: f.was})
		}
	}
	return c, r, nil
}

func compileSaved(patterns []string) ([]*regexp.Regexp, error) {
	out := make([]*regexp.Regexp, 0, len(patterns))
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, fmt.Errorf("crawl: a saved pattern %q does not compile: %w", p, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// WithSaved returns c with the settings saved with its crawl filling in the fields c leaves
// zero, and what that did; it refuses, with a *ConfigError naming the setting, a c that would
// strand URLs the crawl still has queued, and saves the merged settings for the next run. The
// crawl is the one Run would use (the store of ctx, or StorePath; with neither, a temporary
// store holds nothing saved). It sends no request. Run does the same itself (a second call
// changes nothing); a caller that needs the crawl's settings before Run calls it first (the
// mandelbot command's --serve site, whose robots.txt tester fetches as the crawl does).
func (c Config) WithSaved(ctx context.Context) (Config, Resume, error) {
	st := crawlctx.Store(ctx)
	if st == nil {
		if c.StorePath == "" {
			return c, Resume{}, nil
		}
		if err := os.MkdirAll(filepath.Dir(c.StorePath), 0o755); err != nil {
			return c, Resume{}, fmt.Errorf("crawl: open the store: %w", err)
		}
		s, err := sqlite.Open(ctx, c.StorePath, sqlite.Options{})
		if err != nil {
			return c, Resume{}, fmt.Errorf("crawl: open the store: %w", err)
		}
		defer s.Close()
		st = s
	}
	return c.withSavedIn(ctx, st)
}

// withSavedIn is WithSaved on the crawl in st.
func (c Config) withSavedIn(ctx context.Context, st store.Store) (Config, Resume, error) {
	var s saved
	text, ok, err := st.Setting(ctx, settingsKey)
	if err != nil {
		return c, Resume{}, fmt.Errorf("crawl: read the crawl's settings: %w", err)
	}
	if ok {
		if err := json.Unmarshal([]byte(text), &s); err != nil {
			return c, Resume{}, fmt.Errorf("crawl: the crawl's saved settings are unreadable: %w", err)
		}
	}
	merged, r, err := c.withSaved(s, ok)
	if err != nil {
		return c, r, err
	}
	if !ok || len(r.Changed) > 0 {
		// Settings saved before, and unchanged, stranded nothing when they were saved.
		if err := merged.checkStranded(ctx, st); err != nil {
			var ce *ConfigError
			if errors.As(err, &ce) {
				for _, ch := range r.Changed {
					if ch.Field == ce.Field && ch.Was != "" {
						ce.Msg += fmt.Sprintf("; the crawl was started with %s: leave the setting out to keep it", ch.Was)
					}
				}
			}
			return c, r, err
		}
	}
	if merged.AllowPrivate && !s.AllowPrivate {
		if err := requeueRefused(ctx, st, merged.clockNow()); err != nil {
			return c, r, err
		}
	}
	b, err := json.Marshal(merged.settings())
	if err != nil {
		return c, r, fmt.Errorf("crawl: save the crawl's settings: %w", err)
	}
	if !ok || string(b) != text {
		if err := st.SaveSetting(ctx, settingsKey, string(b)); err != nil {
			return c, r, fmt.Errorf("crawl: save the crawl's settings: %w", err)
		}
	}
	return merged, r, nil
}

// maxRequeueBatch bounds the URLs requeueRefused holds and commits at once.
const maxRequeueBatch = 10_000

// errBatchFull ends a walk of the store once a batch is full.
var errBatchFull = errors.New("batch full")

// requeueRefused makes due again the URLs an earlier version of the crawler gave up because the
// dialer refused their private address (state error, reason "no answer (private-address)"): a
// run that may now connect there fetches them (issue 27: a resume without --allow-private
// spoiled them, and adding it back left them in place). Today's crawler leaves such URLs queued.
// It walks the store once per maxRequeueBatch of them, committing each batch after its walk (a
// store may not write while it reads), so that memory stays bounded.
func requeueRefused(ctx context.Context, st store.Store, now time.Time) error {
	for {
		var batch []store.URL
		err := st.EachURL(ctx, func(u store.URL) error {
			if u.State == store.StateError && strings.HasPrefix(u.Reason, "no answer (private-address)") {
				u.State, u.Reason, u.Attempts, u.NextAt = store.StateQueued, "", 0, now
				batch = append(batch, u)
				if len(batch) == maxRequeueBatch {
					return errBatchFull
				}
			}
			return nil
		})
		if err != nil && !errors.Is(err, errBatchFull) {
			return fmt.Errorf("crawl: find URLs refused as private: %w", err)
		}
		if len(batch) > 0 {
			if _, err := st.Commit(ctx, store.Batch{Updates: batch}); err != nil {
				return fmt.Errorf("crawl: requeue URLs refused as private: %w", err)
			}
		}
		if len(batch) < maxRequeueBatch {
			return nil
		}
	}
}

// clockNow is c's clock's time: the wall clock unless Config.Clock is set.
func (c Config) clockNow() time.Time {
	if c.Clock != nil {
		return c.Clock.Now()
	}
	return time.Now()
}

// checkStranded refuses c when a URL the crawl still has to fetch (queued, paused or waiting on
// robots.txt) could never be fetched under c: on a loopback or private address without
// AllowPrivate or a Resolve entry, outside Scope, beyond MaxDepth, or left out by Include and
// Exclude. Such a URL would stay queued for good, or be fetched against the setting.
func (c Config) checkStranded(ctx context.Context, st store.Store) error {
	seeds, err := st.Seeds(ctx)
	if err != nil {
		return fmt.Errorf("crawl: read seeds: %w", err)
	}
	p, err := c.plan()
	if err != nil {
		return err
	}
	parser := &urlnorm.Parser{}
	hosts, domains := map[string]bool{}, map[string]bool{}
	for _, s := range append(slices.Clone(seeds), p.crawl.Seeds...) {
		if u, err := parser.Parse(s); err == nil {
			hosts[u.Host()], domains[u.RegistrableDomain()] = true, true
		}
	}
	limit := c.depthLimit()
	filter := patternFilter(c.Include, c.Exclude)
	type strand struct {
		n       int
		example string
		what    string
	}
	found := map[string]*strand{}
	var order []string
	note := func(field, u, what string) {
		s := found[field]
		if s == nil {
			s = &strand{example: u, what: what}
			found[field] = s
			order = append(order, field)
		}
		s.n++
	}
	err = st.EachURL(ctx, func(su store.URL) error {
		switch su.State {
		case store.StateQueued, store.StatePaused, store.StateRobotsUnreachable:
		default:
			return nil
		}
		u, err := parser.Parse(su.URL)
		if err != nil {
			return nil
		}
		if !p.fetch.AllowPrivate {
			if _, pinned := p.fetch.Resolve[u.HostPort()]; !pinned {
				if class := fetch.HostClass(u.Host()); class != "" {
					note("AllowPrivate", su.URL, class)
				}
			}
		}
		seed := su.Depth == 0 && su.Hops == 0 && su.Kind == store.KindPage
		if seed {
			return nil
		}
		switch {
		case p.crawl.Scope == urlnorm.ScopeHost && !hosts[u.Host()],
			p.crawl.Scope == urlnorm.ScopeDomain && !domains[u.RegistrableDomain()]:
			note("Scope", su.URL, "")
		}
		if limit >= 0 && su.Depth > limit {
			note("MaxDepth", su.URL, "")
		}
		if filter != nil && su.Kind == store.KindPage {
			if reason := filter(su.URL); reason != "" {
				field := "Include"
				if strings.Contains(reason, "--exclude") {
					field = "Exclude"
				}
				note(field, su.URL, "")
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("crawl: read the queued URLs: %w", err)
	}
	if len(order) == 0 {
		return nil
	}
	field := order[0]
	s := found[field]
	urls := fmt.Sprintf("%d queued URL", s.n)
	if s.n > 1 {
		urls += "s"
	}
	switch field {
	case "AllowPrivate":
		return configErr(field, fmt.Sprintf("is needed: %s of this crawl are on %s addresses (first %s), which this run may not connect to", urls, s.what, s.example), "AllowPrivate", "Resolve")
	case "Scope":
		return configErr(field, fmt.Sprintf("%s would strand %s of this crawl outside it (first %s)", p.crawl.Scope, urls, s.example))
	case "MaxDepth":
		return configErr(field, fmt.Sprintf("%s would strand %s of this crawl beyond it (first %s)", depthText(c.MaxDepth), urls, s.example))
	case "Exclude":
		return configErr(field, fmt.Sprintf("%s would strand %s of this crawl that it leaves out (first %s)", strings.Join(patternStrings(c.Exclude), " "), urls, s.example))
	default:
		return configErr(field, fmt.Sprintf("%s would strand %s of this crawl that match none of its patterns (first %s)", strings.Join(patternStrings(c.Include), " "), urls, s.example))
	}
}

// depthText is a MaxDepth as the mandelbot command spells it.
func depthText(d int) string {
	switch d {
	case SeedsOnly:
		return "0"
	case 0, NoLimit:
		return "none"
	}
	return strconv.Itoa(d)
}
