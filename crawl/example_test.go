package crawl_test

import (
	"context"
	"fmt"
	"log"
	"slices"
	"time"

	"github.com/fractle/mandelbot/crawl"
	"github.com/fractle/mandelbot/internal/testweb"
)

// Crawl a small site and print each page as it arrives: robots.txt is read first and its
// Disallow kept (/private is never requested), and the noindex page says so. The site runs on
// loopback, hence Resolve (which also allows the loopback address) and a short Delay.
func ExampleRun() {
	robots := testweb.RobotsTxt("User-agent: *\nDisallow: /private\n")
	web, err := testweb.Start([]testweb.Site{{Key: "shop", Host: "shop.test", Robots: &robots, Pages: []testweb.Page{
		{Path: "/", Title: "Shop", Text: "Fresh bread every morning.",
			Anchors: []testweb.Link{{Href: "/bread", Text: "Our bread"}, {Href: "/private", Text: "Staff only"}, {Href: "/draft", Text: "Draft"}}},
		{Path: "/bread", Title: "Bread", Text: "Sourdough, rye and spelt."},
		{Path: "/draft", Title: "Draft", Meta: "noindex"},
	}}}, testweb.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()

	var pages []string
	stats, err := crawl.Run(context.Background(), crawl.Config{
		Seeds:   web.Seeds(),
		Resolve: web.Resolve(),
		Delay:   10 * time.Millisecond,
		OnDocument: func(d crawl.Document) {
			line := fmt.Sprintf("%d %s %q indexable=%t", d.Status, d.URL[len(web.Origin("shop")):], d.Title, d.Indexable)
			for _, l := range d.Links {
				line += fmt.Sprintf(" [%s -> %s]", l.Anchor, l.URL[len(web.Origin("shop")):])
			}
			pages = append(pages, line)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	slices.Sort(pages) // pages arrive in the order the crawl fetched them
	for _, p := range pages {
		fmt.Println(p)
	}
	fmt.Println("pages", stats.Pages, "disallowed", stats.Disallowed, "robots.txt", stats.Robots)
	// Output:
	// 200 / "Shop" indexable=true [Our bread -> /bread] [Staff only -> /private] [Draft -> /draft]
	// 200 /bread "Bread" indexable=true
	// 200 /draft "Draft" indexable=false
	// pages 3 disallowed 1 robots.txt 1
}
