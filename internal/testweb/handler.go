package testweb

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// connKey carries the accepted connection in each request's context, so Reset can reach
// the TCP socket under TLS and under HTTP/2, where hijacking is not available.
type connKey struct{}

func withConn(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// response is what the web decided to answer, fixed before anything is written so that
// the log entry can be made first.
type response struct {
	status int
	header http.Header
	body   []byte
	action Action
	raw    http.Handler // answers instead of the fields above
}

func (w *Web) handler(s *site) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.busy.enter()
		defer w.busy.leave()
		select {
		case <-w.done:
			// A request that slipped in while Close ran: no log entry, no answer.
			panic(http.ErrAbortHandler)
		default:
		}
		now := w.now()
		target := requestTarget(r)
		resp := w.decide(s, target, r, now)
		entry := Request{
			Key:    s.key,
			Host:   r.Host,
			Method: r.Method,
			Path:   target,
			Proto:  r.Proto,
			Header: r.Header.Clone(),
			At:     now,
			Action: resp.action,
		}
		if resp.raw == nil && (resp.action == Serve || resp.action == Stall) {
			entry.Status = resp.status
			entry.Location = resp.header.Get("Location")
			entry.RetryAfter = resp.header.Get("Retry-After")
		}
		entry = w.log.add(entry)
		if w.onRequest != nil {
			w.onRequest(entry)
		}
		w.answer(rw, r, resp)
	})
}

// requestTarget returns the path and query exactly as the client sent them; an
// absolute-form target ("http://a.test/x", as proxies receive) is cut to its path.
func requestTarget(r *http.Request) string {
	t := r.RequestURI
	if strings.HasPrefix(t, "/") || t == "*" {
		return t
	}
	if i := strings.Index(t, "://"); i >= 0 {
		rest := t[i+3:]
		j := strings.IndexAny(rest, "/?")
		switch {
		case j < 0:
			return "/"
		case rest[j] == '?':
			return "/" + rest[j:]
		default:
			return rest[j:]
		}
	}
	return t
}

// lookup finds the page for target and takes its next Script step; generated reports
// that the page came from the site's Fallback.
func (w *Web) lookup(s *site, target string) (p Page, found bool, st Step, generated bool) {
	w.mu.Lock()
	if ps := s.pages[target]; ps != nil {
		p = ps.page
		i := ps.hits
		ps.hits++
		w.mu.Unlock()
		return p, true, stepAt(p.Script, i), false
	}
	w.mu.Unlock()
	if s.fallback == nil {
		return Page{}, false, Step{}, false
	}
	p, found = s.fallback(target)
	if !found {
		return Page{}, false, Step{}, false
	}
	p.Path = target
	if len(p.Script) > 0 {
		w.mu.Lock()
		i := s.fbHits[target]
		s.fbHits[target]++
		w.mu.Unlock()
		st = stepAt(p.Script, i)
	}
	return p, true, st, true
}

// stepAt returns the step for the i-th request (from 0): the last step repeats.
func stepAt(script []Step, i int) Step {
	if len(script) == 0 {
		return Step{}
	}
	return script[min(i, len(script)-1)]
}

// decide builds the answer to one request.
func (w *Web) decide(s *site, target string, r *http.Request, now time.Time) *response {
	h := make(http.Header)
	h.Set("Date", now.UTC().Format(http.TimeFormat))
	p, found, st, generated := w.lookup(s, target)
	if !found && s.raw != nil {
		return &response{raw: s.raw}
	}
	if !found {
		return textAnswer(h, http.StatusNotFound, "")
	}
	if generated {
		// Fallback pages are generated, not checked by Start: check them here so a bad
		// one is a visible 500 rather than a net/http panic.
		if err := checkPage(&p, func(k string) bool { return w.byKey[k] != nil }); err != nil {
			return textAnswer(h, http.StatusInternalServerError, "testweb: fallback page: "+err.Error()+"\n")
		}
	}
	x := w.refs.expand
	if p.NoExpand {
		x = func(s string) string { return s }
	}

	status := st.Status
	if status == 0 && st.RedirectTo != "" {
		status = http.StatusFound
	}
	var resp *response
	if st.Body == "" && st.RedirectTo == "" && (status == 0 || status/100 == 2) {
		if status == 0 {
			status = p.Status
		}
		if status == 0 {
			status = http.StatusOK
		}
		resp = pageAnswer(h, &p, status, r, x)
	} else if st.Body != "" {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		resp = &response{status: status, header: h, body: []byte(x(st.Body))}
	} else {
		resp = textAnswer(h, status, "")
	}
	if st.RedirectTo != "" {
		h.Set("Location", x(st.RedirectTo))
	}
	if st.RetryDateIn > 0 {
		h.Set("Retry-After", now.Add(st.RetryDateIn).UTC().Format(http.TimeFormat))
	}
	for k, vs := range st.Header {
		k = http.CanonicalHeaderKey(k)
		h.Del(k)
		for _, v := range vs {
			h.Add(k, x(v))
		}
	}
	resp.action = st.Do
	return resp
}

// textAnswer is a short text/plain answer naming the status, or carrying body.
func textAnswer(h http.Header, status int, body string) *response {
	if body == "" {
		body = statusLine(status)
	}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	return &response{status: status, header: h, body: []byte(body)}
}

func statusLine(status int) string {
	return strconv.Itoa(status) + " " + http.StatusText(status) + "\n"
}

// pageAnswer serves the page's own content with status: headers, validators, encoding.
func pageAnswer(h http.Header, p *Page, status int, r *http.Request, x func(string) string) *response {
	for k, vs := range p.Header {
		for _, v := range vs {
			h.Add(k, x(v))
		}
	}
	if p.ETag != "" {
		h.Set("ETag", p.ETag)
	}
	if !p.LastModified.IsZero() {
		h.Set("Last-Modified", p.LastModified.UTC().Format(http.TimeFormat))
	}
	if p.Compress {
		h.Add("Vary", "Accept-Encoding")
	}
	if status == http.StatusOK && notModified(r, p) {
		return &response{status: http.StatusNotModified, header: h}
	}
	body, ctype := content(p, status, x)
	if p.GzipFile {
		body = gzipBytes(body)
		if p.ContentType == "" {
			ctype = "application/gzip"
		}
	}
	if p.Compress && acceptsGzip(r.Header.Values("Accept-Encoding")) {
		body = gzipBytes(body)
		h.Set("Content-Encoding", "gzip")
	}
	if ctype == NoContentType {
		h["Content-Type"] = nil // keeps net/http from sniffing one
	} else {
		h.Set("Content-Type", ctype)
	}
	return &response{status: status, header: h, body: body}
}

// notModified evaluates the request's validators against the page (RFC 9110 §13.2.2):
// If-None-Match, when present, decides alone, with weak comparison.
func notModified(r *http.Request, p *Page) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	if inm := r.Header.Values("If-None-Match"); len(inm) > 0 {
		if p.ETag == "" {
			return false
		}
		for _, line := range inm {
			for _, tag := range strings.Split(line, ",") {
				tag = trimASCII(tag)
				if tag == "*" || strings.TrimPrefix(tag, "W/") == strings.TrimPrefix(p.ETag, "W/") {
					return true
				}
			}
		}
		return false
	}
	ims := r.Header.Get("If-Modified-Since")
	if ims == "" || p.LastModified.IsZero() {
		return false
	}
	t, err := http.ParseTime(ims)
	if err != nil {
		return false
	}
	return !p.LastModified.Truncate(time.Second).After(t)
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip: a "gzip",
// "x-gzip" or "*" coding whose q is not 0.
func acceptsGzip(values []string) bool {
	for _, line := range values {
		for _, elem := range strings.Split(line, ",") {
			coding, params, _ := strings.Cut(elem, ";")
			coding = trimASCII(coding)
			if !equalFoldASCII(coding, "gzip") && !equalFoldASCII(coding, "x-gzip") && coding != "*" {
				continue
			}
			if q, ok := qValue(params); ok && q == 0 {
				continue
			}
			return true
		}
	}
	return false
}

// qValue returns the q parameter of an Accept-Encoding element's parameters.
func qValue(params string) (float64, bool) {
	for _, p := range strings.Split(params, ";") {
		name, val, ok := strings.Cut(p, "=")
		if !ok || !equalFoldASCII(trimASCII(name), "q") {
			continue
		}
		q, err := strconv.ParseFloat(trimASCII(val), 64)
		if err != nil {
			return 0, false
		}
		return q, true
	}
	return 0, false
}

// trimASCII trims ASCII spaces and tabs only (protocol text: no Unicode spaces).
func trimASCII(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// answer writes the decided response, or does the step's Action to the connection.
func (w *Web) answer(rw http.ResponseWriter, r *http.Request, resp *response) {
	if resp.raw != nil {
		resp.raw.ServeHTTP(rw, r.WithContext(w.untilClose(r.Context())))
		return
	}
	switch resp.action {
	case Reset:
		abortConn(rw, r, true)
		return
	case Drop:
		abortConn(rw, r, false)
		return
	case Hang:
		w.hang(r.Context())
		panic(http.ErrAbortHandler) // close without answering
	}
	dst := rw.Header()
	for k, vs := range resp.header {
		dst[k] = vs
	}
	body := resp.body
	if resp.status != http.StatusNotModified {
		dst.Set("Content-Length", strconv.Itoa(len(body)))
	}
	if resp.action == Stall {
		rw.WriteHeader(resp.status)
		rw.Write(body[:len(body)/2])
		http.NewResponseController(rw).Flush()
		w.hang(r.Context())
		panic(http.ErrAbortHandler) // the rest of the body never comes
	}
	rw.WriteHeader(resp.status)
	rw.Write(body) // a client that went away is not the web's error
}

// untilClose returns ctx, also ended when the web closes, so a Raw handler
// that waits on its request's context is released by Close.
func (w *Web) untilClose(ctx context.Context) context.Context {
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-w.done:
		case <-ctx.Done():
		}
		cancel()
	}()
	return ctx
}

// hang blocks until the client gives up or the web closes.
func (w *Web) hang(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-w.done:
	}
}

// abortConn closes the request's connection without answering: with RST when reset
// (SO_LINGER 0 on the TCP socket, bypassing any TLS close alert), cleanly otherwise.
func abortConn(rw http.ResponseWriter, r *http.Request, reset bool) {
	conn, _ := r.Context().Value(connKey{}).(net.Conn)
	hijacked := false
	if c, _, err := http.NewResponseController(rw).Hijack(); err == nil {
		conn, hijacked = c, true
	}
	if conn != nil {
		if tcp := tcpConn(conn); reset && tcp != nil {
			tcp.SetLinger(0)
			tcp.Close()
		} else {
			conn.Close()
		}
	}
	if !hijacked {
		panic(http.ErrAbortHandler) // HTTP/2: nothing more may be written
	}
}

// tcpConn unwraps TLS (and any other wrapper with NetConn) down to the TCP socket.
func tcpConn(c net.Conn) *net.TCPConn {
	for {
		switch v := c.(type) {
		case *net.TCPConn:
			return v
		case interface{ NetConn() net.Conn }:
			c = v.NetConn()
		default:
			return nil
		}
	}
}
