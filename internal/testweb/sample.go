package testweb

// The notable pages of Sample, as references. Each shows one rule of the spec to a demo
// user and gives crawler tests a fixed target.
const (
	// SampleNoindexMeta has <meta name="robots" content="noindex"> (002; rule 26).
	SampleNoindexMeta = "{bakery}/wholesale"
	// SampleNoindexAgentMeta has <meta name="mandelbot" content="noindex"> (rule 24).
	SampleNoindexAgentMeta = "{bakery}/recipes/test-batch"
	// SampleNoindexHeader is HTML sent with "X-Robots-Tag: noindex" (rule 25).
	SampleNoindexHeader = "{gallery}/drafts/autumn-hang"
	// SampleOtherAgentHeader is sent with "X-Robots-Tag: otherbot: noindex", which does
	// not apply to Mandelbot: it stays indexable (rule 25).
	SampleOtherAgentHeader = "{gallery}/artists/ines-okafor"
	// SampleNone has <meta name="robots" content="none">: noindex and nofollow (002).
	SampleNone = "{gallery}/private-viewing"
	// SampleOnlyViaNone is linked only from SampleNone, so it is never discovered.
	SampleOnlyViaNone = "{gallery}/private-viewing/guest-list"
	// SampleNofollow has <meta name="robots" content="nofollow"> (rule 26).
	SampleNofollow = "{hiking}/guestbook"
	// SampleOnlyViaNofollow is linked only from SampleNofollow, so it is never discovered.
	SampleOnlyViaNofollow = "{hiking}/walks/old-quarry-path"
	// SampleRelNofollow is linked only by an <a rel="nofollow"> on the library's events page.
	SampleRelNofollow = "{library}/events/calendar.ics"
	// SampleBlocked is disallowed by robots.txt and linked with anchor text from two
	// sites ("Members' roster and contact sheet", "Ridgeline Walkers members' roster"):
	// never fetched, searchable as a link-only entry (rule 28; 001).
	SampleBlocked = "{hiking}/members/roster"
	// SampleBlockedSearch is a disallowed catalogue search linked with anchor text.
	SampleBlockedSearch = "{library}/catalogue/search?q=fractals"
	// SampleRedirectIntoBlocked answers 302 to the disallowed {bakery}/admin/rota.
	SampleRedirectIntoBlocked = "{bakery}/staff"
	// SampleSitemapOnly is listed in the hiking club's sitemap (named by its robots.txt
	// Sitemap line) and linked from nowhere.
	SampleSitemapOnly = "{hiking}/newsletter/spring-2025"
	// SampleSitemapOnlyText is listed only in the library's text sitemap, reached through
	// its sitemap index.
	SampleSitemapOnlyText = "{library}/local-authors"
	// SamplePlainText is a text/plain document.
	SamplePlainText = "{library}/reading-list.txt"
	// SamplePDF is a PDF-ish binary sent with "X-Robots-Tag: mandelbot: noindex".
	SamplePDF = "{gallery}/catalogue.pdf"
	// SampleRetryAfter answers 503 with "Retry-After: 10" on its first request, then 200:
	// the hiking club's origin pauses (rule 23).
	SampleRetryAfter = "{hiking}/trail-conditions"
	// SampleHostile has script tags, quotes, <b> in its title, invalid UTF-8 bytes and
	// links hidden in scripts, comments and a textarea: for escaping and extraction tests.
	SampleHostile = "{library}/curiosities"
	// SampleBroken is a deliberate dead link on the hiking club's walks page (404).
	SampleBroken = "{hiking}/walks/lost-valley"
	// SampleMovedToHTTPS is a page of the plain-http gallery that answers 301 to https.
	SampleMovedToHTTPS = "{gallery-http}/exhibitions"
)

// SampleRetryAfterSeconds is the pause SampleRetryAfter asks for: short, so that the demo
// shows a pause without a long wait.
const SampleRetryAfterSeconds = 10

// Sample returns the bundled demo web: five origins and about fifty pages of English
// prose (a bakery, a hiking club, a fractal-art gallery under https and, as its own
// origin with its own robots.txt, the same host under plain http, and a library),
// linked to each other. The Sample* constants name the pages that show a rule. Every
// same-origin link leads to a page that exists, except SampleBroken.
func Sample() []Site {
	return []Site{
		sampleBakery(),
		sampleHiking(),
		sampleGallery(),
		sampleGalleryHTTP(),
		sampleLibrary(),
	}
}

// pathOf returns the path of a reference: pathOf("{hiking}/members/roster") is
// "/members/roster".
func pathOf(ref string) string {
	key := refKey(ref)
	return ref[len(key)+2:]
}
