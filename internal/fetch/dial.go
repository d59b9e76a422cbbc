package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"syscall"
	"time"
)

// tcpKeepAlive is the keep-alive probe period of dialled connections.
const tcpKeepAlive = 30 * time.Second

// dialer opens the transport's connections. Addresses pinned by
// Options.Resolve are dialled as given; everything else goes through a
// net.Dialer whose Control hook checks each address right before connect.
// Checking there, not on the name, is what stops DNS rebinding: the address
// judged is the address used. dialer is safe for concurrent use.
type dialer struct {
	resolve map[string]string // normalized "host:port" -> IP
	direct  *net.Dialer       // pinned addresses, or everything with AllowPrivate
	guarded *net.Dialer       // refuses non-public addresses
	public  bool              // use guarded for names not in resolve
}

func newDialer(c config) *dialer {
	direct := &net.Dialer{Timeout: c.connectTimeout, KeepAlive: tcpKeepAlive, Resolver: c.resolver}
	guarded := *direct
	guarded.ControlContext = refuseNonPublic
	return &dialer{resolve: c.resolve, direct: direct, guarded: &guarded, public: !c.allowPrivate}
}

// DialContext has the signature of http.Transport.DialContext; addr is the
// "host:port" of the request URL.
func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if key, err := resolveKey(addr); err == nil {
		if ip, ok := d.resolve[key]; ok {
			_, port, _ := net.SplitHostPort(key)
			return d.direct.DialContext(ctx, network, net.JoinHostPort(ip, port))
		}
	}
	if d.public {
		return d.guarded.DialContext(ctx, network, addr)
	}
	return d.direct.DialContext(ctx, network, addr)
}

// refuseNonPublic is a net.Dialer ControlContext hook: it runs after the
// name is resolved and before connect, with the "ip:port" about to be used.
// An address that does not parse is refused too.
func refuseNonPublic(_ context.Context, _, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w (unparsable %q)", ErrPrivateAddress, address)
	}
	if class := addrClass(ap.Addr()); class != "" {
		return fmt.Errorf("%w (%s)", ErrPrivateAddress, class)
	}
	return nil
}
