package warc

import (
	"errors"
	"fmt"
	"net/netip"
	"time"
)

// Exchange is one HTTP exchange to archive: the request as sent and the
// response as received, both as wire bytes (a [Recorder] captures them).
// WriteExchange does not modify or keep its slices.
type Exchange struct {
	// TargetURI is the absolute URI fetched (WARC-Target-URI). Required.
	TargetURI string
	// Date is when the request was sent (WARC-Date of both records);
	// zero means Options.Now().
	Date time.Time
	// IP is the server's address, without port (WARC-IP-Address); empty
	// omits the field.
	IP string

	// Request is the request as sent: request line, header fields, body.
	// Empty writes no request record.
	Request []byte
	// Response is the response as received: status line, header fields
	// and body, with transfer and content codings as sent. Required.
	Response []byte
	// Truncated says why Response is shorter than what the server sent
	// (WARC-Truncated), or TruncatedNone.
	Truncated Truncation

	// Revisit, when set, makes the response a revisit record instead of
	// a response record.
	Revisit *Revisit
}

// Revisit describes the earlier capture a revisit record refers to.
type Revisit struct {
	// Profile is required. With ProfileServerNotModified, Response is the
	// 304 response and is kept whole. With ProfileIdenticalPayloadDigest,
	// Response is the full new response: its payload digest is recorded
	// and only its status line and header fields are kept.
	Profile Profile
	// RefersTo is the WARC-Record-ID of the earlier record, if known.
	RefersTo string
	// RefersToTargetURI is the earlier record's target; empty means
	// TargetURI.
	RefersToTargetURI string
	// RefersToDate is the earlier record's WARC-Date, if known.
	RefersToDate time.Time
}

// ExchangeRefs locate the records WriteExchange wrote.
type ExchangeRefs struct {
	// Response is the response or revisit record.
	Response Ref
	// Request is the request record; zero when Exchange.Request was empty.
	Request Ref
	// PayloadDigest is the WARC-Payload-Digest of the response or
	// revisit record, "" when it has none. Store it to detect an
	// identical payload on a later fetch.
	PayloadDigest string
}

// WriteExchange writes ex as a response (or revisit) record followed by
// its request record, both in the same file, linked to each other by
// WARC-Concurrent-To. It returns their Refs once both were written to the
// file, or an error and no Ref: an invalid ex (the Writer stays usable)
// or a failed write (the Writer is broken; see the package
// documentation). The records are not yet durable: see Sync.
func (w *Writer) WriteExchange(ex Exchange) (ExchangeRefs, error) {
	if err := checkExchange(ex); err != nil {
		return ExchangeRefs{}, err
	}
	date := ex.Date
	if date.IsZero() {
		date = w.cfg.now()
	}
	wdate := formatDate(date)
	respID := newRecordID()
	reqID := ""
	if len(ex.Request) > 0 {
		reqID = newRecordID()
	}

	// Fields common to both records, then each record's own.
	common := func(fields []Field, t Type, id, other string) []Field {
		fields = append(fields,
			Field{"WARC-Type", string(t)},
			Field{"WARC-Record-ID", id},
			Field{"WARC-Date", wdate},
			Field{"WARC-Target-URI", ex.TargetURI})
		if ex.IP != "" {
			fields = append(fields, Field{"WARC-IP-Address", ex.IP})
		}
		if other != "" {
			fields = append(fields, Field{"WARC-Concurrent-To", other})
		}
		return fields
	}

	var fieldBuf [16]Field
	block := ex.Response
	payloadDigest := ""
	fields := fieldBuf[:0]
	if rv := ex.Revisit; rv != nil {
		fields = common(fields, TypeRevisit, respID, reqID)
		fields = append(fields, Field{"WARC-Profile", string(rv.Profile)})
		if rv.RefersTo != "" {
			fields = append(fields, Field{"WARC-Refers-To", rv.RefersTo})
		}
		refURI := rv.RefersToTargetURI
		if refURI == "" {
			refURI = ex.TargetURI
		}
		fields = append(fields, Field{"WARC-Refers-To-Target-URI", refURI})
		if !rv.RefersToDate.IsZero() {
			fields = append(fields, Field{"WARC-Refers-To-Date", formatDate(rv.RefersToDate)})
		}
		if rv.Profile == ProfileIdenticalPayloadDigest {
			payloadDigest, _ = PayloadDigest(ex.Response)
			block = httpHead(ex.Response)
		}
	} else {
		fields = common(fields, TypeResponse, respID, reqID)
		if p, ok := httpPayload(block); ok {
			payloadDigest = Digest(p)
		}
	}
	if ex.Truncated != TruncatedNone {
		fields = append(fields, Field{"WARC-Truncated", string(ex.Truncated)})
	}
	fields = append(fields,
		Field{"Content-Type", contentTypeResponse},
		Field{"WARC-Block-Digest", Digest(block)})
	if payloadDigest != "" {
		fields = append(fields, Field{"WARC-Payload-Digest", payloadDigest})
	}

	m := w.pool.get()
	defer w.pool.put(m)
	if err := m.add(fields, block); err != nil {
		return ExchangeRefs{}, err
	}
	if reqID != "" {
		fields = common(fieldBuf[:0], TypeRequest, reqID, respID)
		fields = append(fields,
			Field{"Content-Type", contentTypeRequest},
			Field{"WARC-Block-Digest", Digest(ex.Request)})
		if p, ok := httpPayload(ex.Request); ok {
			fields = append(fields, Field{"WARC-Payload-Digest", Digest(p)})
		}
		if err := m.add(fields, ex.Request); err != nil {
			return ExchangeRefs{}, err
		}
	}

	name, base, err := w.append(m)
	if err != nil {
		return ExchangeRefs{}, err
	}
	refs := ExchangeRefs{PayloadDigest: payloadDigest}
	off, n := m.span(0)
	refs.Response = Ref{File: name, Offset: base + off, Length: n, RecordID: respID}
	if reqID != "" {
		off, n = m.span(1)
		refs.Request = Ref{File: name, Offset: base + off, Length: n, RecordID: reqID}
	}
	return refs, nil
}

// checkExchange refuses an Exchange that would make an invalid record.
func checkExchange(ex Exchange) error {
	if ex.TargetURI == "" {
		return errors.New("warc: exchange: TargetURI is required")
	}
	if err := checkValue("TargetURI", ex.TargetURI); err != nil {
		return err
	}
	if ex.IP != "" {
		if _, err := netip.ParseAddr(ex.IP); err != nil {
			return fmt.Errorf("warc: exchange: IP: %w", err)
		}
	}
	if len(ex.Response) == 0 {
		return errors.New("warc: exchange: Response is empty")
	}
	switch ex.Truncated {
	case TruncatedNone, TruncatedLength, TruncatedTime, TruncatedDisconnect, TruncatedUnspecified:
	default:
		return fmt.Errorf("warc: exchange: unknown Truncated %q", ex.Truncated)
	}
	if rv := ex.Revisit; rv != nil {
		switch rv.Profile {
		case ProfileServerNotModified, ProfileIdenticalPayloadDigest:
		default:
			return fmt.Errorf("warc: exchange: unknown revisit profile %q", rv.Profile)
		}
		if err := checkValue("RefersTo", rv.RefersTo); err != nil {
			return err
		}
		if err := checkValue("RefersToTargetURI", rv.RefersToTargetURI); err != nil {
			return err
		}
	}
	return nil
}
