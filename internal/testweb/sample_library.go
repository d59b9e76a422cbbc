package testweb

// sampleLibrary is the Lantern Street Library: a sitemap index naming a gzip sitemap and
// a text sitemap, a text/plain reading list, a rel=nofollow link, disallowed archive and
// catalogue search linked with anchor text, links to the other sites and the hostile page.
func sampleLibrary() Site {
	return Site{
		Key:    "library",
		Host:   "lantern-library.test",
		Robots: robotsPage(RobotsTxt("User-agent: *\nDisallow: /archive/\nDisallow: /catalogue/search\n\nSitemap: {library}/sitemap-index.xml\n")),
		Pages: []Page{
			{
				Path:  "/",
				Title: "Lantern Street Library",
				Text: `A public library in a converted chapel on Lantern Street, with forty thousand books, a children's corner under the organ pipes and the best reading-room radiators in town.

Anyone may read here; borrowing needs a free card and proof of address. We also lend board games, a telescope and two sewing machines.`,
				Links: []string{"/events", "/opening-hours", "/history", "/children", "/reading-list.txt", "/curiosities"},
				Anchors: []Link{
					{Href: pathOf(SampleBlockedSearch), Text: "search the catalogue for fractals"},
					{Href: SampleBlocked, Text: "Ridgeline Walkers members' roster"},
					{Href: "{gallery}/", Text: "The Fractal Gallery"},
					{Href: "{gallery-http}/", Text: "the gallery's old website"},
				},
			},
			{
				Path:  "/events",
				Title: "Events this month",
				Text: `Tuesday evenings: the chess club meets in the reading room from seven. Boards provided; bring your own arguments.

Thursday at eleven: rhyme time for babies and toddlers in the children's corner.

Last Saturday of the month: a talk from the Fractal Gallery on coastlines, rulers and why maps lie.`,
				Links: []string{"/children", "{gallery}/exhibitions/coastlines"},
				Anchors: []Link{
					{Href: pathOf(SampleRelNofollow), Text: "add our events to your calendar", Rel: "nofollow"},
				},
			},
			{
				Path:        pathOf(SampleRelNofollow),
				ContentType: "text/calendar; charset=utf-8",
				Body:        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Lantern Street Library//Events//EN\r\nBEGIN:VEVENT\r\nUID:chess@lantern-library.test\r\nSUMMARY:Chess club\r\nDTSTART:20250304T190000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=TU\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n",
			},
			{
				Path:  "/opening-hours",
				Title: "Opening hours",
				Text: `Monday, Tuesday and Thursday: 9:00 to 19:00. Wednesday and Friday: 9:00 to 17:00. Saturday: 10:00 to 16:00. Closed on Sundays and public holidays.

Books can be returned at any hour through the slot in the vestry door.`,
				Links: []string{"/"},
			},
			{
				Path:  "/history",
				Title: "A short history of the library",
				Text: `The chapel on Lantern Street closed in 1921 and was bought by a committee of readers for one hundred pounds and a promise to keep the organ. The library opened two years later with eight hundred books, most of them donated and some of them, the minutes record, unsuitable.

The organ still works. It is played once a year, on the library's birthday, by whoever on the staff is bravest.`,
				Links: []string{"/"},
				Anchors: []Link{
					{Href: "/archive/1923-minutes", Text: "minutes of the founding committee (1923)"},
				},
			},
			{
				Path:  "/children",
				Title: "The children's corner",
				Text: `Picture books, chapter books, comics and a rug shaped like a map of the world. Storytime is on Saturday mornings at half past ten.

Children under eight need a grown-up nearby. Children over eight are trusted with the beanbags.`,
				Links: []string{"/", "/events"},
			},
			{
				Path:        pathOf(SamplePlainText),
				ContentType: "text/plain; charset=utf-8",
				Body: `Lantern Street Library: staff reading list, spring

1. The Fractal Geometry of Nature - for the gallery talk
2. A Pattern Language - the chess club keeps borrowing it
3. The Living Mountain - recommended by the Ridgeline Walkers
4. Bread Alone - the bakery says it is the only book they own

Ask at the desk for any of these; we hold two copies of each.
`,
			},
			{
				Path:     pathOf(SampleHostile),
				NoExpand: true,
				Body:     sampleHostileHTML,
			},
			{Path: "/archive/1923-minutes", Title: "Minutes, 1923", Text: "Minutes of the founding committee of the Lantern Street Library."},
			{Path: pathOf(SampleBlockedSearch), Title: "Catalogue search: fractals", Text: "Twelve results for fractals."},
			{
				Path:  pathOf(SampleSitemapOnlyText),
				Title: "Local authors",
				Text:  "Books by writers who live in town, from the baker's memoir to the hiking club's guide to the ridge. Ask to see the shelf behind the desk.",
			},
			SitemapIndex("/sitemap-index.xml", "{library}/sitemaps/pages.xml.gz", "{library}/sitemaps/extra.txt"),
			Gzipped(SitemapXML("/sitemaps/pages.xml.gz",
				"{library}/", "{library}/events", "{library}/opening-hours", "{library}/history", "{library}/children")),
			SitemapText("/sitemaps/extra.txt", SampleSitemapOnlyText, SamplePlainText),
		},
	}
}

// sampleHostileHTML is written to trip escaping and link extraction: markup and quotes
// in the title (RCDATA), script and style content that looks like tags, invalid UTF-8,
// attribute injection, links hidden in a comment, a script, a textarea and srcdoc, and
// javascript: and data: URLs. Only the real anchors lead anywhere; the /trap-* paths do
// not exist.
const sampleHostileHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lost &amp; found: <b>odd</b> "things" 'left' <script>alert("title")</script></title>
<script>var s = "</title><a href='/trap-in-script'>"; if (1 < 2 && 3 > 2) { document.title = '<b>'; }</script>
<style>a[href*="x"]::after { content: "</style-not><a href=/trap-in-style>"; }</style>
</head>
<body>
<h1>Lost &amp; found <i>curiosities</i></h1>
<p>Left at the desk this month: an umbrella, one glove, a note that reads "<script>alert('note')</script>" and a bookmark stamped ` + "\xff\xfe" + `.</p>
<p onclick="alert(1)">Bytes that are not UTF-8: ` + "\xc3\x28 \xa0\xa1 \xf0\x28\x8c\xbc" + ` and a lone surrogate ` + "\xed\xa0\x80" + `.</p>
<p>Entities: &lt;b&gt;not bold&lt;/b&gt; &quot;quoted&quot; &#39;single&#39; &amp;amp; &nosuchentity; &#0; &#x110000;</p>
<ul>
<li><a href="/opening-hours" title='"><img src=x onerror=alert(1)>'>opening hours</a></li>
<li><a href="/children">the children's <b>corner</b></a></li>
<li><a href="javascript:alert('x')">a javascript: link</a></li>
<li><a href="data:text/html,<script>alert(1)</script>">a data: link</a></li>
</ul>
<!-- <a href="/trap-in-comment">commented out</a> -->
<textarea><a href="/trap-in-textarea">not a link</a></textarea>
<iframe srcdoc="<a href='/trap-in-srcdoc'>framed</a>"></iframe>
</body>
</html>
`
