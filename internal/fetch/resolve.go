package fetch

import (
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"

	"golang.org/x/net/idna"
)

// ParseResolve splits curl's --resolve syntax, "HOST:PORT:ADDR", into the
// key and value of Options.Resolve: "HOST:PORT" and ADDR. HOST may be an
// IPv6 literal in brackets; ADDR is one IP address, bare or in brackets. As
// in curl, the connection goes to ADDR on the same PORT.
//
//	ParseResolve("site-a.test:8080:127.0.0.1") // "site-a.test:8080", "127.0.0.1"
func ParseResolve(s string) (hostport, addr string, err error) {
	var host, rest string
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 || end+1 >= len(s) || s[end+1] != ':' {
			return "", "", fmt.Errorf("fetch: parse resolve %q: want HOST:PORT:ADDR", s)
		}
		host, rest = s[1:end], s[end+2:]
	} else {
		var ok bool
		host, rest, ok = strings.Cut(s, ":")
		if !ok {
			return "", "", fmt.Errorf("fetch: parse resolve %q: want HOST:PORT:ADDR", s)
		}
	}
	port, addr, ok := strings.Cut(rest, ":")
	if !ok {
		return "", "", fmt.Errorf("fetch: parse resolve %q: want HOST:PORT:ADDR", s)
	}
	key, err := resolveKey(net.JoinHostPort(host, port))
	if err != nil {
		return "", "", fmt.Errorf("fetch: parse resolve %q: %w", s, err)
	}
	ip, err := parseResolveAddr(addr)
	if err != nil {
		return "", "", fmt.Errorf("fetch: parse resolve %q: %w", s, err)
	}
	return key, ip.String(), nil
}

// normalizeResolve checks an Options.Resolve map and returns a copy keyed
// the way the transport names the address it dials: lower-case ASCII host
// (IDNA A-label) and port.
func normalizeResolve(m map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, v := range m {
		key, err := resolveKey(k)
		if err != nil {
			return nil, fmt.Errorf("resolve key %q: %w", k, err)
		}
		ip, err := parseResolveAddr(v)
		if err != nil {
			return nil, fmt.Errorf("resolve[%q]: %w", k, err)
		}
		out[key] = ip.String()
	}
	return out, nil
}

// resolveKey normalizes "host:port" so that keys given by the operator and
// addresses handed to the dialer compare equal.
func resolveKey(hostport string) (string, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", err
	}
	if host == "" {
		return "", fmt.Errorf("empty host in %q", hostport)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", fmt.Errorf("bad port %q", port)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		return net.JoinHostPort(ip.String(), port), nil
	}
	// Like net/http, convert only non-ASCII names with IDNA, so that names
	// IDNA would reject but DNS serves (underscores) still work.
	if !isASCII(host) {
		a, err := idna.Lookup.ToASCII(host)
		if err != nil {
			return "", fmt.Errorf("host %q: %w", host, err)
		}
		host = a
	}
	return net.JoinHostPort(lowerASCII(host), port), nil
}

// parseResolveAddr parses the ADDR part: an IP address, optionally in
// brackets. A port is not allowed: the port is the key's.
func parseResolveAddr(s string) (netip.Addr, error) {
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = s[1 : len(s)-1]
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("address %q is not an IP address", s)
	}
	return ip, nil
}
