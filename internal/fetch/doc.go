// Package fetch is Mandelbot's HTTP client: it fetches one URL and reports
// what the server said.
//
// Policy lives elsewhere. fetch does not consult robots.txt, does not pause
// or pace origins and does not follow redirects: a 3xx comes back as a
// [Response] whose Location is already resolved to an absolute URL, so the
// crawler can send the target through the frontier and the robots check like
// any other URL (docs/design.md, "The road a URL takes").
//
// What fetch does own is the list of net/http traps in docs/design.md:
//
//   - HTTP/2 stays on although the Transport is custom;
//   - connect, TLS handshake, response header and total timeouts, each with a
//     named default ([DefaultConnectTimeout] and friends);
//   - the raw body (bytes as received) and the decoded body (after content
//     decoding) are both limited; hitting a limit is a result
//     ([Response.Truncated]), not an error;
//   - Accept-Encoding is set here and gzip, br and zstd are decoded here, so a
//     corrupt body is reported ([ErrDecode]) instead of being passed on;
//   - the dialer refuses non-public addresses unless the operator chose them
//     ([Options.AllowPrivate], [Options.Resolve]), checking the address
//     actually dialled so DNS rebinding cannot get around it.
//
// Memory has one bound (issue 9): every body Get buffers, with its decoder's
// window, is charged to a byte budget ([Options.Budget], by default
// [DefaultMaxBufferedBytes] per client) until the caller calls
// [Response.Release]; a request that would exceed it waits. [Client.Stream]
// hands a body to a consumer (sitemap.Parse) as it arrives, charging only
// its buffers. A body that stalls ([Options.BodyIdleTimeout]) or breaks off
// after the header is an error, never a short success.
//
// A non-2xx status is a result, not an error. Errors can be sorted into the
// kinds the robots.txt status rules need with [Classify].
package fetch
