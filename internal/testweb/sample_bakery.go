package testweb

import "net/http"

// sampleBakery is Crumb & Crust, a small bakery: gzip-capable pages, a noindex page, an
// agent-scoped noindex, a disallowed admin area and a redirect into it.
func sampleBakery() Site {
	pages := []Page{
		{
			Path:  "/",
			Title: "Crumb & Crust, a small bakery on Mill Lane",
			Text: `We are a two-oven bakery at the bottom of Mill Lane, open six mornings a week. Everything on the shelves was flour and water the evening before: country loaves, seeded rye, cinnamon knots and a short list of cakes that changes with the fruit in season.

There is no café, only a bench by the window and a bell that rings too loudly when the door opens. Come early on Saturdays: the walnut sourdough is usually gone by ten.`,
			Links: []string{"/menu", "/about", "/hours", "/blog/", "/wholesale"},
			Anchors: []Link{
				{Href: "/staff", Text: "Staff rota"},
				{Href: "{hiking}/", Text: "the Ridgeline Walkers, who buy our trail loaves"},
			},
		},
		{
			Path:  "/menu",
			Title: "What we bake",
			Text: `Breads: country sourdough (white with ten percent wholemeal), walnut sourdough, seeded rye, a soft milk loaf for sandwiches, and baguettes after eleven on weekdays.

Pastries: butter croissants, pain au chocolat, cardamom buns in the Swedish way, and cinnamon knots that are really an excuse to use up the brioche dough.

Cakes: lemon drizzle all year, plum and almond from August, a dark ginger loaf when the weather turns. We bake one gluten-free loaf on Fridays, in a separate tin, but the kitchen is not free of flour and we cannot promise more than that.`,
			Links: []string{"/", "/hours"},
		},
		{
			Path:  "/about",
			Title: "About the bakery",
			Text: `Crumb & Crust opened in 2014 in what used to be the Mill Lane hardware shop; the hooks for the garden tools are still in the ceiling. Maren trained as a pastry cook in Malmö, Joe learned bread the slow way, by ruining a great deal of it.

We buy flour from a water mill forty miles up the river and eggs from the farm at Hollins Cross. Our starter is older than the shop: it came with Joe in a jam jar, wrapped in a tea towel, on the passenger seat.`,
			Links: []string{"/", "/blog/"},
		},
		{
			Path:  "/hours",
			Title: "Opening hours and where to find us",
			Text: `Tuesday to Friday, 7:30 to 14:00. Saturday, 7:00 to 13:00, or until the shelves are empty. Sunday, 8:00 to 12:00. Closed on Mondays, when we clean, mill the rye and sleep.

We are at 3 Mill Lane, next to the bicycle repair shop. The nearest bus stop is Bridge Street. Orders for birthday cakes need three days' notice; ring the shop rather than sending an email, because the email is read on Mondays only.`,
			Links: []string{"/", "/menu"},
		},
		{
			Path:  "/blog/",
			Title: "Notes from the back of the shop",
			Text:  "Occasional notes about bread, flour and the odd hours of a bakery.",
			Links: []string{"/blog/keeping-a-sourdough-starter", "/blog/rye-bread-in-winter", "/blog/why-we-start-at-four", "/recipes/test-batch"},
		},
		{
			Path:  "/blog/keeping-a-sourdough-starter",
			Title: "Keeping a sourdough starter alive",
			Text: `People ask how to keep a starter, as if it were a difficult pet. It is closer to a houseplant that forgives you. Feed it equal weights of flour and water, keep it somewhere that feels like a spring afternoon, and use it when it has doubled and smells of yoghurt rather than of nail varnish.

If you go on holiday, feed it, let it rise for an hour and put it in the fridge. It will sulk for a day when you come back. Ours has survived a power cut, a move across town and a summer when nobody remembered it for eleven days.`,
			Links: []string{"/blog/", "/menu"},
		},
		{
			Path:  "/blog/rye-bread-in-winter",
			Title: "Rye bread in winter",
			Text: `Rye behaves differently from wheat. It has little gluten to speak of, so the dough is more like a thick paste than something you can knead, and it wants more acidity to keep its crumb from turning gummy.

In winter the shop is cold before the ovens are on, and the rye sour slows down. We start it a few hours earlier and wrap the tubs in old blankets. The loaves need a full day after baking before they slice well; a rye loaf cut warm is a sticky disappointment.`,
			Links: []string{"/blog/", "/blog/keeping-a-sourdough-starter"},
		},
		{
			Path:  "/blog/why-we-start-at-four",
			Title: "Why we start at four in the morning",
			Text: `Bread takes the time it takes. The doughs are mixed the afternoon before and rest overnight in the cool room, but they still need shaping, a last rise and forty minutes in the oven, and two ovens only hold so many loaves at once.

Four o'clock is when the first batch of country loaves can go in and still be cool enough to sell at half past seven. We have tried starting at five. The croissants were late, the customers were patient, and nobody enjoyed it.`,
			Links: []string{"/blog/", "/hours"},
		},
		{
			Path:  "/wholesale",
			Title: "Wholesale price list for cafés",
			Meta:  "noindex",
			Text: `This page is for the cafés and the two restaurants we supply. Prices are per dozen, delivered before nine, with orders by noon the day before. Country sourdough 38.00, seeded rye 42.00, baguettes 21.00, croissants 16.50.

We would rather this list did not turn up in search results, so the page asks search engines not to index it.`,
			Links: []string{"/"},
		},
		{
			Path:  "/recipes/test-batch",
			Title: "Test batch: fig and fennel loaf",
			Head:  `<meta name="mandelbot" content="noindex">`,
			Text: `A loaf we are still working on: dried figs soaked in black tea, toasted fennel seed, twenty percent wholemeal. The last batch was too sweet and the one before too dense.

Until it is right, we have asked the Mandelbot crawler by name not to index this page.`,
			Links: []string{"/blog/"},
		},
		{
			Path:  "/admin/rota",
			Title: "Staff rota",
			Text:  "Early shift: Joe (Tuesday to Saturday). Counter: Priya, Sam. Deliveries: Maren on Fridays.",
		},
		Redirect(pathOf(SampleRedirectIntoBlocked), http.StatusFound, "/admin/rota"),
		SitemapXML("/sitemap.xml",
			"{bakery}/", "{bakery}/menu", "{bakery}/about", "{bakery}/hours", "{bakery}/blog/",
			"{bakery}/blog/keeping-a-sourdough-starter", "{bakery}/blog/rye-bread-in-winter", "{bakery}/blog/why-we-start-at-four"),
	}
	for i := range pages {
		pages[i].Compress = true
	}
	return Site{
		Key:    "bakery",
		Host:   "crumb-and-crust.test",
		Robots: robotsPage(RobotsTxt("User-agent: *\nDisallow: /admin/\n\nSitemap: {bakery}/sitemap.xml\n")),
		Pages:  pages,
	}
}
