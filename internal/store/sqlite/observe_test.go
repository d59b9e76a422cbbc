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

// runsConn is observedConn whose prepared statements also report each run: the writers keep
// their statements prepared (stmtCache), so observedConn sees a cached statement once.
type runsConn struct{ observedConn }

// observingRuns is an Options.wrapConn that reports to observe every statement each connection
// runs, a prepared one at each run.
func observingRuns(observe func(query string)) connWrap {
	wrap := observing(observe)
	return func(c driver.Conn) (driver.Conn, error) {
		oc, err := wrap(c)
		if err != nil {
			return nil, err
		}
		return runsConn{oc.(observedConn)}, nil
	}
}

func (c runsConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.fullConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	full, ok := st.(fullStmt)
	if !ok {
		st.Close()
		return nil, errors.New("sqlite: the driver's statement cannot be observed")
	}
	return observedStmt{full, query, c.observe}, nil
}

// fullStmt is what database/sql uses of the driver's statement.
type fullStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// observedStmt reports its query to observe at each run.
type observedStmt struct {
	fullStmt
	query   string
	observe func(query string)
}

func (s observedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	s.observe(s.query)
	return s.fullStmt.ExecContext(ctx, args)
}

func (s observedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	s.observe(s.query)
	return s.fullStmt.QueryContext(ctx, args)
}
