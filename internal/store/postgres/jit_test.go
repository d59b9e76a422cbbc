package postgres_test

import (
	"testing"

	"github.com/fractle/mandelbot/internal/store/postgres"
	"github.com/fractle/mandelbot/internal/store/postgres/pgtest"
)

// Issue 31 part 4 (server CPU per page at 200,000 pages): the store's connections run without
// JIT compilation. With the server's default (jit on, jit_above_cost 100,000), an anchor
// generation's statement over 5,000 targets was compiled to machine code at every run once the
// crawl had grown, which cost more than it saved.
func TestConnectionsRunWithoutJIT(t *testing.T) {
	s := pgtest.Open(t)
	defer s.Close()
	got, err := postgres.SessionSetting(t.Context(), s, "jit")
	if err != nil {
		t.Fatal(err)
	}
	if got != "off" {
		t.Errorf("jit = %q on the store's connection, want off", got)
	}
}
