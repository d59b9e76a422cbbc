package store

import "context"

// Settings keeps a crawl's own settings with the crawl (issue 27: a crawl remembers what it was
// told), as named text values, so that a later run resumes with them. Keys are the caller's; they
// never clash with the store's own bookkeeping (its schema version). Implementations are safe for
// concurrent use; a value saved is durable when SaveSetting returns.
type Settings interface {
	// Setting returns the value saved under key; ok is false when none was.
	Setting(ctx context.Context, key string) (value string, ok bool, err error)
	// SaveSetting saves value under key, replacing any value saved before.
	SaveSetting(ctx context.Context, key, value string) error
}

// SettingKeyPrefix is put before every Settings key in the store's meta table, so that a
// setting can never overwrite the store's own rows (schema_version).
const SettingKeyPrefix = "setting:"
