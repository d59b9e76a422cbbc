package hostile_test

import (
	"context"
	"strings"
	"testing"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/testweb"
	"github.com/fractle/mandelbot/internal/testweb/hostile"
)

// Sites is a whole hostile web on testweb: the index links to every hostile page, the hostile
// site's robots.txt names the sitemap bombs, and each robots-N site answers its variant.
func TestSites(t *testing.T) {
	web, err := testweb.Start(hostile.Sites(&hostile.Bombs{}), testweb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(web.Close)
	resolve := map[string]string{}
	for _, r := range web.Resolve() {
		hp, addr, _ := fetch.ParseResolve(r)
		resolve[hp] = addr
	}
	c := client(t, fetch.Options{Resolve: resolve})
	resp, err := c.Get(context.Background(), fetch.Request{URL: web.URL("hostile", hostile.PathIndex)})
	if err != nil || !strings.Contains(string(resp.Body), `href="`+hostile.PathChain+`"`) {
		t.Fatalf("index: %v", err)
	}
	resp, err = c.Get(context.Background(), fetch.Request{URL: web.URL("hostile", "/robots.txt")})
	if err != nil || strings.Count(string(resp.Body), "Sitemap: ") != 4 {
		t.Fatalf("robots.txt: %v %q", err, resp.Body)
	}
	resp, err = c.Get(context.Background(), fetch.Request{URL: web.URL("robots-1", "/robots.txt"), MaxDecodedBytes: 1 << 10})
	if err != nil || resp.Header.Get("Content-Encoding") != "gzip" || !resp.Truncated {
		t.Fatalf("robots-1 (%s): %v, %v", hostile.RobotsVariants[0], err, resp.Header)
	}
	if n := web.Count("robots-1", "/robots.txt"); n != 1 {
		t.Errorf("%d log entries, want 1", n)
	}
}
