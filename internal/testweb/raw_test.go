package testweb

import (
	"io"
	"net/http"
	"testing"
	"time"
)

// Site.Raw answers what no page matches, after the request is logged; pages still win, and a
// Raw handler waiting on its request is released by Close.
func TestSiteRaw(t *testing.T) {
	waiting := make(chan struct{})
	raw := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait" {
			close(waiting)
			<-r.Context().Done()
			return
		}
		w.Header().Set("X-Raw", "yes")
		io.WriteString(w, "raw "+r.URL.Path)
	})
	web := start(t, []Site{{Key: "a", Pages: []Page{{Path: "/page", Body: "a page"}}, Raw: raw}}, Options{})
	c := newClient(t, web, 5*time.Second)
	if a := get(t, c, web.URL("a", "/robots.txt")); a.body != "raw /robots.txt" || a.header.Get("X-Raw") != "yes" {
		t.Errorf("robots.txt without Robots: %+v, want Raw's answer", a)
	}
	if a := get(t, c, web.URL("a", "/page")); a.body != "a page" {
		t.Errorf("/page: %q, want the page", a.body)
	}
	if n := web.Count("a", "/robots.txt"); n != 1 {
		t.Errorf("%d log entries for a Raw request, want 1", n)
	}
	done := make(chan error, 1)
	go func() { _, err := tryGet(c, web.URL("a", "/wait")); done <- err }()
	<-waiting
	web.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second): // a guard, not a wait: Close releases it at once
		t.Fatal("Close did not release a Raw handler waiting on its request")
	}
}
