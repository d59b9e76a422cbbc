package postgres

// SchemaVersion is the version migrate brings a schema to, for the package's external tests.
var SchemaVersion = len(migrations)
