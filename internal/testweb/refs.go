package testweb

import (
	"fmt"
	"strings"
)

// refs expands "{key}" references into the origins of a started web. It is immutable
// after construction and safe for concurrent use.
type refs struct {
	origin map[string]string // key -> "http://a.test:41234"
	r      *strings.Replacer
}

func newRefs(origin map[string]string) *refs {
	pairs := make([]string, 0, 2*len(origin))
	for key, o := range origin {
		pairs = append(pairs, "{"+key+"}", o)
	}
	return &refs{origin: origin, r: strings.NewReplacer(pairs...)}
}

// expand replaces every "{key}" naming a site with its origin; other text, including
// braces that name no site, is left alone.
func (x *refs) expand(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return x.r.Replace(s)
}

// refKey returns the key of a leading "{key}" reference, or "" when s has none.
func refKey(s string) string {
	if !strings.HasPrefix(s, "{") {
		return ""
	}
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return ""
	}
	return s[1:end]
}

// checkRef reports a leading "{key}" reference that names no site: a scenario typo
// that would otherwise surface as a confusing relative link.
func checkRef(s string, known func(key string) bool) error {
	if key := refKey(s); key != "" && !known(key) {
		return fmt.Errorf("reference %q names no site %q", s, key)
	}
	return nil
}

// validKey reports whether key is a usable site key: ASCII letters, digits, '-', '_', '.'.
func validKey(key string) bool {
	if key == "" {
		return false
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-', c == '_', c == '.':
		default:
			return false
		}
	}
	return true
}

// validHost reports whether host is a plain host name usable in a URL authority: no
// port, no path, no user info, no spaces, ASCII only.
func validHost(host string) bool {
	if host == "" {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(":/?#@[]\\", c) >= 0 {
			return false
		}
	}
	return true
}

// checkPage validates a page against the sites it may refer to.
func checkPage(p *Page, known func(string) bool) error {
	if !strings.HasPrefix(p.Path, "/") {
		return fmt.Errorf("page %q: path must start with \"/\"", p.Path)
	}
	if err := checkStatus(p.Status); err != nil {
		return fmt.Errorf("page %q: %w", p.Path, err)
	}
	for _, l := range p.Links {
		if err := checkRef(l, known); err != nil {
			return fmt.Errorf("page %q: link: %w", p.Path, err)
		}
	}
	for _, a := range p.Anchors {
		if err := checkRef(a.Href, known); err != nil {
			return fmt.Errorf("page %q: anchor: %w", p.Path, err)
		}
	}
	for i, st := range p.Script {
		if err := checkStatus(st.Status); err != nil {
			return fmt.Errorf("page %q: step %d: %w", p.Path, i, err)
		}
		if !st.Do.valid() {
			return fmt.Errorf("page %q: step %d: unknown action %v", p.Path, i, st.Do)
		}
		if err := checkRef(st.RedirectTo, known); err != nil {
			return fmt.Errorf("page %q: step %d: redirect: %w", p.Path, i, err)
		}
	}
	return nil
}

// checkStatus accepts 0 (the default) and the final statuses net/http can send.
func checkStatus(code int) error {
	if code != 0 && (code < 200 || code > 599) {
		return fmt.Errorf("status %d out of range 200..599", code)
	}
	return nil
}
