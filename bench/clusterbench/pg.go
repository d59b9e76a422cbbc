package main

import "strings"

// withSchema returns url with its schema parameter set.
func withSchema(url, schema string) string {
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	return url + sep + "schema=" + schema
}
