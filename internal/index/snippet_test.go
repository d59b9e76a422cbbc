package index

import (
	"strings"
	"testing"
)

func spanText(sp []Span) (text string, marked []string) {
	var b strings.Builder
	for _, s := range sp {
		b.WriteString(s.Text)
		if s.Match {
			marked = append(marked, s.Text)
		}
	}
	return b.String(), marked
}

// Issue 32 part 4: the snippet is the sentence that holds the most query words, not the first
// match nor a code block; a code block only when the query looks like code.
func TestSnippetChoosesSentence(t *testing.T) {
	text := "Apache can send custom responses. >>> ErrorDocument 500 /cgi-bin/crash-recover; " +
		"ErrorDocument 404 /errors/not_found.html; ErrorDocument error custom. " +
		"Customized error responses are configured with the ErrorDocument directive, per error code. " +
		"The error log records them."
	got, marked := spanText(Snippet(text, Query{Text: "custom error responses"}.Parse().Terms(), false))
	if !strings.HasPrefix(got, "Customized error responses are configured") {
		t.Errorf("snippet = %q, want the sentence that holds most of the words", got)
	}
	if strings.Join(marked, " ") != "error responses ErrorDocument error" {
		t.Errorf("marked %q, want error, responses, ErrorDocument, error", marked)
	}
	q := ">>> ErrorDocument 404"
	got, _ = spanText(Snippet(text, Query{Text: q}.Parse().Terms(), QueryLooksLikeCode(q)))
	if !strings.HasPrefix(got, ">>> ErrorDocument 500") {
		t.Errorf("snippet for code = %q, want the code block", got)
	}
	if Snippet(text, []string{"walrus"}, false) != nil {
		t.Error("a snippet without a match should be nil, for the engine's own")
	}
}

// A long sentence is cut to SnippetWords words around its first match, "…" at each cut.
func TestSnippetCutsLongSentence(t *testing.T) {
	text := strings.Repeat("a ", 80) + "the keepalive timeout " + strings.Repeat("b ", 80)
	sp := Snippet(text, []string{"keepalive"}, false)
	got, marked := spanText(sp)
	if len(marked) != 1 || !strings.HasPrefix(got, "… ") || !strings.HasSuffix(got, " …") {
		t.Errorf("snippet = %q, marked %q", got, marked)
	}
	if n := len(strings.Fields(strings.Trim(got, "… "))); n != SnippetWords {
		t.Errorf("snippet has %d words, want %d", n, SnippetWords)
	}
}

func TestSnippetForm(t *testing.T) {
	for _, w := range []string{"configuring", "configured", "configure", "configures", "Configure"} {
		if got := snippetForm(w); got != "configur" {
			t.Errorf("snippetForm(%q) = %q", w, got)
		}
	}
	if snippetForm("running") != snippetForm("run") || snippetForm("pages") != snippetForm("page") {
		t.Error("running/run or pages/page do not meet")
	}
}

func TestQueryLooksLikeCode(t *testing.T) {
	for q, want := range map[string]bool{"custom error pages": false, "pg_size_pretty": true, "len(x)": true,
		"RewriteRule": true, "a = b": true, "how to restart": false} {
		if got := QueryLooksLikeCode(q); got != want {
			t.Errorf("QueryLooksLikeCode(%q) = %v", q, got)
		}
	}
}

// The parts of a CamelCase word match, as the index finds the word by them (issue 11).
func TestSnippetCamelCase(t *testing.T) {
	text := "Keep the connection open. The KeepAliveTimeout directive sets the seconds to wait."
	got, marked := spanText(Snippet(text, []string{"keep", "alive", "timeout"}, false))
	if got != "The KeepAliveTimeout directive sets the seconds to wait." || len(marked) != 1 {
		t.Errorf("snippet = %q, marked %q", got, marked)
	}
}
