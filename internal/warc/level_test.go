package warc

import (
	"os"
	"path/filepath"
	"testing"
)

// Options.Level (issue 13): a gzip level outside 1-9 is refused; every level writes records
// that read back, and a higher level writes a smaller file for compressible pages.
func TestLevel(t *testing.T) {
	for _, bad := range []int{-1, 10} {
		if _, err := New(Options{Dir: t.TempDir(), Level: bad}); err == nil {
			t.Errorf("Level %d accepted", bad)
		}
	}
	size := map[int]int64{}
	for _, level := range []int{1, 9} {
		dir := t.TempDir()
		w, err := New(Options{Dir: dir, Level: level})
		if err != nil {
			t.Fatal(err)
		}
		body := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
		for i := 0; i < 200; i++ {
			body += "<p>the same compressible sentence, over and over, with a number " + string(rune('a'+i%26)) + "</p>\n"
		}
		if _, err := w.WriteExchange(Exchange{TargetURI: "http://a.test/", Request: []byte("GET / HTTP/1.1\r\nHost: a.test\r\n\r\n"), Response: []byte(body)}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		files := warcFiles(t, dir)
		if len(readWARC(t, files[0])) != 3 {
			t.Fatalf("level %d: want warcinfo, response and request", level)
		}
		fi, err := os.Stat(filepath.Join(files[0]))
		if err != nil {
			t.Fatal(err)
		}
		size[level] = fi.Size()
	}
	if size[9] >= size[1] {
		t.Errorf("level 9 wrote %d bytes, level 1 %d: the level is not applied", size[9], size[1])
	}
}
