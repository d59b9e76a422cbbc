package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
)

// Stream fetches req.URL like Get but hands the decoded body to consume as a
// stream instead of buffering it, so a large body (a 50 MiB sitemap) costs a
// few buffers and the decoder's window, not its size. Only those are charged
// to the memory budget, for as long as consume runs; what consume itself
// keeps is its own business (sitemap.Parse holds one entry at a time).
//
// consume is called once, on the calling goroutine, when the response header
// arrived, with the Response (Body always nil; Truncated, TruncatedBy and
// RawBytes are filled in once consume returns) and the body after content
// decoding under the client's and req's limits: a body over a limit ends
// with io.EOF at the limit, and Truncated then says so. The reader is valid
// only until consume returns. consume need not read to the end; the rest
// is not read. A consumer that records its own verdict (a parse error, a
// cut) should return nil: its non-nil error is returned as is.
//
// The error is nil when the body was read without fault as far as consume
// read it and consume returned nil. A body that stalls, breaks off or has a
// corrupt coding is an error like Get's (it takes precedence over consume's
// own error, which is then probably its consequence), with the Response. A
// nil Response means no header arrived, as for Get. The Response holds no
// budget, but with Options.Capture its wire copy (Capture), charged from
// the start at the most it may hold, until Release (issue 29).
func (c *Client) Stream(ctx context.Context, req Request, consume func(resp *Response, body io.Reader) error) (*Response, error) {
	x, err := c.start(ctx, req)
	if err != nil {
		return nil, err
	}
	defer x.end()
	hresp := x.hresp
	resp := x.response(x.started)

	cod, codingList := parseContentEncoding(hresp.Header.Values("Content-Encoding"))
	if cod == codingUnknown {
		resp.UnknownEncoding = codingList
	}
	keepRaw := c.cfg.onExchange != nil
	sb := &streamBody{}
	raw := &limitReader{r: x.body, n: x.lim.raw, kind: LimitRaw, first: &sb.cut}
	var rawBuf bytes.Buffer
	var src io.Reader = raw
	cost := int64(streamCost)
	if keepRaw {
		src = io.TeeReader(raw, &rawBuf)
		cost += x.lim.raw + 1
	}
	bsrc := bufio.NewReader(src)
	first, peekErr := bsrc.Peek(1)
	if len(first) == 1 {
		cost += decoderCost(cod, first[0])
	}
	var capCost int64 // the wire copy, held by the Response until Release
	if w := x.captureWatch(); w != nil {
		capCost = w.max
		cost += capCost
	}
	ch := c.newCharge()
	handed := false
	defer func() {
		if !handed {
			ch.release()
		}
	}()
	if err := ch.first(x.ctx, cost, cost); err != nil {
		return resp, fmt.Errorf("fetch: %s: %w", x.target, c.withCause(x.ctx, err))
	}

	var decoded io.Reader = bsrc
	var decErr error
	if cod != codingIdentity && cod != codingUnknown && peekErr == nil {
		dec, err := newDecoder(cod, bsrc)
		if err != nil {
			decErr = err
			decoded = eofReader{}
		} else {
			defer dec.Close()
			decoded = dec
		}
	}
	out := &limitReader{r: decoded, n: x.lim.decoded, kind: LimitDecoded, first: &sb.cut}
	sb.r = out
	consumeErr := consume(resp, sb)

	resp.Truncated, resp.TruncatedBy, resp.RawBytes = sb.cut != LimitNone, sb.cut, raw.read
	resp.Duration = c.cfg.now().Sub(x.started)
	bodyErr := streamError(cod, raw, sb, decErr)
	if bodyErr != nil {
		bodyErr = fmt.Errorf("fetch: %s: %w", x.target, c.withCause(x.ctx, bodyErr))
	}
	resp.Capture = x.captured(sb.cut != LimitNone || bodyErr != nil && !errors.Is(bodyErr, ErrDecode))
	if resp.Capture != nil {
		ch.releaseSome(cost - capCost) // the buffers and decoder are done with
		resp.hold(ch)
		handed = true
	}
	c.exchange(x, rawBuf.Bytes(), sb.cut, bodyErr)
	if bodyErr != nil {
		return resp, bodyErr
	}
	return resp, consumeErr
}

// streamBody is the reader handed to a Stream consumer. It remembers the
// first error other than io.EOF that it passed on.
type streamBody struct {
	r   io.Reader
	cut Limit
	err error
}

func (s *streamBody) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF && s.err == nil {
		s.err = err
	}
	return n, err
}

// streamError is the body's own fault after a Stream, judged as readBody
// judges it: a network failure, else a corrupt coding (unless the raw limit
// cut the decoder's input).
func streamError(c coding, raw *limitReader, sb *streamBody, decErr error) error {
	switch {
	case raw.err != nil:
		return fmt.Errorf("read body: %w", raw.err)
	case decErr == nil && sb.err == nil:
		return nil
	case c == codingIdentity || c == codingUnknown:
		return fmt.Errorf("read body: %w", sb.err)
	case sb.cut == LimitRaw:
		return nil
	}
	return fmt.Errorf("decode body: %w (%v): %w", ErrDecode, c, errors.Join(decErr, sb.err))
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }
