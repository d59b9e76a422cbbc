package sqlite

import (
	"errors"
	"testing"

	"github.com/fractle/mandelbot/internal/store"
)

// store.Reader: "An error from fn stops the walk and is returned." EachURL and EachOrigin read
// their rows through stream (rows.go), which must return fn's error as it is (not wrapped, so
// that a caller may compare it) and call fn no more once it has failed.
func TestEachURLAndEachOriginReturnFnsErrorAsItIs(t *testing.T) {
	s, _ := openTemp(t)
	var news []store.NewURL
	for _, u := range []string{"http://a.test/", "http://a.test/x", "http://b.test/", "http://c.test/"} {
		news = append(news, newURL(u, u[:len("http://a.test")]))
	}
	if _, err := s.Commit(t.Context(), store.Batch{New: news}); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	urls := 0
	if err := s.EachURL(t.Context(), func(store.URL) error { urls++; return stop }); err != stop || urls != 1 {
		t.Errorf("EachURL: %v after %d calls; want %v after 1", err, urls, stop)
	}
	origins := 0
	if err := s.EachOrigin(t.Context(), func(store.Origin) error { origins++; return stop }); err != stop || origins != 1 {
		t.Errorf("EachOrigin: %v after %d calls; want %v after 1", err, origins, stop)
	}
}
