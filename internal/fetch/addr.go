package fetch

import "net/netip"

// nonPublicRanges are ranges refused by default besides those netip names
// (loopback, private, link-local, unspecified, multicast), each with the
// name given in the refusal.
var nonPublicRanges = [...]struct {
	prefix netip.Prefix
	name   string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "this-network"},         // RFC 791; 0.x reaches the host itself on Linux
	{netip.MustParsePrefix("100.64.0.0/10"), "shared"},           // carrier NAT (RFC 6598)
	{netip.MustParsePrefix("192.0.0.0/24"), "ietf-protocol"},     // RFC 6890
	{netip.MustParsePrefix("198.18.0.0/15"), "benchmarking"},     // RFC 2544
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved"},           // and 255.255.255.255 broadcast (RFC 1112, RFC 919)
	{netip.MustParsePrefix("fec0::/10"), "site-local"},           // deprecated, still routed inside some networks (RFC 3879)
	{netip.MustParsePrefix("64:ff9b:1::/48"), "local-use-nat64"}, // RFC 8215
}

// addrClass returns why the dialer refuses a by default ("loopback",
// "private", "link-local", ...), or "" when a is public. IPv4-mapped IPv6
// addresses are judged as the IPv4 address they carry.
func addrClass(a netip.Addr) string {
	a = a.Unmap()
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsUnspecified():
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate():
		return "private" // RFC 1918, RFC 4193
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast():
		return "multicast"
	}
	a = a.WithZone("")
	for _, r := range nonPublicRanges {
		if r.prefix.Contains(a) {
			return r.name
		}
	}
	return ""
}

// isPublic reports whether the crawler may dial a by default.
func isPublic(a netip.Addr) bool { return addrClass(a) == "" }
