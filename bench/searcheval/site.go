package main

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
)

// indexFile is the page a directory URL serves.
const indexFile = "index.html"

// site serves a directory of static files as a plain static web server does: "/dir/" answers
// with dir/index.html, and "/dir/index.html" answers too, with the same bytes (no redirect
// between them: many servers do not, and the index must cope). Paths outside the directory
// are unreachable (os.Root). Every request is counted by status. Safe for concurrent use.
type site struct {
	root *os.Root

	mu       sync.Mutex
	byStatus map[int]int
	requests atomic.Int64
}

// newSite serves dir; the caller closes it.
func newSite(dir string) (*site, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("serve %s: %w", dir, err)
	}
	return &site{root: root, byStatus: map[int]int{}}, nil
}

func (s *site) Close() error { return s.root.Close() }

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	status := s.serve(w, r)
	s.requests.Add(1)
	s.mu.Lock()
	s.byStatus[status]++
	s.mu.Unlock()
}

// serve answers r and returns the status it sent.
func (s *site) serve(w http.ResponseWriter, r *http.Request) int {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return http.StatusMethodNotAllowed
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" || strings.HasSuffix(r.URL.Path, "/") {
		name = path.Join(name, indexFile)
	}
	f, err := s.root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return http.StatusNotFound
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		http.NotFound(w, r)
		return http.StatusNotFound
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	http.ServeContent(rec, r, name, st.ModTime(), f)
	return rec.status
}

// Counts returns the number of requests answered and how many got each status.
func (s *site) Counts() (int64, map[int]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[int]int, len(s.byStatus))
	for k, v := range s.byStatus {
		out[k] = v
	}
	return s.requests.Load(), out
}

// statusRecorder remembers the status ServeContent sends (200, 206, 304, 412, 416).
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// listen serves h on a free port of 127.0.0.1 until the returned stop function is called;
// it returns the port.
func listen(h http.Handler) (port int, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, nil, fmt.Errorf("listen on loopback: %w", err)
	}
	srv := &http.Server{Handler: h}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "searcheval: serve: %v\n", err)
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, func() { srv.Close(); <-done }, nil
}

// htmlPages counts the .html files under dir.
func htmlPages(dir string) (int, error) {
	n := 0
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".html") {
			n++
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("count pages of %s: %w", dir, err)
	}
	return n, nil
}
