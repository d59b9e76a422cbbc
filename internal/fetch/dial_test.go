package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
)

// countingServer serves 200 "ok" and counts requests, so a test can check
// that a refused dial sent nothing.
func countingServer(t *testing.T) (url string, hits *atomic.Int32) {
	hits = new(atomic.Int32)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprintf(w, "ok %s", r.Host)
	})
	return srv.URL, hits
}

// By default loopback is refused, at dial time, before a byte is sent.
func TestDialRefusesLoopbackByDefault(t *testing.T) {
	url, hits := countingServer(t)
	c := newClient(t, Options{})
	resp, err := c.Get(context.Background(), Request{URL: url})
	if resp != nil || !errors.Is(err, ErrPrivateAddress) {
		t.Fatalf("Get = %v, %v; want ErrPrivateAddress", resp, err)
	}
	if k := Classify(err); k != KindPrivateAddress {
		t.Errorf("Classify = %v, want private-address", k)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server got %d requests, want 0", n)
	}

	allowed := newClient(t, Options{AllowPrivate: true})
	get(t, allowed, Request{URL: url})
	if n := hits.Load(); n != 1 {
		t.Errorf("with AllowPrivate: server got %d requests, want 1", n)
	}
}

// --resolve HOST:PORT:ADDR pins a made-up name to loopback; pinning is the
// operator's explicit choice, so it is allowed without AllowPrivate. Only
// the pinned host:port is affected.
func TestResolvePinsHostToLoopback(t *testing.T) {
	url, hits := countingServer(t)
	port := url[strings.LastIndexByte(url, ':')+1:]
	key, addr, err := ParseResolve("site-a.test:" + port + ":127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{Resolve: map[string]string{key: addr}})

	resp := get(t, c, Request{URL: "http://SITE-A.test:" + port + "/"})
	if want := "ok SITE-A.test:" + port; string(resp.Body) != want {
		t.Errorf("body %q, want %q (the Host header names the site, not the address)", resp.Body, want)
	}
	// The same address under its own name is not pinned: still refused.
	if _, err := c.Get(context.Background(), Request{URL: url}); !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("unpinned %s: err = %v, want ErrPrivateAddress", url, err)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("server got %d requests, want 1", n)
	}
}

// The address is checked where it is dialled, after DNS: a public-looking
// name that resolves to loopback (DNS rebinding) is refused. A name that
// does not resolve is a DNS error (docs/robots-rules.md rule 21).
func TestDialChecksResolvedAddress(t *testing.T) {
	url, hits := countingServer(t)
	port := url[strings.LastIndexByte(url, ':')+1:]
	resolver := fakeDNS(t, map[string]string{"rebind.test": "127.0.0.1"})

	c := newClient(t, Options{Resolver: resolver})
	_, err := c.Get(context.Background(), Request{URL: "http://rebind.test:" + port + "/"})
	if !errors.Is(err, ErrPrivateAddress) {
		t.Errorf("rebind.test -> 127.0.0.1: err = %v, want ErrPrivateAddress", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("server got %d requests, want 0", n)
	}

	// The same name with AllowPrivate connects: the refusal above came
	// from the address check, not from a broken resolver.
	open := newClient(t, Options{Resolver: resolver, AllowPrivate: true})
	get(t, open, Request{URL: "http://rebind.test:" + port + "/"})

	_, err = open.Get(context.Background(), Request{URL: "http://missing.test:" + port + "/"})
	var dnsErr *net.DNSError
	if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound {
		t.Errorf("missing.test: err = %v, want a not-found DNS error", err)
	}
	if k := Classify(err); k != KindDNS {
		t.Errorf("missing.test: Classify = %v, want dns", k)
	}
}

// The address classes refused by default, and a few public neighbours.
func TestAddrClass(t *testing.T) {
	for _, tc := range []struct{ addr, class string }{
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"}, // IPv4-mapped
		{"10.1.2.3", "private"},          // RFC 1918
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"192.168.1.1", "private"},
		{"fd12:3456::1", "private"},       // RFC 4193 unique local
		{"169.254.169.254", "link-local"}, // cloud metadata
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "this-network"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"100.64.0.1", "shared"},
		{"198.18.0.1", "benchmarking"},
		{"255.255.255.255", "reserved"},
		{"fec0::1", "site-local"},
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},  // just past 172.16/12
		{"100.128.0.1", ""}, // just past 100.64/10
		{"93.184.215.14", ""},
		{"2606:4700:4700::1111", ""},
		{"::ffff:8.8.8.8", ""},
	} {
		a := netip.MustParseAddr(tc.addr)
		if got := addrClass(a); got != tc.class {
			t.Errorf("addrClass(%s) = %q, want %q", tc.addr, got, tc.class)
		}
		if isPublic(a) != (tc.class == "") {
			t.Errorf("isPublic(%s) = %v, class %q", tc.addr, isPublic(a), tc.class)
		}
	}
}

func TestParseResolve(t *testing.T) {
	for _, tc := range []struct {
		in, key, addr string
		ok            bool
	}{
		{"site-a.test:8080:127.0.0.1", "site-a.test:8080", "127.0.0.1", true},
		{"Site-A.Test:443:10.0.0.1", "site-a.test:443", "10.0.0.1", true},
		{"site-a.test:80:::1", "site-a.test:80", "::1", true},
		{"site-a.test:80:[::1]", "site-a.test:80", "::1", true},
		{"[::1]:80:127.0.0.1", "[::1]:80", "127.0.0.1", true},
		{"bücher.test:80:127.0.0.1", "xn--bcher-kva.test:80", "127.0.0.1", true},
		{"under_score.test:80:127.0.0.1", "under_score.test:80", "127.0.0.1", true},
		{"site-a.test:80", "", "", false},               // no ADDR
		{"site-a.test:80:127.0.0.1:81", "", "", false},  // ADDR with a port
		{"site-a.test:80:localhost", "", "", false},     // ADDR not an IP
		{"site-a.test:0:127.0.0.1", "", "", false},      // bad port
		{"site-a.test:http:127.0.0.1", "", "", false},   // bad port
		{":80:127.0.0.1", "", "", false},                // no host
		{"[::1:80:127.0.0.1", "", "", false},            // unclosed bracket
		{"site-a.test:80:127.0.0.1,::1", "", "", false}, // one ADDR only
	} {
		key, addr, err := ParseResolve(tc.in)
		if (err == nil) != tc.ok || key != tc.key || addr != tc.addr {
			t.Errorf("ParseResolve(%q) = %q, %q, %v; want %q, %q, ok=%v", tc.in, key, addr, err, tc.key, tc.addr, tc.ok)
		}
	}
}

func TestNewRejectsBadOptions(t *testing.T) {
	for name, opts := range map[string]Options{
		"negative timeout":   {TotalTimeout: -1},
		"negative raw limit": {MaxRawBytes: -1},
		"negative idle":      {MaxIdleConnsPerHost: -1},
		"UA with newline":    {UserAgent: "Mandelbot/1\r\nX-Evil: 1"},
		"resolve bad key":    {Resolve: map[string]string{"site-a.test": "127.0.0.1"}},
		"resolve bad addr":   {Resolve: map[string]string{"site-a.test:80": "site-b.test"}},
	} {
		if c, err := New(opts); err == nil {
			c.Close()
			t.Errorf("%s: New accepted %+v", name, opts)
		}
	}
}
