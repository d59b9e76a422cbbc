package robotstag

// genericMetaName is the meta name that addresses every crawler.
const genericMetaName = "robots"

// Meta is one <meta> element's name and content attributes, as an HTML
// extractor found them (character references already decoded). Elements
// without a name attribute have no place here.
type Meta struct {
	Name, Content string
}

// FromMeta returns the directives that metas give agent. It is
// Parser{Agent: agent}.FromMeta(metas).
func FromMeta(metas []Meta, agent string) Directives {
	return Parser{Agent: agent}.FromMeta(metas)
}

// FromMeta returns the directives the meta elements of one HTML document
// give p.Agent (docs/robots-rules.md rule 24, seed 002).
//
// A meta applies when its name, trimmed of ASCII whitespace, is "robots",
// or when its agent token (robotstxt.AgentToken) is p.Agent's, compared
// with ASCII case folding. Its content is a comma-separated directive
// list. Every applicable meta counts and the most restrictive combination
// wins; metas for other names are skipped silently (a page has many metas
// that are not robot tags). The first MaxTags applicable metas are read in
// full; later ones only for noindex, none and nofollow, so that the limit
// never drops a restriction, and a note says so.
//
// FromMeta does not check the response's Content-Type: the caller (or For)
// must only pass metas of a text/html response. It does not retain metas.
func (p Parser) FromMeta(metas []Meta) Directives {
	r := reader{p: p}
	for _, m := range metas {
		r.meta(m)
	}
	return r.result()
}

// meta reads one meta element if it is a robot tag for r.p.Agent.
func (r *reader) meta(m Meta) {
	if !r.p.isApplicableMetaName(m.Name) {
		return
	}
	r.tag("meta name="+trimSpace(m.Name), "robots meta tags", m.Content, false)
}

// isApplicableMetaName reports whether a meta with this name attribute is
// a robot tag for p.Agent.
func (p Parser) isApplicableMetaName(name string) bool {
	name = trimSpace(name)
	return equalFold(name, genericMetaName) || p.isAgent(name)
}
