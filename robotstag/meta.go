package robotstag

import "fmt"

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
// give p.Agent (robots-semantics.md rule 24, seed 002).
//
// A meta applies when its name, trimmed of ASCII whitespace, is "robots"
// or p.Agent, compared with ASCII case folding. Its content is a
// comma-separated directive list. Every applicable meta counts and the
// most restrictive combination wins; metas for other names are skipped
// silently (a page has many metas that are not robot tags). At most
// MaxTags applicable metas are considered.
//
// FromMeta does not check the response's Content-Type: the caller (or For)
// must only pass metas of a text/html response. It does not retain metas.
func (p Parser) FromMeta(metas []Meta) Directives {
	var d Directives
	n := 0
	for _, m := range metas {
		if !p.isApplicableMetaName(m.Name) {
			continue
		}
		name := trimSpace(m.Name)
		if n++; n > p.maxTags() {
			d.note(fmt.Sprintf("more than %d robots meta tags; the rest ignored", p.maxTags()))
			break
		}
		p.applyValue(&d, "meta name="+name, m.Content, false)
	}
	return d
}

// isApplicableMetaName reports whether a meta with this name attribute is
// a robot tag for p.Agent.
func (p Parser) isApplicableMetaName(name string) bool {
	name = trimSpace(name)
	return equalFold(name, genericMetaName) || p.isAgent(name)
}
