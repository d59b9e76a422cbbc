package testweb

import (
	"crypto/tls"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"
)

// start starts a web for one test and closes it when the test ends.
func start(t *testing.T, sites []Site, opts Options) *Web {
	t.Helper()
	w, err := Start(sites, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(w.Close)
	return w
}

// newClient is a plain net/http client that reaches the sites by host name through
// DialContext (what --resolve does), trusts the TLS sites, keeps HTTP/2 and does not
// follow redirects.
func newClient(t *testing.T, w *Web, timeout time.Duration) *http.Client {
	t.Helper()
	tr := &http.Transport{
		DialContext:       w.DialContext,
		TLSClientConfig:   &tls.Config{RootCAs: w.RootCAs()},
		ForceAttemptHTTP2: true, // a custom DialContext/TLS config drops HTTP/2 otherwise
	}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{
		Transport:     tr,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

type answer struct {
	status int
	header http.Header
	body   string
	proto  int
}

// get fetches url and fails the test on a transport error.
func get(t *testing.T, c *http.Client, url string, hdr ...string) answer {
	t.Helper()
	a, err := tryGet(c, url, hdr...)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return a
}

// tryGet fetches url with optional header name/value pairs.
func tryGet(c *http.Client, url string, hdr ...string) (answer, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return answer{}, err
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Add(hdr[i], hdr[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return answer{}, err
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: string(b), proto: resp.ProtoMajor}, nil
}

// fakeClock is a settable clock for Options.Now.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// statuses returns the logged statuses of the requests to key.
func statuses(w *Web, key string) []int {
	var out []int
	for _, r := range w.RequestsTo(key) {
		out = append(out, r.Status)
	}
	return out
}
