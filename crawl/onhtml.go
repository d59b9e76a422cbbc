package crawl

import (
	"fmt"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/cascadia"
)

// OnHTML returns an OnPage callback in Colly's style: on every HTML page it calls fn for each
// element matching the CSS selector, in document order, with the page (for Visit, URL, ...).
// Pages that are not HTML are skipped. The selector is compiled once, here: an invalid one is
// an error now, not on every page. Combine several with Pages.
func OnHTML(selector string, fn func(p *Page, e *goquery.Selection)) (func(*Page), error) {
	m, err := cascadia.Compile(selector)
	if err != nil {
		return nil, fmt.Errorf("crawl: OnHTML %q: %w", selector, err)
	}
	return func(p *Page) {
		dom, err := p.DOM()
		if err != nil {
			return
		}
		dom.FindMatcher(m).Each(func(_ int, s *goquery.Selection) { fn(p, s) })
	}, nil
}

// Pages returns an OnPage callback that calls each of fns in turn (nil ones skipped); they
// share the page, and its DOM is parsed once for all of them.
func Pages(fns ...func(*Page)) func(*Page) {
	return func(p *Page) {
		for _, fn := range fns {
			if fn != nil {
				fn(p)
			}
		}
	}
}
