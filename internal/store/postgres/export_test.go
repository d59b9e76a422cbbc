package postgres

// SchemaVersion is the version a migrated schema is at, for the tests.
var SchemaVersion = len(migrations)
