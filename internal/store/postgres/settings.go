package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fractle/mandelbot/internal/store"
)

// Setting implements store.Settings, from the meta table.
func (s *Store) Setting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := s.pool.QueryRow(ctx, `SELECT value FROM meta WHERE key = $1`, store.SettingKeyPrefix+key).Scan(&v)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("postgres: setting %q: %w", key, err)
	}
	return v, true, nil
}

// SaveSetting implements store.Settings: one row of the meta table. It is not fenced: the
// settings are the crawl's, shared by every process of it.
func (s *Store) SaveSetting(ctx context.Context, key, value string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO meta (key, value) VALUES ($1, $2)
		ON CONFLICT (key) DO UPDATE SET value = excluded.value`, store.SettingKeyPrefix+key, value)
	if err != nil {
		return fmt.Errorf("postgres: save setting %q: %w", key, err)
	}
	return nil
}
