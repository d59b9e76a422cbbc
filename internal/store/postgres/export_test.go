package postgres

// SchemaVersion is the version migrate brings a schema to, for the package's external tests.
var SchemaVersion = len(migrations)

// TSQuery is tsQuery, for the tests of package postgres_test.
var TSQuery = tsQuery
