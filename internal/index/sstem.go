package index

import "strings"

// sStem folds an English plural to its singular by Harman's "S" stemmer (1991), the lightest
// of the stemmers: "-ies" to "-y" (not after a or e), "-es" to "-e" (not after a, e or o),
// "-s" removed (not after u or s). It is for comparisons done outside the engines (AnchorVotes),
// where "Foreign Keys" must name "foreign key"; s is lower case.
func sStem(s string) string {
	switch {
	case !strings.ContainsAny(s, "aeiouy"):
		return s // an abbreviation, not a plural: "https" is not the plural of "http"
	case strings.HasSuffix(s, "ies") && !strings.HasSuffix(s, "eies") && !strings.HasSuffix(s, "aies"):
		return s[:len(s)-3] + "y"
	case strings.HasSuffix(s, "es") && !strings.HasSuffix(s, "aes") && !strings.HasSuffix(s, "ees") && !strings.HasSuffix(s, "oes"):
		return s[:len(s)-1]
	case strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "us") && !strings.HasSuffix(s, "ss"):
		return s[:len(s)-1]
	}
	return s
}
