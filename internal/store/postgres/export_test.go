package postgres

// SchemaVersion is the latest schema version, for the tests of package postgres_test.
var SchemaVersion = len(migrations)

// TSQuery is tsQuery, for the tests of package postgres_test.
var TSQuery = tsQuery
