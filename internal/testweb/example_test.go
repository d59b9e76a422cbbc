package testweb_test

import (
	"fmt"
	"log"
	"net/http"
	"strings"

	"github.com/fractle/mandelbot/internal/testweb"
)

// A robots.txt that answers 503 with Retry-After once, then its rules; a page linking to
// another origin by key. A test would call t.Cleanup(web.Close) instead of defer.
func ExampleStart() {
	robots := testweb.RobotsTxt("User-agent: *\nDisallow: /private\n")
	robots.Script = []testweb.Step{{Status: 503, Header: testweb.RetryAfterSeconds(60)}, {}}
	web, err := testweb.Start([]testweb.Site{
		{Key: "a", Robots: &robots, Pages: []testweb.Page{{Path: "/", Title: "Home", Links: []string{"{b}/"}}}},
		{Key: "b", Host: "b.example.test"},
	}, testweb.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()

	// What the crawler's --resolve does: host names dial the sites' loopback ports.
	client := &http.Client{Transport: &http.Transport{DialContext: web.DialContext}}
	defer client.CloseIdleConnections()
	for range 2 {
		resp, err := client.Get(web.URL("a", "/robots.txt"))
		if err != nil {
			log.Fatal(err)
		}
		resp.Body.Close()
		fmt.Printf("%d Retry-After=%q\n", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	fmt.Println(strings.HasPrefix(web.Expand("{b}/"), "http://b.example.test:"))
	for _, r := range web.Requests() {
		fmt.Println(r)
	}
	// Output:
	// 503 Retry-After="60"
	// 200 Retry-After=""
	// true
	// #1 a GET /robots.txt -> 503
	// #2 a GET /robots.txt -> 200
}
