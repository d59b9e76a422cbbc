package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/fractle/mandelbot/internal/store"
)

// Setting implements store.Settings, from the meta table.
func (s *Store) Setting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := s.read.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, store.SettingKeyPrefix+key).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "", false, nil
	case err != nil:
		return "", false, fmt.Errorf("sqlite: setting %q: %w", key, err)
	}
	return v, true, nil
}

// SaveSetting implements store.Settings: one row of the meta table, in its own transaction.
func (s *Store) SaveSetting(ctx context.Context, key, value string) error {
	err := s.inTx(ctx, func(ctx context.Context, tx writeTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, store.SettingKeyPrefix+key, value)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlite: save setting %q: %w", key, err)
	}
	return nil
}
