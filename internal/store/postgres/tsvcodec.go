package postgres

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// tsvector is a tsvector in PostgreSQL's binary wire format (tsvectorsend's: the lexeme count, then
// each lexeme in the server's order with a NUL, its position count and its positions, weight in the
// top two bits), as the crawl process builds it (tsvec.go); the zero value (nil bytes) is SQL NULL.
// It is a struct rather than a []byte so that pgx never takes it for text or bytea (its wrappers
// would send the bytes as a literal). It is sent as a parameter of type tsvector or tsvector[],
// which the server reads with tsvectorrecv: issue 31 part 4, parsing the same tsvector as a literal
// (tsvectorin) was about 100 µs of server CPU per document of the crawl (19,600 documents of 182
// lexemes: binary COPY 1.1 s, text COPY 3.0 s).
type tsvector struct{ bin []byte }

// The OIDs of PostgreSQL's built-in tsvector and tsvector[] types (pg_type.dat), the same on
// every server.
const (
	tsvectorOID      = 3614
	tsvectorArrayOID = 3643
)

// registerTSVector teaches conn's type map to send a tsvector in binary, alone or in an array.
// Values of other Go types, and results, stay in the text format, as before the type was known
// (tsvectorCodec).
func registerTSVector(conn *pgx.Conn) {
	m := conn.TypeMap()
	t := &pgtype.Type{Name: "tsvector", OID: tsvectorOID, Codec: tsvectorCodec{}}
	m.RegisterType(t)
	m.RegisterType(&pgtype.Type{Name: "_tsvector", OID: tsvectorArrayOID, Codec: &pgtype.ArrayCodec{ElementType: t}})
}

// tsvectorCodec encodes a tsvector value in the binary format and a string as a literal
// (pgtype.TextCodec), and reads a tsvector column as its text. It prefers the text format, so that
// results keep coming as text; an array of them prefers binary (pgtype.ArrayCodec does whenever the
// element supports it), and a single tsvector value, which has no text plan, falls back to binary.
type tsvectorCodec struct{ text pgtype.TextCodec }

func (tsvectorCodec) FormatSupported(format int16) bool {
	return format == pgtype.TextFormatCode || format == pgtype.BinaryFormatCode
}

func (tsvectorCodec) PreferredFormat() int16 { return pgtype.TextFormatCode }

func (c tsvectorCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	switch value.(type) {
	case tsvector:
		if format == pgtype.BinaryFormatCode {
			return encodeTSVector{}
		}
	case string: // a literal
		return c.text.PlanEncode(m, oid, format, value)
	}
	return nil
}

func (c tsvectorCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	if format != pgtype.TextFormatCode {
		return nil
	}
	return c.text.PlanScan(m, oid, format, target)
}

func (c tsvectorCodec) DecodeDatabaseSQLValue(m *pgtype.Map, oid uint32, format int16, src []byte) (driver.Value, error) {
	if format != pgtype.TextFormatCode {
		return nil, fmt.Errorf("tsvector: cannot decode format %d", format)
	}
	return c.text.DecodeDatabaseSQLValue(m, oid, format, src)
}

func (c tsvectorCodec) DecodeValue(m *pgtype.Map, oid uint32, format int16, src []byte) (any, error) {
	if format != pgtype.TextFormatCode {
		return nil, fmt.Errorf("tsvector: cannot decode format %d", format)
	}
	return c.text.DecodeValue(m, oid, format, src)
}

// encodeTSVector appends a tsvector's bytes as they are; nil is NULL.
type encodeTSVector struct{}

func (encodeTSVector) Encode(value any, buf []byte) ([]byte, error) {
	v := value.(tsvector)
	if v.bin == nil {
		return nil, nil
	}
	return append(buf, v.bin...), nil
}

// afterConnect readies a new connection of the pool: lz4 for values moved out of line, and the
// binary tsvector.
func afterConnect(ctx context.Context, conn *pgx.Conn) error {
	registerTSVector(conn)
	return preferLZ4(ctx, conn)
}
