package storetest

// CheckNames lists the suite's subtests, for the suite's own tests.
func CheckNames() []string {
	names := make([]string, len(checks))
	for i, c := range checks {
		names[i] = c.name
	}
	return names
}
