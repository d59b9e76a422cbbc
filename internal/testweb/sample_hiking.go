package testweb

import "net/http"

// sampleHiking is the Ridgeline Walkers hiking club: a disallowed members' area linked
// with anchor text, a nofollow guestbook, a sitemap-only newsletter, a page that answers
// 503 with Retry-After once, and a deliberate dead link.
func sampleHiking() Site {
	return Site{
		Key:    "hiking",
		Host:   "ridgeline-walkers.test",
		Robots: robotsPage(RobotsTxt("# Ridgeline Walkers\nUser-agent: *\nDisallow: /members/\nSitemap: {hiking}/sitemap.xml\n")),
		Pages: []Page{
			{
				Path:  "/",
				Title: "Ridgeline Walkers",
				Text: `We are a walking club of about sixty members who meet every other Sunday, whatever the weather does. Most walks are between eight and fifteen miles, with one long day each month for those who want it and a short loop for those who do not.

New walkers are welcome on any walk without joining; just turn up at the meeting point ten minutes early with boots, water and something waterproof.`,
				Links: []string{"/walks", "/safety", "/join", "/trail-conditions", "/guestbook"},
				Anchors: []Link{
					{Href: pathOf(SampleBlocked), Text: "Members' roster and contact sheet"},
					{Href: "{bakery}/", Text: "Crumb & Crust, where we buy our trail loaves"},
				},
			},
			{
				Path:  "/walks",
				Title: "Our regular walks",
				Text:  "These are the routes we return to every year. Each page gives the distance, the climb and where to park.",
				Links: []string{"/walks/the-long-ridge", "/walks/river-loop"},
				Anchors: []Link{
					{Href: pathOf(SampleBroken), Text: "The Lost Valley (page coming soon)"},
				},
			},
			{
				Path:  "/walks/the-long-ridge",
				Title: "The Long Ridge",
				Text: `Fourteen miles and a little over 2,000 feet of climbing. We leave the village car park at nine, take the old drove road up to the ridge and follow it north for six miles, with the reservoir on one side and the whole plain on the other.

The descent by Cold Spring is steep and slippery after rain. In winter we turn back at the trig point and come down the same way, which makes it ten miles and a much earlier pint.`,
				Links: []string{"/walks", "/safety"},
			},
			{
				Path:  "/walks/river-loop",
				Title: "The river loop",
				Text: `An easy eight miles on the flat, good for a first walk with the club or for a day when the tops are in cloud. The path follows the river downstream to the weir, crosses at the footbridge and comes back along the old railway line.

Expect mud near the sewage works and cows in the water meadows from May. Dogs on leads, please; the farmer has asked nicely and we would like to keep it that way.`,
				Links: []string{"/walks"},
			},
			{
				Path:  "/safety",
				Title: "Walking safely with the club",
				Text: `Every walk has a leader at the front and a back marker who does not pass anyone. If you need to stop, tell the back marker; nobody will think less of you.

Carry water, food, a waterproof, a warm layer and a charged phone. In winter add a torch, gloves and a hat. The leader may shorten or cancel a walk in bad weather, and the leader's decision is final, including on the day it turns out to be sunny.`,
				Links: []string{"/", "/trail-conditions"},
			},
			{
				Path:  "/join",
				Title: "Joining the club",
				Text: `Membership is twelve pounds a year and pays for insurance, the minibus on long days and the Christmas walk's mince pies. You can walk with us three times before deciding.

Members receive the newsletter each season and can put their name down for the summer trip, which this year is a week in the Cairngorms.`,
				Links: []string{"/"},
			},
			{
				Path:  pathOf(SampleRetryAfter),
				Title: "Trail conditions this week",
				Text: `The bridge at Cold Spring is closed for repairs until the end of the month; use the ford if the river is low, or the road bridge a mile downstream. The drove road is badly rutted after the forestry work. The reservoir path is clear.

This page is updated by volunteers and is sometimes briefly unavailable while they edit it.`,
				Links: []string{"/walks", "/safety"},
				Script: []Step{
					{Status: http.StatusServiceUnavailable, Header: RetryAfterSeconds(SampleRetryAfterSeconds), Body: "The trail conditions are being updated. Please try again shortly.\n"},
					{},
				},
			},
			{
				Path:  pathOf(SampleNofollow),
				Title: "Guestbook",
				Meta:  "nofollow",
				Text: `Thanks for a lovely walk on Sunday, the views from the ridge were worth every step. (Anna, visiting from Leeds)

Does anyone know if the old quarry path is open again? We tried it last spring and ended up in a bog. (Dev)

The guestbook takes links from anyone, so it asks search engines not to follow them.`,
				Links: []string{pathOf(SampleOnlyViaNofollow)},
			},
			{
				Path:  pathOf(SampleOnlyViaNofollow),
				Title: "The old quarry path",
				Text:  "A short cut from the ridge to the village past the disused quarry. Wet in all seasons; not a club route.",
			},
			{
				Path:  pathOf(SampleBlocked),
				Title: "Members' roster",
				Text:  "Names, phone numbers and emergency contacts of club members. For walk leaders only.",
			},
			{
				Path:  pathOf(SampleSitemapOnly),
				Title: "Newsletter, spring 2025",
				Text: `Spring is here and so is the mud. This season: a new Thursday evening walk for those who work weekends, the route of the summer trip, and a plea for more volunteer back markers.

The committee thanks everyone who came to the annual general meeting, and especially whoever brought the flapjacks.`,
			},
			SitemapXML("/sitemap.xml",
				"{hiking}/", "{hiking}/walks", "{hiking}/walks/the-long-ridge", "{hiking}/walks/river-loop",
				"{hiking}/safety", "{hiking}/join", SampleSitemapOnly),
		},
	}
}
