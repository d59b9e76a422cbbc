package tester

import (
	"errors"
	"fmt"
	"strings"

	"github.com/fractle/mandelbot/internal/robots"
	"github.com/fractle/mandelbot/robotstxt"
	"github.com/fractle/mandelbot/urlnorm"
)

// Report is the tester's answer for one robots.txt and a list of URLs. It is a value built by
// Check and owned by the caller.
type Report struct {
	Agent    string
	Source   string // a file path, "-" for standard input, or the robots.txt URL
	Decision robots.Decision
	Group    *robotstxt.Group
	Results  []Result
	// Warnings are remarks about the input that do not change a verdict, such as a URL on
	// another origin than the robots.txt that was fetched.
	Warnings []string
}

// Result is the verdict for one URL.
type Result struct {
	URL     string
	Target  string // the path and query that was matched (docs/robots-rules.md rule 12)
	Allowed bool
	Verdict robotstxt.Verdict // meaningful when Decision.Kind is KindRules
}

// AnyDisallowed reports whether at least one URL is disallowed.
func (r Report) AnyDisallowed() bool {
	for _, res := range r.Results {
		if !res.Allowed {
			return true
		}
	}
	return false
}

// URLError is a URL the tester cannot check: it is neither an absolute http(s) URL nor a path
// starting with "/".
type URLError struct {
	Pos int // 1-based position in the input list (the line number for --urls)
	URL string
	Err error
}

func (e *URLError) Error() string {
	return fmt.Sprintf("URL %d %q: %v", e.Pos, e.URL, e.Err)
}

func (e *URLError) Unwrap() error { return e.Err }

// ErrNotURL reports input that is neither an absolute http(s) URL nor a path.
var ErrNotURL = errors.New("not an absolute http(s) URL or a path starting with /")

// Check decides every URL against dec for agent. urls may be absolute http(s) URLs or paths
// starting with "/". When any URL cannot be checked, Check returns no report and an error
// joining one *URLError per bad URL, so that no verdict is ever printed for a guess (docs/design.md:
// a URL that fails to parse must not silently become allowed or disallowed).
func Check(dec robots.Decision, source, agent string, urls []string) (Report, error) {
	rep := Report{Agent: agent, Source: source, Decision: dec, Group: dec.Robots.For(agent)}
	var errs []error
	targets := make([]string, len(urls))
	for i, u := range urls {
		t, err := target(u)
		if err != nil {
			errs = append(errs, &URLError{Pos: i + 1, URL: u, Err: err})
			continue
		}
		targets[i] = t
	}
	if len(errs) > 0 {
		return Report{}, errors.Join(errs...)
	}
	robotsOrigin := originOf(dec.URL)
	for i, u := range urls {
		res := Result{URL: u, Target: targets[i]}
		switch dec.Kind {
		case robots.KindRules:
			res.Verdict = rep.Group.Test(res.Target)
			res.Allowed = res.Verdict.Allowed
		case robots.KindAllowAll:
			res.Allowed = true
		default: // unreachable: the crawler requests nothing on the origin (rule 21)
			res.Allowed = false
		}
		rep.Results = append(rep.Results, res)
		if o := originOf(u); robotsOrigin != "" && o != "" && o != robotsOrigin {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf(
				"%s is on origin %s, but this robots.txt is for %s; each origin has its own robots.txt (seed 000)", u, o, robotsOrigin))
		}
	}
	return rep, nil
}

func target(u string) (string, error) {
	if strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//") {
		if i := strings.IndexByte(u, '#'); i >= 0 {
			u = u[:i]
		}
		return u, nil
	}
	t, err := robotstxt.PathAndQuery(u)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNotURL, err)
	}
	return t, nil
}

// originOf returns the origin of an absolute http(s) URL (docs/robots-rules.md rule 20), or ""
// for a path or anything else. It is only used for warnings.
func originOf(raw string) string {
	u, err := urlnorm.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Origin()
}
