package web

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/fractle/mandelbot/internal/fetch"
	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/tester"
	"github.com/fractle/mandelbot/robotstxt"
)

// testerSource names pasted robots.txt text in the tester's report.
const testerSource = "pasted text"

// Query and form fields of the tester; they make up its links, so they are part of every
// shared verdict and never change meaning.
const (
	fieldAgent     = "agent"
	fieldRobots    = "robots"     // the robots.txt text
	fieldRobotsURL = "robots_url" // or where to fetch it
	fieldURLs      = "urls"       // the URLs to check, one per line
)

// robotsData is what robots.html shows: the form (filled in again after a check), the report,
// and the check's shareable link.
type robotsData struct {
	Agent, Robots, RobotsURL, URLs string
	MaxBytes, MaxURLs              int
	Problems                       []string // why the form could not be checked
	Report                         *testerReport
	// Link is the check's GET address when it fits MaxShareLinkBytes; otherwise LinkBytes is
	// the size it would have had, and MaxLinkBytes the limit, for the page to say so.
	Link                    string
	LinkBytes, MaxLinkBytes int
}

// testerReport is tester.Report arranged for a page.
type testerReport struct {
	Agent               string
	Source              string // "pasted text" or the robots.txt URL
	Fetched             bool   // Source was fetched: Decision says what its answer means
	Decision            string // how the robots.txt was obtained and what that means (rule 21)
	Body                string // the robots.txt as fetched, for the page to echo
	Bytes, Lines        int
	Truncated           bool
	Selection           string // which group applies, in a sentence
	GroupAgents         []robotstxt.Agent
	Rules               []ruleRow
	CrawlDelay          string
	Results             []verdictRow
	Allowed, Disallowed int
	Notes               []noteRow
	Sitemaps, Warnings  []string
}

type ruleRow struct {
	Line    int
	Text    string // "Disallow: /private"
	Decided int    // how many of the URLs this rule decided
}

type verdictRow struct {
	URL, Target string
	Allowed     bool
	Line        int    // the deciding line, 0 when no rule decided
	Rule        string // the deciding rule, "" when no rule decided
	Why         string
}

type noteRow struct {
	Line         int
	Text, Reason string
}

// testerInput is one check as asked: by GET (the query) or POST (the form).
type testerInput struct {
	agent, robots, robotsURL, urls string
}

// link is the GET address of the check: only the fields given, in a fixed order.
func (in testerInput) link() string {
	q := url.Values{}
	for _, f := range [][2]string{{fieldAgent, in.agent}, {fieldRobots, in.robots}, {fieldRobotsURL, in.robotsURL}, {fieldURLs, in.urls}} {
		if f[1] != "" {
			q.Set(f[0], f[1])
		}
	}
	return "/robots?" + q.Encode()
}

// robotsPage is the robots.txt tester. A GET with any of robots, robots_url or urls in its
// query checks them, so a verdict is a link; a GET without shows the form. A POST (the form,
// which may carry a robots.txt too large for a URL) is answered 303 to its GET address when that
// fits MaxShareLinkBytes, and checked in place otherwise. The robots.txt is the pasted text, or
// fetched from robots_url by tester.Fetch with the site's address protections.
func (s *server) robotsPage(r *http.Request) (view, error) {
	data := &robotsData{Agent: s.agent, MaxBytes: robotstxt.DefaultMaxBytes, MaxURLs: s.maxURLs, MaxLinkBytes: MaxShareLinkBytes}
	v := view{name: "robots", title: "robots.txt tester", nav: "robots", data: data}
	var fields url.Values
	if r.Method == http.MethodPost {
		if err := parseForm(r); err != nil {
			return view{}, err
		}
		fields = r.PostForm
	} else {
		fields = r.URL.Query()
		if a := fields.Get(fieldAgent); a != "" {
			data.Agent = a
		}
		if !fields.Has(fieldRobots) && !fields.Has(fieldRobotsURL) && !fields.Has(fieldURLs) {
			return v, nil // the empty form
		}
	}
	// A browser sends a textarea's lines ending in CRLF; LF says the same in a third less of the
	// link.
	lf := strings.NewReplacer("\r\n", "\n").Replace
	in := testerInput{agent: fields.Get(fieldAgent), robots: lf(fields.Get(fieldRobots)),
		robotsURL: fields.Get(fieldRobotsURL), urls: lf(fields.Get(fieldURLs))}
	data.Agent, data.Robots, data.RobotsURL, data.URLs = in.agent, in.robots, in.robotsURL, in.urls
	link := in.link()
	if len(link) > MaxShareLinkBytes {
		data.LinkBytes = len(link)
	} else if r.Method == http.MethodPost {
		return view{redirect: link}, nil
	} else {
		data.Link = link
	}

	agent, urls, lines, problems := s.checkForm(data)
	status := http.StatusBadRequest
	var dec robots.Decision
	source := testerSource
	if len(problems) == 0 {
		dec, source, status, problems = s.testerDecision(r.Context(), in)
	}
	if len(problems) == 0 {
		rep, err := tester.Check(dec, source, agent, urls)
		if err != nil {
			problems, status = urlProblems(err, lines), http.StatusBadRequest
		} else {
			data.Report = reportOf(rep, len(in.robots))
		}
	}
	if len(problems) > 0 {
		data.Problems, v.status = problems, status
	}
	return v, nil
}

// testerDecision is the robots.txt of a check: the pasted text, read as a file is (up to the
// parse limit, rule 10), or the answer of robots_url. Problems come with the status to answer.
func (s *server) testerDecision(ctx context.Context, in testerInput) (dec robots.Decision, source string, status int, problems []string) {
	if trimASCII(in.robotsURL) == "" {
		body := []byte(in.robots)
		if len(body) > robotstxt.DefaultMaxBytes {
			body = body[:robotstxt.DefaultMaxBytes+1] // enough for the parser to see it was cut
		}
		return robots.Decision{Kind: robots.KindRules, Final: testerSource, MaxAge: -1,
			Robots: robotstxt.Parse(body), Truncated: len(body) > robotstxt.DefaultMaxBytes}, testerSource, 0, nil
	}
	bad := func(format string, args ...any) (robots.Decision, string, int, []string) {
		return robots.Decision{}, "", http.StatusBadRequest, []string{fmt.Sprintf(format, args...)}
	}
	if in.robots != "" {
		return bad("Give the robots.txt either as text or as a URL to fetch, not both: empty one of the two fields.")
	}
	robotsURL, err := tester.RobotsURL(in.robotsURL)
	if err != nil {
		return bad("The robots.txt URL %s", sentenceEnd(err.Error()))
	}
	wait, stopWaiting := context.WithTimeout(ctx, TesterSlotWait)
	defer stopWaiting()
	select {
	case s.fetchSlots <- struct{}{}:
		defer func() { <-s.fetchSlots }()
	case <-wait.Done():
		return robots.Decision{}, "", http.StatusServiceUnavailable,
			[]string{fmt.Sprintf("The tester is busy fetching %d other robots.txt files; try again in a moment.", cap(s.fetchSlots))}
	}
	dec, err = tester.Fetch(ctx, robotsURL, s.testerFetch)
	switch {
	case errors.Is(err, fetch.ErrPrivateAddress):
		return robots.Decision{}, "", http.StatusForbidden, []string{fmt.Sprintf(
			"%s was not fetched: its address is loopback or private, and this server fetches from such addresses only when started with --allow-private (or --resolve for the host).", robotsURL)}
	case err != nil:
		return robots.Decision{}, "", http.StatusBadGateway, []string{fmt.Sprintf(
			"%s could not be read: %s. The crawler would crawl nothing on this origin until it can read its robots.txt.", robotsURL, tester.Unreadable(err))}
	}
	return dec, robotsURL, 0, nil
}

// parseForm reads a POSTed form, multipart (what the page sends, so a robots.txt counts at its
// own size) or URL-encoded. The body was capped at MaxFormBytes by route.
func parseForm(r *http.Request) error {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var err error
	switch mt {
	case "multipart/form-data":
		err = r.ParseMultipartForm(MaxFormBytes)
		if r.MultipartForm != nil {
			r.MultipartForm.RemoveAll() // values stay in r.PostForm; no file is expected
		}
	case "application/x-www-form-urlencoded":
		err = r.ParseForm()
	default:
		return &requestError{status: http.StatusUnsupportedMediaType,
			msg: "send the form as multipart/form-data or application/x-www-form-urlencoded"}
	}
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return &requestError{status: http.StatusRequestEntityTooLarge, msg: fmt.Sprintf(
			"the form is larger than %d bytes; a robots.txt is only read up to %d bytes anyway (robots.txt rule: a crawler may stop reading at 500 KiB)",
			tooBig.Limit, robotstxt.DefaultMaxBytes)}
	}
	if err != nil {
		return badRequest("the form could not be read: %v", err)
	}
	return nil
}

// checkForm validates the agent and the URL list. lines[i] is the line of the URL list that
// urls[i] came from.
func (s *server) checkForm(d *robotsData) (agent string, urls []string, lines []int, problems []string) {
	agent = trimASCII(d.Agent)
	switch {
	case agent == "":
		agent, d.Agent = s.agent, s.agent
	case len(agent) > MaxAgentBytes:
		problems = append(problems, fmt.Sprintf("The agent is longer than %d bytes.", MaxAgentBytes))
	case strings.ContainsFunc(agent, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		problems = append(problems, "The agent contains control characters.")
	case robotstxt.AgentToken(agent) == "":
		problems = append(problems, "The agent has no name: it must start with ASCII letters, digits, _ or -, such as Mandelbot (robots.txt rule: a User-agent line names a product token).")
	}
	if len(d.URLs) > MaxTesterURLBytes {
		return agent, nil, nil, append(problems, fmt.Sprintf("The URL list is longer than %d bytes.", MaxTesterURLBytes))
	}
	for i, line := range strings.Split(d.URLs, "\n") {
		if u := trimASCII(line); u != "" && u[0] != '#' {
			urls, lines = append(urls, u), append(lines, i+1)
		}
	}
	switch {
	case len(urls) == 0:
		problems = append(problems, "List at least one URL to check: an absolute http(s) URL or a path starting with /, one per line.")
	case len(urls) > s.maxURLs:
		problems = append(problems, fmt.Sprintf("%d URLs listed; the tester checks at most %d at once.", len(urls), s.maxURLs))
	}
	return agent, urls, lines, problems
}

// urlProblems turns tester.Check's joined *tester.URLError values into lines for the page.
func urlProblems(err error, lines []int) []string {
	errs := []error{err}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	}
	var out []string
	for _, e := range errs {
		var ue *tester.URLError
		if errors.As(e, &ue) && ue.Pos >= 1 && ue.Pos <= len(lines) {
			out = append(out, fmt.Sprintf("URL line %d, %q: %v", lines[ue.Pos-1], ue.URL, ue.Err))
			continue
		}
		out = append(out, e.Error())
	}
	return out
}

func reportOf(rep tester.Report, size int) *testerReport {
	rb := rep.Decision.Robots
	out := &testerReport{Agent: rep.Agent, Source: rep.Source, Bytes: size, Lines: rb.Lines(), Truncated: rb.Truncated() || rep.Decision.Truncated,
		Selection: selection(rep.Group, rep.Agent), GroupAgents: rep.Group.Agents(),
		Sitemaps: rb.Sitemaps(), Warnings: rep.Warnings}
	if rep.Decision.Status != 0 { // fetched: what the answer means comes first (rule 21)
		out.Fetched, out.Decision, out.Body, out.Bytes = true, rep.Decision.Reason(), string(rep.Decision.Body), len(rep.Decision.Body)
		if rep.Decision.Kind != robots.KindRules {
			out.Selection = sentence(rep.Decision.Reason()) + "."
		}
	}
	if d, ok := rep.Group.CrawlDelay(); ok {
		out.CrawlDelay = d.String()
	}
	decided := map[int]int{}
	for _, res := range rep.Results {
		row := verdictRow{URL: res.URL, Target: res.Target, Allowed: res.Allowed, Why: rep.Why(res)}
		if rep.Decision.Kind == robots.KindRules && res.Verdict.Reason == robotstxt.ReasonRule {
			row.Line, row.Rule = res.Verdict.Rule.Line, res.Verdict.Rule.String()
			decided[row.Line]++
		}
		if res.Allowed {
			out.Allowed++
		} else {
			out.Disallowed++
		}
		out.Results = append(out.Results, row)
	}
	for _, rule := range rep.Group.Rules() {
		out.Rules = append(out.Rules, ruleRow{Line: rule.Line, Text: rule.String(), Decided: decided[rule.Line]})
	}
	for _, n := range rb.Notes() {
		out.Notes = append(out.Notes, noteRow{Line: n.Line, Text: n.Text, Reason: n.Message()})
	}
	return out
}

// selection says which group applies to agent and how it was chosen (docs/robots-rules.md
// rules 6 and 7), and that a group without rules allows everything (rule 4).
func selection(g *robotstxt.Group, agent string) string {
	lines := make([]string, 0, len(g.Agents()))
	for _, a := range g.Agents() {
		lines = append(lines, strconv.Itoa(a.Line))
	}
	at := "User-agent line " + strings.Join(lines, ", ")
	if len(lines) > 1 {
		at = "User-agent lines " + strings.Join(lines, ", ")
	}
	empty := ""
	if len(g.Rules()) == 0 {
		// rule 4: a group without rules still applies, and allows everything.
		empty = " It has no rules, so everything is allowed."
	}
	switch g.Selection() {
	case robotstxt.SelectedByName:
		return fmt.Sprintf("The group naming %s applies (%s).%s", agent, at, empty)
	case robotstxt.SelectedByStar:
		return fmt.Sprintf("No group names %s, so the group for * applies (%s).%s", agent, at, empty)
	}
	return fmt.Sprintf("No group applies to %s: no User-agent line names it and there is no \"User-agent: *\", so everything is allowed.", agent)
}

// sentenceEnd ends msg with a full stop unless it ends with a question or a stop already.
func sentenceEnd(msg string) string {
	if strings.HasSuffix(msg, "?") || strings.HasSuffix(msg, ".") {
		return msg
	}
	return msg + "."
}
