package hostile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/internal/testweb"
)

// DefaultDripEvery is the gap between two bytes of PathDrip.
const DefaultDripEvery = 100 * time.Millisecond

// Options configure a hostile origin. The zero value is ready to use.
type Options struct {
	// Robots chooses what /robots.txt answers: one of the Path constants
	// (PathRobotsGzipBomb, PathDrip, ...), served as if it were asked for.
	// Empty: a plain robots.txt that allows everything but /private.
	Robots string
	// Sitemaps makes the plain robots.txt name the four sitemap bombs.
	Sitemaps bool
	// DripEvery is the gap between two bytes of PathDrip (default
	// DefaultDripEvery).
	DripEvery time.Duration
	// Bombs, when set, is the bomb cache to use, shared with other
	// Handlers (and warmed beforehand); nil means one of its own.
	Bombs *Bombs
}

// Handler serves the paths of a hostile origin. Create it with NewHandler;
// it is safe for concurrent use. Requests that wait (drip, stall, hang) end
// when the client goes away or the request's context ends.
type Handler struct {
	opts  Options
	bombs *Bombs
}

// NewHandler returns a Handler for opts.
func NewHandler(opts Options) *Handler {
	if opts.DripEvery <= 0 {
		opts.DripEvery = DefaultDripEvery
	}
	if opts.Bombs == nil {
		opts.Bombs = &Bombs{}
	}
	return &Handler{opts: opts, bombs: opts.Bombs}
}

// Site returns a testweb site with key whose every request is answered by a
// Handler for opts.
func Site(key string, opts Options) testweb.Site {
	return testweb.Site{Key: key, Raw: NewHandler(opts)}
}

// RobotsVariants are the robots.txt answers Sites serves, one site each.
var RobotsVariants = []string{
	PathRobotsGzipBomb, PathRobotsBrotliBomb, PathRobotsZstdBomb,
	PathRobotsLarge, PathRobotsBinary, PathRobotsHTML,
	PathDrip, PathStall, PathHang, PathBreak, PathReset, PathLoopA, PathChain,
}

// Sites is a whole hostile web: the site "hostile" (seed it at PathIndex to
// reach every page; its robots.txt names the sitemap bombs) and one site per robots.txt answer of RobotsVariants,
// keyed "robots-1", "robots-2", ... in that order, each also serving every
// hostile page, all sharing bombs (nil: each its own). Add a normal site
// beside them to check that it is still crawled completely.
func Sites(bombs *Bombs) []testweb.Site {
	sites := []testweb.Site{Site("hostile", Options{Sitemaps: true, Bombs: bombs})}
	for i, v := range RobotsVariants {
		sites = append(sites, Site("robots-"+strconv.Itoa(i+1), Options{Robots: v, Bombs: bombs}))
	}
	return sites
}

// ServeHTTP answers one request.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	if path == "/robots.txt" {
		if h.opts.Robots == "" {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
			for _, p := range sitemapBombs {
				if h.opts.Sitemaps {
					fmt.Fprintf(w, "Sitemap: http://%s%s\n", r.Host, p)
				}
			}
			return
		}
		path = h.opts.Robots
	}
	if path == PathIndex {
		index(w)
		return
	}
	switch {
	case h.bomb(w, path):
	case strings.HasPrefix(path, PathSchemePrefix):
		redirect(w, strings.TrimPrefix(path, PathSchemePrefix)+schemeRest(strings.TrimPrefix(path, PathSchemePrefix)), http.StatusFound)
	case strings.HasPrefix(path, PathPrivatePrefix):
		i, err := strconv.Atoi(strings.TrimPrefix(path, PathPrivatePrefix))
		if err != nil || i < 0 || i >= len(PrivateTargets) {
			http.NotFound(w, r)
			return
		}
		redirect(w, PrivateTargets[i], http.StatusFound)
	case strings.HasPrefix(path, "/chain/"):
		n, err := strconv.Atoi(strings.TrimPrefix(path, "/chain/"))
		switch {
		case err != nil || n < 0 || n > ChainHops:
			http.NotFound(w, r)
		case n == 0:
			html(w, "<!doctype html><title>end of the chain</title><p>50 hops later.")
		default:
			redirect(w, "/chain/"+strconv.Itoa(n-1), http.StatusMovedPermanently)
		}
	case strings.HasPrefix(path, PathCalendarPrefix):
		calendar(w, r, strings.TrimPrefix(path, PathCalendarPrefix))
	case strings.HasPrefix(path, PathGrowth):
		growth(w, r, path)
	case strings.HasPrefix(path, PathBogusPrefix):
		i, err := strconv.Atoi(strings.TrimPrefix(path, PathBogusPrefix))
		if err != nil || i < 0 || i >= len(BogusResponses) {
			http.NotFound(w, r)
			return
		}
		raw(w, BogusResponses[i])
	default:
		h.other(w, r, path)
	}
}

func (h *Handler) other(w http.ResponseWriter, r *http.Request, path string) {
	switch path {
	case PathRobotsLarge:
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(RobotsLargeSize))
		bw := bufio.NewWriter(w)
		bw.WriteString("User-agent: *\n")
		line := "# " + strings.Repeat("filler ", 13) + "\n" // 100 bytes
		n := 14
		for ; n < 4_000_000; n += len(line) {
			bw.WriteString(line)
		}
		bw.WriteString("Disallow: /late\n")
		n += len("Disallow: /late\n")
		for ; n+len(line) <= RobotsLargeSize; n += len(line) {
			bw.WriteString(line)
		}
		bw.WriteString(strings.Repeat("#", RobotsLargeSize-n))
		bw.Flush()
	case PathRobotsBinary:
		w.Header().Set("Content-Type", "text/plain")
		b := make([]byte, 64<<10)
		rng := rand.New(rand.NewPCG(9, 9))
		for i := range b {
			b[i] = byte(rng.Uint32())
			if i%7 == 0 {
				b[i] = 0
			}
		}
		w.Write(b)
	case PathRobotsHTML:
		html(w, "<!doctype html><html><head><title>Page not found</title></head><body><h1>Oops</h1><p>Disallow: /html-trap</p></body></html>")
	case PathDrip:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		t := time.NewTicker(h.opts.DripEvery)
		defer t.Stop()
		for {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			http.NewResponseController(w).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-t.C:
			}
		}
	case PathStall:
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(1<<20))
		w.Write(make([]byte, 1<<10))
		http.NewResponseController(w).Flush()
		<-r.Context().Done()
		panic(http.ErrAbortHandler)
	case PathHang:
		<-r.Context().Done()
		panic(http.ErrAbortHandler)
	case PathBreak:
		conn, bw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		bw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1048576\r\n\r\n")
		bw.Write(make([]byte, 1<<10))
		bw.Flush()
		resetConn(conn)
	case PathReset:
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(http.ErrAbortHandler)
		}
		resetConn(conn)
	case PathLoopA:
		redirect(w, PathLoopB, http.StatusFound)
	case PathLoopB:
		redirect(w, PathLoopA, http.StatusFound)
	case PathLongLine:
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(LongLineSize))
		head := "<!doctype html><title>one line</title><p>"
		tail := `<a href="/after-the-line">after</a>`
		bw := bufio.NewWriter(w)
		bw.WriteString(head)
		writeRepeat(bw, "<span>one long line</span> ", LongLineSize-len(head)-len(tail))
		bw.WriteString(tail)
		bw.Flush()
	case PathNoLength:
		w.Header().Set("Content-Type", "text/html")
		head := "<!doctype html><title>no length</title><p>"
		bw := bufio.NewWriterSize(w, 64<<10)
		bw.WriteString(head)
		writeRepeat(bw, "chunked text without a length. ", NoLengthSize-len(head))
		bw.Flush()
	case PathManyLinks:
		w.Header().Set("Content-Type", "text/html")
		bw := bufio.NewWriter(w)
		bw.WriteString("<!doctype html><title>many links</title>\n")
		for i := range ManyLinks {
			fmt.Fprintf(bw, "<a href=\"/l/%d\">%d</a>\n", i, i)
		}
		bw.Flush()
	case PathInvalidUTF8:
		html(w, "<!doctype html><meta charset=utf-8><title>bad \xff\xfe title\x00</title><p>text \x00 with NUL\x00 and \xc3\x28 and \xed\xa0\x80 surrogate and \xf8\x88\x80\x80\x80 five bytes</p><a href=\"/ok\x00\">link</a>")
	case PathDeepNesting:
		w.Header().Set("Content-Type", "text/html")
		bw := bufio.NewWriter(w)
		bw.WriteString("<!doctype html><title>deep</title>")
		writeRepeat(bw, "<div>", NestingDepth*5)
		bw.WriteString(`<a href="/deep-link">deep</a>`)
		writeRepeat(bw, "</div>", NestingDepth*6)
		bw.Flush()
	case PathHugeHeader:
		w.Header().Set("X-Huge", strings.Repeat("h", HugeHeaderSize))
		html(w, "<!doctype html><title>huge header</title>")
	case PathManyHeaders:
		for i := range ManyHeaders {
			w.Header().Set("X-Many-"+strconv.Itoa(i), "v")
		}
		html(w, "<!doctype html><title>many headers</title>")
	default:
		http.NotFound(w, r)
	}
}

var sitemapBombs = []string{PathSitemapGzipBomb, PathSitemapBrotliBomb, PathSitemapZstdBomb, PathSitemapGzipFile}

// index links to every hostile page but the robots.txt variants.
func index(w http.ResponseWriter) {
	links := []string{PathGzipBomb, PathBrotliBomb, PathZstdBomb, PathDrip, PathStall, PathHang, PathBreak, PathReset,
		PathLoopA, PathChain, PathLongLine, PathNoLength, PathManyLinks, PathInvalidUTF8, PathDeepNesting,
		PathHugeHeader, PathManyHeaders, PathCalendarPrefix + "2026/11", PathGrowth}
	for _, s := range Schemes {
		links = append(links, PathSchemePrefix+s)
	}
	for i := range PrivateTargets {
		links = append(links, PathPrivatePrefix+strconv.Itoa(i))
	}
	for i := range BogusResponses {
		links = append(links, PathBogusPrefix+strconv.Itoa(i))
	}
	var b strings.Builder
	b.WriteString("<!doctype html><title>A hostile origin</title>\n")
	for _, l := range links {
		fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", l, l)
	}
	html(w, b.String())
}

// bomb serves path if it is one of the bombs, and reports whether it was.
func (h *Handler) bomb(w http.ResponseWriter, path string) bool {
	kind, c, ctype := pageBomb, coding(""), "text/html"
	switch path {
	case PathGzipBomb:
		c = gzipCoding
	case PathBrotliBomb:
		c = brotliCoding
	case PathZstdBomb:
		c = zstdCoding
	case PathSitemapGzipBomb, PathSitemapGzipFile:
		kind, c, ctype = sitemapBomb, gzipCoding, "application/xml"
	case PathSitemapBrotliBomb:
		kind, c, ctype = sitemapBomb, brotliCoding, "application/xml"
	case PathSitemapZstdBomb:
		kind, c, ctype = sitemapBomb, zstdCoding, "application/xml"
	case PathRobotsGzipBomb:
		kind, c, ctype = robotsBomb, gzipCoding, "text/plain"
	case PathRobotsBrotliBomb:
		kind, c, ctype = robotsBomb, brotliCoding, "text/plain"
	case PathRobotsZstdBomb:
		kind, c, ctype = robotsBomb, zstdCoding, "text/plain"
	default:
		return false
	}
	body := h.bombs.get(kind, c)
	if path == PathSitemapGzipFile {
		ctype = "application/gzip"
	} else {
		w.Header().Set("Content-Encoding", string(c))
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
	return true
}

func schemeRest(scheme string) string {
	switch scheme {
	case "javascript":
		return ":alert(1)"
	case "data":
		return ":text/html,<p>hi"
	case "mailto":
		return ":bot@example.com"
	case "file":
		return ":///etc/passwd"
	}
	return "://example.com/file"
}

func redirect(w http.ResponseWriter, to string, code int) {
	w.Header().Set("Location", to)
	w.WriteHeader(code)
}

func html(w http.ResponseWriter, body string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(body))
}

// calendar serves "YYYY/MM" with links to the month before and after.
func calendar(w http.ResponseWriter, r *http.Request, ym string) {
	t, err := time.Parse("2006/01", ym)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	next, prev := t.AddDate(0, 1, 0), t.AddDate(0, -1, 0)
	html(w, fmt.Sprintf(`<!doctype html><title>%s</title><p>Nothing on.</p><a href="%s%s">next</a> <a href="%s%s">previous</a>`,
		t.Format("January 2006"), PathCalendarPrefix, next.Format("2006/01"), PathCalendarPrefix, prev.Format("2006/01")))
}

// growth serves "/a/.../a/" pages linking to "a/", relative.
func growth(w http.ResponseWriter, r *http.Request, path string) {
	if strings.Trim(strings.ReplaceAll(path, "/a", ""), "/") != "" {
		http.NotFound(w, r)
		return
	}
	html(w, fmt.Sprintf(`<!doctype html><title>depth %d</title><a href="a/">deeper</a>`, strings.Count(path, "/a")))
}

// raw writes s on the hijacked connection in place of a response.
func raw(w http.ResponseWriter, s string) {
	conn, bw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	bw.WriteString(s)
	bw.Flush()
	conn.Close()
}

// resetConn closes c with RST.
func resetConn(c net.Conn) {
	if tcp, ok := c.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	c.Close()
}

func writeRepeat(w *bufio.Writer, unit string, n int) {
	for n >= len(unit) {
		w.WriteString(unit)
		n -= len(unit)
	}
	w.WriteString(unit[:n])
}

// Serve starts h on a fresh 127.0.0.1 port and returns its base URL
// ("http://127.0.0.1:PORT") and a function that stops it and ends every
// request still waiting.
func Serve(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("hostile: listen: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &http.Server{Handler: h, BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog: log.New(io.Discard, "", 0)}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { cancel(); srv.Close() }, nil
}
