package fetch

import (
	"net/netip"
	"strings"
)

// HostClass returns why the dialer would refuse host by default ("loopback", "private",
// "link-local", ...) when host is an IP literal (IPv6 with or without brackets) or "localhost"
// or a name under it; "" when host is a public address or any other name, whose addresses the
// dialer checks when it resolves them. It lets a caller refuse a seed before any work starts,
// with the same rule the dialer applies.
func HostClass(host string) string {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "loopback"
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if err != nil {
		return ""
	}
	return addrClass(a)
}
