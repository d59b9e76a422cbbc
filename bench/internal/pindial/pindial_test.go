package pindial

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in               string
		host, port, addr string
		wantErr          bool
	}{
		{in: "g0.test:41234:127.0.0.1", host: "g0.test", port: "41234", addr: "127.0.0.1"},
		{in: "a.test:80:[::1]", host: "a.test", port: "80", addr: "::1"},
		{in: "a.test:80:::1", host: "a.test", port: "80", addr: "::1"},
		{in: "a.test:80", wantErr: true},
		{in: "a.test:80:", wantErr: true},
		{in: ":80:127.0.0.1", wantErr: true},
		{in: "a.test:80:example.com", wantErr: true}, // an address, not a name
	} {
		host, port, addr, err := Parse(c.in)
		if (err != nil) != c.wantErr || host != c.host || port != c.port || addr != c.addr {
			t.Errorf("Parse(%q) = %q, %q, %q, %v", c.in, host, port, addr, err)
		}
	}
}

// The dialer reaches a pinned host (in any ASCII case) and nothing else, so a benchmark's
// client cannot leave loopback.
func TestDialer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	d, err := New([]string{"g0.test:" + port + ":127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.DialContext(context.Background(), "tcp", "G0.Test:"+port)
	if err != nil {
		t.Fatalf("dial pinned host: %v", err)
	}
	c.Close()
	for _, addr := range []string{"g1.test:" + port, "g0.test:1", "127.0.0.1:" + port} {
		if c, err := d.DialContext(context.Background(), "tcp", addr); err == nil {
			c.Close()
			t.Errorf("dial %s: connected, want refused", addr)
		}
	}
	var zero Dialer
	if c, err := zero.DialContext(context.Background(), "tcp", "g0.test:"+port); err == nil {
		c.Close()
		t.Error("the zero Dialer connected, want refused")
	}
}
