package web

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/internal/tester"
	"github.com/fractle/mandelbot/robotstxt"
)

// testerSource names the robots.txt in the tester's report: it is always pasted text, never
// fetched (the site must not be a way to make the server request arbitrary URLs).
const testerSource = "pasted text"

// robotsData is what robots.html shows: the form (filled in again after a POST) and the report.
type robotsData struct {
	Agent, Robots, URLs string
	MaxBytes, MaxURLs   int
	Problems            []string // why the form could not be checked
	Report              *testerReport
}

// testerReport is tester.Report arranged for a page.
type testerReport struct {
	Agent               string
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

// robotsPage is the robots.txt tester: GET shows the form, POST checks the pasted robots.txt
// against the listed URLs with tester.Check, as `mandelbot robots test --explain` does.
func (s *server) robotsPage(r *http.Request) (view, error) {
	data := &robotsData{Agent: s.agent, MaxBytes: robotstxt.DefaultMaxBytes, MaxURLs: s.maxURLs}
	v := view{name: "robots", title: "robots.txt tester", nav: "robots", data: data}
	if r.Method != http.MethodPost {
		return v, nil
	}
	if err := parseForm(r); err != nil {
		return view{}, err
	}
	data.Agent, data.Robots, data.URLs = r.PostFormValue("agent"), r.PostFormValue("robots"), r.PostFormValue("urls")
	agent, urls, lines, problems := s.checkForm(data)
	if len(problems) == 0 {
		body := []byte(data.Robots)
		if len(body) > robotstxt.DefaultMaxBytes {
			body = body[:robotstxt.DefaultMaxBytes+1] // enough for the parser to see it was cut
		}
		dec := robots.Decision{Kind: robots.KindRules, Final: testerSource, MaxAge: -1,
			Robots: robotstxt.Parse(body), Truncated: len(body) > robotstxt.DefaultMaxBytes}
		rep, err := tester.Check(dec, testerSource, agent, urls)
		if err != nil {
			problems = urlProblems(err, lines)
		} else {
			data.Report = reportOf(rep, len(data.Robots))
		}
	}
	if len(problems) > 0 {
		data.Problems, v.status = problems, http.StatusBadRequest
	}
	return v, nil
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
	out := &testerReport{Agent: rep.Agent, Bytes: size, Lines: rb.Lines(), Truncated: rb.Truncated() || rep.Decision.Truncated,
		Selection: selection(rep.Group, rep.Agent), GroupAgents: rep.Group.Agents(),
		Sitemaps: rb.Sitemaps(), Warnings: rep.Warnings}
	if d, ok := rep.Group.CrawlDelay(); ok {
		out.CrawlDelay = d.String()
	}
	decided := map[int]int{}
	for _, res := range rep.Results {
		row := verdictRow{URL: res.URL, Target: res.Target, Allowed: res.Allowed, Why: rep.Why(res)}
		if res.Verdict.Reason == robotstxt.ReasonRule {
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

// selection says which group applies to agent and how it was chosen (robots-semantics.md
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
