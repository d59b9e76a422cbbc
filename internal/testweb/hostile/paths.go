package hostile

// Paths of a hostile origin. Each answers the same way on every request.
// Without Options.Robots, /robots.txt allows everything but /private (and
// names the four sitemap bombs with Options.Sitemaps).
const (
	// PathIndex links to every page below (the robots.txt variants aside):
	// the seed of a crawl of all of them.
	PathIndex = "/"

	// PathGzipBomb, PathBrotliBomb and PathZstdBomb are HTML pages sent with
	// Content-Encoding gzip, br and zstd that decode to BombSize bytes.
	PathGzipBomb   = "/bomb/gzip"
	PathBrotliBomb = "/bomb/br"
	PathZstdBomb   = "/bomb/zstd"

	// PathSitemapGzipBomb, PathSitemapBrotliBomb and PathSitemapZstdBomb are
	// sitemaps (application/xml) in those content codings whose <urlset>
	// repeats one <url> entry for BombSize bytes.
	PathSitemapGzipBomb   = "/sitemap/bomb/gzip"
	PathSitemapBrotliBomb = "/sitemap/bomb/br"
	PathSitemapZstdBomb   = "/sitemap/bomb/zstd"
	// PathSitemapGzipFile is the same sitemap served as a .xml.gz file
	// (gzip inside the body, no Content-Encoding): sitemap.Parse unzips it.
	PathSitemapGzipFile = "/sitemap/bomb.xml.gz"

	// PathRobotsGzipBomb, PathRobotsBrotliBomb and PathRobotsZstdBomb are
	// robots.txt bodies (text/plain) in those codings: "User-agent: *" and
	// "Disallow: /private" and then BombSize bytes of comment lines.
	PathRobotsGzipBomb   = "/robots/bomb/gzip"
	PathRobotsBrotliBomb = "/robots/bomb/br"
	PathRobotsZstdBomb   = "/robots/bomb/zstd"
	// PathRobotsLarge is a 5 MB robots.txt (RobotsLargeSize) whose only
	// rule, "Disallow: /late", comes after the first 4 MB.
	PathRobotsLarge = "/robots/large"
	// PathRobotsBinary is 64 KiB of random bytes with NULs, as text/plain.
	PathRobotsBinary = "/robots/binary"
	// PathRobotsHTML is an HTML page (a soft 404) answered with 200.
	PathRobotsHTML = "/robots/html"

	// PathDrip sends a 200 header and then one byte every DripEvery, for
	// ever: only a total timeout ends it.
	PathDrip = "/drip"
	// PathStall sends a 200 header and the first 1 KiB of a body announced
	// as 1 MiB, then nothing until the client gives up.
	PathStall = "/stall"
	// PathHang never answers: no status line, no header.
	PathHang = "/hang"
	// PathBreak sends a 200 header and 1 KiB of a 1 MiB body, then resets
	// the connection.
	PathBreak = "/break"
	// PathReset resets the connection before answering anything.
	PathReset = "/reset"

	// PathLoopA and PathLoopB redirect (302) to each other.
	PathLoopA = "/loop/a"
	PathLoopB = "/loop/b"
	// PathChain is the start of a chain of ChainHops 301 redirects,
	// PathChain+"/50" to PathChain+"/49" ... to PathChain+"/0", a page.
	PathChain = "/chain/50"
	// PathSchemePrefix+s redirects to a URL of scheme s: "ftp", "file",
	// "javascript", "data", "mailto", "gopher".
	PathSchemePrefix = "/redirect/scheme/"
	// PathPrivatePrefix+n redirects to the n-th of PrivateTargets.
	PathPrivatePrefix = "/redirect/private/"

	// PathLongLine is a 10 MB HTML document on one line (LongLineSize), as
	// minified pages are: small elements without a newline, and a link at
	// the end.
	PathLongLine = "/long-line"
	// PathNoLength is a 50 MB HTML body (NoLengthSize) sent chunked, without
	// Content-Length.
	PathNoLength = "/no-length"
	// PathManyLinks is an HTML page of ManyLinks distinct links.
	PathManyLinks = "/many-links"
	// PathInvalidUTF8 is an HTML page declared UTF-8 whose title and text
	// hold invalid UTF-8 sequences and NUL bytes.
	PathInvalidUTF8 = "/invalid-utf8"
	// PathDeepNesting is an HTML page of NestingDepth nested <div>s with a
	// link in the innermost.
	PathDeepNesting = "/deep-nesting"
	// PathHugeHeader answers 200 with one header field of HugeHeaderSize
	// bytes (over fetch's 1 MiB header limit).
	PathHugeHeader = "/header/huge"
	// PathManyHeaders answers 200 with ManyHeaders header fields.
	PathManyHeaders = "/header/many"

	// PathCalendarPrefix+"YYYY/MM" is a calendar page linking to the next
	// and the previous month, without end (a crawler trap).
	PathCalendarPrefix = "/cal/"
	// PathGrowth is "/a/"; every "/a/.../a/" page links to "a/", relative,
	// so the path grows by one segment per link followed.
	PathGrowth = "/a/"

	// PathBogusPrefix+n answers the n-th of BogusResponses, raw bytes
	// written on the connection in place of an HTTP response.
	PathBogusPrefix = "/bogus/"
)

// Sizes of the hostile answers.
const (
	BombSize        = 128 << 20  // decoded size of every bomb: past every body limit
	RobotsLargeSize = 5_000_000  // PathRobotsLarge
	LongLineSize    = 10_000_000 // PathLongLine
	NoLengthSize    = 50_000_000 // PathNoLength
	ManyLinks       = 200_000    // PathManyLinks
	NestingDepth    = 100_000    // PathDeepNesting
	HugeHeaderSize  = 2 << 20    // PathHugeHeader
	ManyHeaders     = 10_000     // PathManyHeaders
	ChainHops       = 50         // PathChain
)

// PrivateTargets are where PathPrivatePrefix redirects: loopback, private,
// link-local (cloud metadata) and unspecified addresses.
var PrivateTargets = []string{
	"http://127.0.0.1/",
	"http://10.0.0.1/admin",
	"http://192.168.1.1/",
	"http://169.254.169.254/latest/meta-data/",
	"http://[::1]/",
	"http://0.0.0.0/",
	"http://localhost/",
}

// Schemes are the non-http schemes PathSchemePrefix redirects to.
var Schemes = []string{"ftp", "file", "javascript", "data", "mailto", "gopher"}

// BogusResponses are written raw by PathBogusPrefix+"0" and on.
var BogusResponses = []string{
	"HTTP/1.1 abc OK\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.1 99999 Huge\r\nContent-Length: 2\r\n\r\nok",
	"HTTP/1.1 -200 Negative\r\nContent-Length: 2\r\n\r\nok",
	"SPDY/9 200 OK\r\n\r\n",
	"this is not HTTP at all\r\n\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello",
	"HTTP/1.1 200 OK\r\nBad Header Without Colon\r\n\r\n",
	"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n", // ends inside the header
	"\x00\x01\x02\xff\xfe binary garbage",
}
