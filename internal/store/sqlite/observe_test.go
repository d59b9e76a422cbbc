package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
)

// observedConn is a driver connection that reports the text of every statement it prepares or
// runs to observe, before the driver sees it: for the test that plans every statement the store
// runs (plan_test.go), and those that count or kill at a statement.
type observedConn struct {
	fullConn
	observe func(query string)
}

// fullConn is what database/sql uses of the driver's connection.
type fullConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// observing is an Options.wrapConn that reports each connection's statements to observe.
func observing(observe func(query string)) connWrap {
	return func(c driver.Conn) (driver.Conn, error) {
		full, ok := c.(fullConn)
		if !ok {
			return nil, errors.New("sqlite: the driver's connection cannot be observed")
		}
		return observedConn{full, observe}, nil
	}
}

func (c observedConn) Prepare(query string) (driver.Stmt, error) {
	c.observe(query)
	return c.fullConn.Prepare(query)
}

func (c observedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	c.observe(query)
	return c.fullConn.PrepareContext(ctx, query)
}

func (c observedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	c.observe(query)
	return c.fullConn.ExecContext(ctx, query, args)
}

func (c observedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	c.observe(query)
	return c.fullConn.QueryContext(ctx, query, args)
}
