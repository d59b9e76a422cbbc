package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHTMLMetasForRobots(t *testing.T) {
	// docs/robots-rules.md rule 24 (seed 002): robotstag.FromMeta needs every
	// <meta name=... content=...>, for name=robots and name=mandelbot alike,
	// with name and content as written (it folds case itself).
	body := `<html><head>
		<meta charset="utf-8">
		<meta http-equiv="refresh" content="30">
		<meta name="robots" content="noindex, nofollow">
		<meta name="Mandelbot" content="NOINDEX">
		<meta name=description content="Caf&eacute; &amp; bar">
		<meta name="viewport">
		<meta content="no name">
		</head><body>
		<meta name="robots" content="noarchive">
		<template><meta name="robots" content="inert"></template>
		</body></html>`
	want := []Meta{
		{Name: "robots", Content: "noindex, nofollow"},
		{Name: "Mandelbot", Content: "NOINDEX"},
		{Name: "description", Content: "Café & bar"},
		{Name: "viewport", Content: ""},
		{Name: "robots", Content: "noarchive"}, // in body: still counts (rule 24: every tag counts)
	}
	doc := mustHTML(t, body, Options{})
	if diff := cmp.Diff(want, doc.Metas); diff != "" {
		t.Errorf("Metas (-want +got):\n%s", diff)
	}
}

func TestHTMLMetaCap(t *testing.T) {
	body := strings.Repeat(`<meta name="x" content="y">`, 10)
	doc := mustHTML(t, body, Options{MaxMetas: 3})
	if len(doc.Metas) != 3 || !doc.Truncated.Has(CapMetas) {
		t.Errorf("%d metas, Truncated %q; want 3 and metas", len(doc.Metas), doc.Truncated)
	}
}

func TestHTMLLang(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"html lang", `<html lang="pt-BR"><p>x`, "pt-BR"},
		{"trimmed", `<html lang=" en ">`, "en"},
		{"first html tag only", `<html lang="de"><html lang="fr">`, "de"},
		{"content-language meta as fallback", `<meta http-equiv="Content-Language" content="fr, en">`, "fr"},
		{"html lang beats the meta", `<html lang="de"><meta http-equiv="content-language" content="fr">`, "de"},
		{"not a language tag", `<html lang="en<script>">`, ""},
		{"none", `<p>x`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mustHTML(t, tc.body, Options{}).Lang; got != tc.want {
				t.Errorf("Lang = %q, want %q", got, tc.want)
			}
		})
	}
}
