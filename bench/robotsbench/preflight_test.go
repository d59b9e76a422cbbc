package main

import (
	"slices"
	"testing"
)

// panicky is a library stand-in that panics on one site, to check that the
// harness leaves such a site out for everyone instead of dying.
type panicky struct{ on string }

func (panicky) name() string { return "panicky" }
func (p panicky) checkAll(sites []Site, out []bool) {
	for _, s := range sites {
		if s.Name == p.on {
			panic("boom")
		}
		for i := range s.URLs {
			out[s.First+i] = true
		}
	}
}
func (panicky) parseAll([]Site) int                      { return 0 }
func (panicky) worst([]byte, string, string) func() bool { return nil }
func (panicky) notes(*Workload) []string                 { return nil }

func testWorkload() *Workload {
	a := Site{Name: "a.example", Robots: []byte("A"), URLs: []string{"u1", "u2"}, Paths: []string{"/1", "/2"}, First: 0}
	b := Site{Name: "b.example", Robots: []byte("BB"), URLs: []string{"u3"}, Paths: []string{"/3"}, First: 2}
	c := Site{Name: "c.example", Robots: []byte("CCC"), URLs: []string{"u4", "u5"}, Paths: []string{"/4", "/5"}, First: 3}
	return &Workload{Sites: []Site{a, b, c}, URLs: 5, Parse: []Site{a, b, c}, ParseBytes: 6}
}

func TestPreflightFindsPanickingSite(t *testing.T) {
	crashes := preflight([]peer{panicky{on: "b.example"}}, testWorkload())
	if len(crashes) != 1 || crashes[0].site != "b.example" || crashes[0].lib != "panicky" || crashes[0].value != "boom" {
		t.Fatalf("crashes = %+v, want one: panicky on b.example with \"boom\"", crashes)
	}
}

func TestWorkloadWithoutRenumbersURLs(t *testing.T) {
	w := testWorkload().without(map[string]bool{"b.example": true})
	var names []string
	for _, s := range w.Sites {
		names = append(names, s.Name)
	}
	if want := []string{"a.example", "c.example"}; !slices.Equal(names, want) {
		t.Fatalf("sites = %q, want %q", names, want)
	}
	if w.URLs != 4 || w.Sites[1].First != 2 {
		t.Errorf("URLs = %d, c.example First = %d; want 4 and 2 (numbered again without b)", w.URLs, w.Sites[1].First)
	}
	if len(w.Parse) != 2 || w.ParseBytes != 4 {
		t.Errorf("parse pass = %d files, %d bytes; want 2 files, 4 bytes", len(w.Parse), w.ParseBytes)
	}
	// The verdict slots of the remaining sites must cover 0..URLs-1 exactly.
	out := make([]bool, w.URLs)
	panicky{}.checkAll(w.Sites, out)
	if slices.Contains(out, false) {
		t.Errorf("verdict slots not all written: %v", out)
	}
}
