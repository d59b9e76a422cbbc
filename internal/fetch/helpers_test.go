package fetch

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// newClient returns a Client built from opts, closed when the test ends.
func newClient(t *testing.T, opts Options) *Client {
	t.Helper()
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

// loopback returns opts with AllowPrivate set, for tests whose subject is
// not the address check (every test server is on 127.0.0.1).
func loopback(opts Options) Options {
	opts.AllowPrivate = true
	return opts
}

// serve starts an HTTP/1.1 test server on 127.0.0.1, closed when the test
// ends.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// get calls c.Get with a background context and fails the test on error.
func get(t *testing.T, c *Client, req Request) *Response {
	t.Helper()
	resp, err := c.Get(context.Background(), req)
	if err != nil {
		t.Fatalf("Get(%s): %v", req.URL, err)
	}
	return resp
}

// blocker is a handler gate: handlers wait on it until the test ends, so
// timeouts fire without the test sleeping. Release runs at cleanup, before
// the servers (registered earlier) are closed.
type blocker chan struct{}

func newBlocker(t *testing.T) blocker {
	b := make(blocker)
	t.Cleanup(func() { close(b) })
	return b
}

// wait blocks until the test ends or the client goes away.
func (b blocker) wait(r *http.Request) {
	select {
	case <-b:
	case <-r.Context().Done():
	}
}

// fakeDNS starts a DNS server on 127.0.0.1 that answers A and AAAA queries
// for the names in hosts and NXDOMAIN for any other name, and returns a
// resolver that asks only it. No query leaves the machine.
func fakeDNS(t *testing.T, hosts map[string]string) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	addrs := make(map[string]netip.Addr, len(hosts))
	for name, ip := range hosts {
		addrs[lowerASCII(name)] = netip.MustParseAddr(ip)
	}
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return // closed at cleanup
			}
			if msg := dnsAnswer(buf[:n], addrs); msg != nil {
				pc.WriteTo(msg, from)
			}
		}
	}()
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "udp", pc.LocalAddr().String())
		},
	}
}

// dnsAnswer builds the reply to one query, or nil for a malformed query.
func dnsAnswer(query []byte, addrs map[string]netip.Addr) []byte {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil
	}
	q, err := p.Question()
	if err != nil {
		return nil
	}
	name := lowerASCII(strings.TrimSuffix(q.Name.String(), "."))
	ip, known := addrs[name]
	rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionAvailable: true}
	if !known {
		rh.RCode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, rh)
	if b.StartQuestions() != nil || b.Question(q) != nil || b.StartAnswers() != nil {
		return nil
	}
	res := dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60}
	switch {
	case known && q.Type == dnsmessage.TypeA && ip.Is4():
		err = b.AResource(res, dnsmessage.AResource{A: ip.As4()})
	case known && q.Type == dnsmessage.TypeAAAA && ip.Is6():
		err = b.AAAAResource(res, dnsmessage.AAAAResource{AAAA: ip.As16()})
	}
	if err != nil {
		return nil
	}
	msg, err := b.Finish()
	if err != nil {
		return nil
	}
	return msg
}

// discardLog is a server error log that drops everything, for servers
// whose expected failures would only add noise.
func discardLog() *log.Logger { return log.New(io.Discard, "", 0) }
