package fetch

import "net/netip"

// nonPublicRanges are ranges refused by default besides those netip names
// (loopback, private, link-local, unspecified, multicast).
var nonPublicRanges = [...]netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // "this network" (RFC 791); 0.x reaches the host itself on Linux
	netip.MustParsePrefix("100.64.0.0/10"),  // shared address space, carrier NAT (RFC 6598)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments (RFC 6890)
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking (RFC 2544)
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, and 255.255.255.255 broadcast (RFC 1112, RFC 919)
	netip.MustParsePrefix("fec0::/10"),      // deprecated site-local, still routed inside some networks (RFC 3879)
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64 (RFC 8215)
}

// isPublic reports whether the crawler may dial a by default: false for
// loopback, private (RFC 1918, RFC 4193), link-local, unspecified and
// multicast addresses and for nonPublicRanges. IPv4-mapped IPv6 addresses
// are judged as the IPv4 address they carry.
func isPublic(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsUnspecified() || a.IsLoopback() || a.IsPrivate() ||
		a.IsLinkLocalUnicast() || a.IsMulticast() {
		return false
	}
	a = a.WithZone("")
	for _, p := range nonPublicRanges {
		if p.Contains(a) {
			return false
		}
	}
	return true
}
