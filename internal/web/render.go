package web

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pageNames are the templates under templates/, each rendered inside layout.html.
var pageNames = []string{"search", "explain", "robots", "dashboard", "error"}

// pages holds one parsed template set per page. Executing a template is safe for concurrent use.
type pages struct {
	byName map[string]*template.Template
}

func parsePages() (*pages, error) {
	p := &pages{byName: map[string]*template.Template{}}
	for _, name := range pageNames {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("web: parse template %s: %w", name, err)
		}
		p.byName[name] = t
	}
	return p, nil
}

// funcs are the helpers templates may call; each returns plain text that html/template escapes.
var funcs = template.FuncMap{
	"thousands": thousands,
	"breaks":    breaks,
}

// breaks escapes s for HTML and marks a line-break opportunity (<wbr>) after each "?" and "&",
// and after each "/" that ends a path segment (not a leading "/", nor the slashes of "://"), so
// that a robots.txt rule or a URL wraps between its segments and never inside a word
// (issue 27); the stylesheet forbids breaks anywhere else.
func breaks(s string) template.HTML {
	var b strings.Builder
	from := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '/' && c != '?' && c != '&' {
			continue
		}
		if c == '/' && (i == 0 || s[i-1] == ' ' || s[i-1] == ':' || i+1 < len(s) && s[i+1] == '/' ||
			i >= 2 && s[i-1] == '/' && s[i-2] == ':') {
			continue // "/x" at the start of a path, "http://": no break after these
		}
		b.WriteString(template.HTMLEscapeString(s[from : i+1]))
		b.WriteString("<wbr>")
		from = i + 1
	}
	b.WriteString(template.HTMLEscapeString(s[from:]))
	return template.HTML(b.String())
}

// view is what an HTML handler produces: a template, its data and the status to answer.
type view struct {
	name   string
	status int // 0 means 200
	title  string
	nav    string // the navigation entry to highlight
	data   any
	// redirect, when set, answers 303 See Other to it instead of rendering.
	redirect string
}

// layoutData is what layout.html sees: the page's own data is .Data.
type layoutData struct {
	Title string
	Nav   string
	Data  any
	// Refresh, when positive, makes the page reload itself after that many seconds.
	Refresh int
}

// html adapts a handler that returns a view, rendering errors as a page with their status.
func (s *server) html(h func(*http.Request) (view, error)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := h(r)
		if err != nil {
			s.fail(w, r, false, err)
			return
		}
		if v.redirect != "" {
			http.Redirect(w, r, v.redirect, http.StatusSeeOther)
			return
		}
		s.write(w, r, v)
	})
}

// write renders v into a buffer and sends it, so that a template error becomes a clean 500
// instead of half a page.
func (s *server) write(w http.ResponseWriter, r *http.Request, v view) {
	t := s.pages.byName[v.name]
	var buf bytes.Buffer
	data := layoutData{Title: v.title, Nav: v.nav, Data: v.data}
	if v.name == "dashboard" {
		data.Refresh = int(s.refresh.Seconds())
	}
	if err := t.ExecuteTemplate(&buf, "layout", data); err != nil {
		s.log.ErrorContext(r.Context(), "web: render", "template", v.name, "err", err)
		http.Error(w, "internal error: the page could not be rendered", http.StatusInternalServerError)
		return
	}
	status := v.status
	if status == 0 {
		status = http.StatusOK
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes()) // a client that went away is not our error
}

// staticHandler serves the embedded files under /static/, without directory listings.
func staticHandler() (http.Handler, error) {
	sub, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, fmt.Errorf("web: static files: %w", err)
	}
	files := http.StripPrefix("/static/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/static/" || r.URL.Path[len(r.URL.Path)-1] == '/' {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Cache-Control", "public, max-age=3600")
		files.ServeHTTP(w, r)
	}), nil
}

// thousands formats n with thin separators: 12345 -> "12,345".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
