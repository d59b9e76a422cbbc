package index

import (
	"slices"
	"testing"
)

// Snippets come from the stores with their matched words between markers; SplitMarked turns
// them into Spans, and never loses text when a marker is missing.
func TestSplitMarked(t *testing.T) {
	for in, want := range map[string][]Span{
		"":                  nil,
		"plain":             {{Text: "plain"}},
		"a <b> c":           {{Text: "a "}, {Text: "b", Match: true}, {Text: " c"}},
		"<x><y>":            {{Text: "x", Match: true}, {Text: "y", Match: true}},
		"cut <unterminated": {{Text: "cut "}, {Text: "unterminated", Match: true}},
	} {
		if got := SplitMarked(in, "<", ">"); !slices.Equal(got, want) {
			t.Errorf("SplitMarked(%q) = %+v, want %+v", in, got, want)
		}
	}
}
