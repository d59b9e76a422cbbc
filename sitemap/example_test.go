package sitemap_test

import (
	"fmt"
	"strings"

	"github.com/fractle/mandelbot/sitemap"
)

func ExampleParse() {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://www.example.com/</loc><lastmod>2024-05-01</lastmod><priority>0.8</priority></url>
  <url><loc>https://www.example.com/search?q=go&amp;page=2</loc></url>
  <url><loc>/relative/urls/are/skipped</loc></url>
</urlset>`
	res, err := sitemap.Parse(strings.NewReader(doc), sitemap.Options{}, func(e sitemap.Entry) error {
		fmt.Println(e.Loc, e.LastMod.Format("2006-01-02"), e.Priority)
		return nil
	})
	fmt.Println(res.Kind, res.Entries, "delivered,", res.Skipped, "skipped, error:", err)
	// Output:
	// https://www.example.com/ 2024-05-01 0.8
	// https://www.example.com/search?q=go&page=2 0001-01-01 -1
	// urlset 2 delivered, 1 skipped, error: <nil>
}

// A sitemap index delivers its child sitemaps; fetching them, and bounding
// how deep and how wide that goes, is the caller's job.
func ExampleParse_index() {
	doc := `<sitemapindex><sitemap><loc>https://www.example.com/sitemap-1.xml.gz</loc></sitemap></sitemapindex>`
	var children []string
	res, _ := sitemap.Parse(strings.NewReader(doc), sitemap.Options{}, func(e sitemap.Entry) error {
		if e.Kind == sitemap.Index {
			children = append(children, e.Loc)
		}
		return nil
	})
	fmt.Println(res.Kind, children)
	// Output:
	// sitemapindex [https://www.example.com/sitemap-1.xml.gz]
}
