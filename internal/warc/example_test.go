package warc_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"

	"github.com/fractle/mandelbot/internal/warc"
)

// The whole path of an archived fetch: a Transport wired to the Dialer, a
// Recorder per exchange, WriteExchange, and Sync before the Refs are
// committed.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "hello")
	}))
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "warc-example")
	defer os.RemoveAll(dir)

	d := &warc.Dialer{Dial: (&net.Dialer{}).DialContext}
	tr := &http.Transport{DialContext: d.DialContext, DialTLSContext: d.DialTLSContext, DisableCompression: true}
	defer tr.CloseIdleConnections()
	w, err := warc.New(warc.Options{Dir: dir})
	if err != nil {
		panic(err)
	}

	rec := warc.NewRecorder(warc.DefaultMaxCaptureBytes)
	req, _ := http.NewRequestWithContext(warc.WithRecorder(context.Background(), rec), http.MethodGet, srv.URL+"/hi", nil)
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		panic(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := rec.Done(); err != nil {
		panic(err)
	}
	refs, err := w.WriteExchange(warc.Exchange{
		TargetURI: srv.URL + "/hi", IP: rec.RemoteIP(),
		Request: rec.Request(), Response: rec.Response(), Truncated: rec.Truncated(),
	})
	if err != nil {
		panic(err) // a crawler stops here: the disk is full or failing
	}
	if err := w.Sync(); err != nil {
		panic(err) // and here; only now may refs go into the store
	}
	fmt.Println(refs.Response.Offset > 0, refs.Request.Offset > refs.Response.Offset, refs.PayloadDigest)
	fmt.Println(w.Close())
	// Output:
	// true true sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N
	// <nil>
}
