package urlnorm

import "golang.org/x/net/publicsuffix"

// RegistrableDomain returns the host's registrable domain (eTLD+1) by the
// public suffix list compiled into golang.org/x/net/publicsuffix, private
// suffixes included: "www.example.co.uk" gives "example.co.uk", and
// "alice.github.io" gives "alice.github.io" because github.io is a public
// suffix (its users are different sites). It returns the host itself when
// there is no registrable domain: an IP address, a single label such as
// "localhost", or a host that is itself a public suffix ("co.uk").
//
// It is what --scope domain compares.
func (u *URL) RegistrableDomain() string {
	host := u.Host()
	if u.ip != notIP {
		return host
	}
	d, err := publicsuffix.EffectiveTLDPlusOne(host)
	if err != nil {
		return host
	}
	return d
}
