// Package pindial is a dialer that reaches only the addresses it was given, like curl's
// --resolve, so that a benchmark's HTTP clients cannot leave the fake web on loopback.
package pindial

import (
	"context"
	"fmt"
	"net"
	"strings"
)

// Dialer dials only the addresses it was given: "host:port" (host in ASCII lower case) to
// "addr:port". It is immutable and safe for concurrent use; the zero value refuses everything.
type Dialer struct {
	to map[string]string
}

// New parses "host:port:addr" entries.
func New(entries []string) (Dialer, error) {
	d := Dialer{to: make(map[string]string, len(entries))}
	for _, e := range entries {
		host, port, addr, err := Parse(e)
		if err != nil {
			return d, err
		}
		d.to[net.JoinHostPort(LowerASCII(host), port)] = net.JoinHostPort(addr, port)
	}
	return d, nil
}

// Parse splits a "host:port:addr" entry. The host is a name (no colon); the address may be an
// IPv6 literal, with or without brackets.
func Parse(e string) (host, port, addr string, err error) {
	parts := strings.SplitN(e, ":", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", "", "", fmt.Errorf("resolve %q: want HOST:PORT:ADDR", e)
	}
	addr = strings.TrimSuffix(strings.TrimPrefix(parts[2], "["), "]")
	if net.ParseIP(addr) == nil {
		return "", "", "", fmt.Errorf("resolve %q: %q is not an IP address", e, parts[2])
	}
	return parts[0], parts[1], addr, nil
}

// DialContext is meant for http.Transport.DialContext; any address not pinned is refused.
func (d Dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", address, err)
	}
	to, ok := d.to[net.JoinHostPort(LowerASCII(host), port)]
	if !ok {
		return nil, fmt.Errorf("dial %s: not a pinned address", address)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, to)
}

// LowerASCII lower-cases ASCII letters only (host names are protocol text).
func LowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
