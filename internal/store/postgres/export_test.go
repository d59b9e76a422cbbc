package postgres

// SchemaVersion and LayoutKey are the schema's version and the meta key that holds it, for the
// package's external tests.
const (
	SchemaVersion = schemaVersion
	LayoutKey     = layoutKey
)

// TSQuery is tsQuery, for the tests of package postgres_test.
var TSQuery = tsQuery
