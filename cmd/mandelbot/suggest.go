package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// maxSuggestDistance is how many single-character edits a mistyped flag may be from a real one
// to be suggested.
const maxSuggestDistance = 2

// suggestFlag returns " (did you mean --NAME?)" when the error is pflag's "unknown flag: --x"
// and c has a flag within maxSuggestDistance edits of x (or one that x is a prefix of), else "".
func suggestFlag(c *cobra.Command, err error) string {
	const prefix = "unknown flag: --"
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return ""
	}
	typed, _, _ := strings.Cut(strings.TrimPrefix(msg, prefix), "=")
	best, bestD := "", maxSuggestDistance+1
	c.Flags().VisitAll(func(f *pflag.Flag) {
		d := editDistance(typed, f.Name)
		if strings.HasPrefix(f.Name, typed) && len(typed) >= 3 {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = f.Name, d
		}
	})
	if best == "" {
		return ""
	}
	return " (did you mean --" + best + "?)"
}

// editDistance is the Damerau-Levenshtein distance (adjacent transpositions count one) between
// two ASCII flag names.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
