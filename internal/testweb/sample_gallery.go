package testweb

import (
	"net/http"
	"time"
)

// sampleGallery is The Fractal Gallery under https: X-Robots-Tag on HTML and on a PDF,
// an X-Robots-Tag for another agent, a page tagged "none", a robots.txt with validators.
func sampleGallery() Site {
	robots := RobotsTxt("User-agent: *\nDisallow: /studio/\n\nUser-agent: Mandelbot\nDisallow: /studio/\nAllow: /studio/open-day\n\nSitemap: {gallery}/sitemap.xml\n")
	robots.ETag = `"gallery-robots-3"`
	robots.LastModified = time.Date(2025, 2, 1, 9, 0, 0, 0, time.UTC)
	return Site{
		Key:    "gallery",
		Host:   "fractal-gallery.test",
		TLS:    true,
		Robots: &robots,
		Pages: []Page{
			{
				Path:  "/",
				Title: "The Fractal Gallery",
				Text: `A small gallery of mathematical art in the old corn exchange, open Wednesday to Sunday. We show work made with iteration: plotted, printed, woven, carved and, once, baked.

Admission is free. The gallery shop sells prints, postcards and a very good book about coastlines.`,
				Links: []string{"/exhibitions", "/artists", "/visit", "/catalogue.pdf", "/private-viewing"},
			},
			{
				Path:  "/exhibitions",
				Title: "Exhibitions",
				Text:  "Two exhibitions are open this season, and the autumn hang is being planned.",
				Links: []string{"/exhibitions/mandelbrot-at-forty", "/exhibitions/coastlines", pathOf(SampleNoindexHeader)},
			},
			{
				Path:  "/exhibitions/mandelbrot-at-forty",
				Title: "Mandelbrot at forty",
				Text: `Forty years after the famous set first appeared in colour on the cover of a popular science magazine, this exhibition looks at how a few lines of arithmetic became one of the most reproduced images of the late twentieth century.

The first room holds early line-printer plots, made of asterisks on green-striped paper. The second room follows the set into posters, album covers and screen savers. The last room is given to artists who zoom so deep that the numbers run out of precision and the picture dissolves into blocks.`,
				Links: []string{"/exhibitions", "/artists/tomas-lindqvist"},
			},
			{
				Path:  "/exhibitions/coastlines",
				Title: "How long is the coast?",
				Text: `Measure a coastline with a long ruler and you get one number; measure it with a short ruler and you get a larger one, because the short ruler follows every cove and rock. The shorter the ruler, the longer the coast, with no end in sight.

This exhibition takes that puzzle outdoors. Ines Okafor walked the same two miles of shore with rulers of six lengths and drew what each one saw; the six drawings hang side by side, from a smooth curve to a shiver of detail.`,
				Links: []string{"/exhibitions", "/artists/ines-okafor"},
			},
			{
				Path:  "/artists",
				Title: "Artists",
				Text:  "The artists we show live and work within a day's travel of the gallery.",
				Links: []string{"/artists/ines-okafor", "/artists/tomas-lindqvist"},
				Anchors: []Link{
					{Href: "/studio/bookings", Text: "studio bookings for artists"},
					{Href: "/studio/open-day", Text: "studio open day"},
				},
			},
			{
				Path:   pathOf(SampleOtherAgentHeader),
				Title:  "Ines Okafor",
				Header: XRobotsTag("otherbot: noindex"),
				Text: `Ines Okafor draws coastlines, river deltas and the cracks in dried mud, always from life and always at several scales at once. She trained as a surveyor before she trained as an artist and still carries a theodolite in the boot of her car.

Her page asks one particular robot not to index it; other crawlers are welcome.`,
				Links: []string{"/artists", "/exhibitions/coastlines"},
			},
			{
				Path:  "/artists/tomas-lindqvist",
				Title: "Tomas Lindqvist",
				Text: `Tomas Lindqvist writes small programs that draw large pictures. His plotter prints take days to finish; he runs them overnight and has learned to sleep through the sound of the pen.

He is the gallery's resident explainer on Saturday afternoons, when he will happily show anyone how to compute the set with a pencil, a calculator and a great deal of patience.`,
				Links: []string{"/artists", "/exhibitions/mandelbrot-at-forty"},
			},
			{
				Path:  "/visit",
				Title: "Visiting the gallery",
				Text: `The Fractal Gallery is in the corn exchange on Market Square, up the stairs on the left. There is a lift; ask at the café downstairs for the key.

Open Wednesday to Sunday, 10:00 to 17:00. Groups of more than ten, please write ahead so that we can have an explainer ready.`,
				Links: []string{"/"},
			},
			{
				Path:        pathOf(SamplePDF),
				ContentType: "application/pdf",
				Header:      XRobotsTag("mandelbot: noindex"),
				Body:        samplePDF,
				NoExpand:    true,
			},
			{
				Path:   pathOf(SampleNoindexHeader),
				Title:  "Draft: the autumn hang",
				Header: XRobotsTag("noindex"),
				Text:   "Working notes for the autumn exhibition: which walls, which works, which order. Not ready to be found by search engines, so the server sends an X-Robots-Tag header.",
				Links:  []string{"/exhibitions"},
			},
			{
				Path:  pathOf(SampleNone),
				Title: "Private viewing",
				Meta:  "none",
				Text:  "Details of the private viewing for lenders and friends of the gallery. This page is tagged none: neither indexed nor followed.",
				Links: []string{pathOf(SampleOnlyViaNone)},
			},
			{
				Path:  pathOf(SampleOnlyViaNone),
				Title: "Guest list",
				Text:  "The guest list for the private viewing.",
			},
			{Path: "/studio/bookings", Title: "Studio bookings", Text: "The studio calendar for resident artists."},
			{
				Path:  "/studio/open-day",
				Title: "Studio open day",
				Text:  "Once a year the studio behind the gallery opens to the public. The robots.txt group for Mandelbot allows this page while the rest of the studio stays closed to crawlers.",
			},
			SitemapXML("/sitemap.xml",
				"{gallery}/", "{gallery}/exhibitions", "{gallery}/exhibitions/mandelbrot-at-forty",
				"{gallery}/exhibitions/coastlines", "{gallery}/artists", "{gallery}/visit"),
		},
	}
}

// sampleGalleryHTTP is the gallery's host under plain http: a different origin with
// its own robots.txt (rule 20) and a permanent redirect to https.
func sampleGalleryHTTP() Site {
	return Site{
		Key:    "gallery-http",
		Host:   "fractal-gallery.test",
		Robots: robotsPage(RobotsTxt("User-agent: *\nDisallow: /old-catalogue\n")),
		Pages: []Page{
			{
				Path:  "/",
				Title: "The Fractal Gallery has moved",
				Text:  "The gallery's website now lives at its https address. The old catalogue is kept here for reference.",
				Links: []string{"{gallery}/", "/exhibitions", "/old-catalogue"},
			},
			{
				Path:  "/old-catalogue",
				Title: "Old catalogue (2019)",
				Text:  "The catalogue of the gallery's first season, kept for the record. This origin's robots.txt disallows it; the https origin has no such rule.",
			},
			Redirect(pathOf(SampleMovedToHTTPS), http.StatusMovedPermanently, "{gallery}/exhibitions"),
		},
	}
}

// samplePDF looks enough like a PDF for content sniffers: a header, a binary comment
// line, an object with a text stream and a trailer.
const samplePDF = "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" +
	"1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
	"2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
	"3 0 obj\n<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>\nendobj\n" +
	"4 0 obj\n<< /Length 62 >>\nstream\nBT /F1 12 Tf (Catalogue: Mandelbrot at forty, spring season) Tj ET\nendstream\nendobj\n" +
	"\x00\x01\x02\x03\xff\xfe\xfd\n" +
	"trailer\n<< /Root 1 0 R >>\n%%EOF\n"
