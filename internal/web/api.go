package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/fractle/mandelbot/internal/index"
)

// apiSearch is GET /api/search?q=&limit=&offset=: the JSON `mandelbot search --json` prints
// (index.JSONOf, encoded the same way), or {"error": "..."} with 400 for a bad query, limit or
// offset and 500 for anything else.
func (s *server) apiSearch(w http.ResponseWriter, r *http.Request) {
	q, err := apiQuery(r)
	if err != nil {
		s.fail(w, r, true, err)
		return
	}
	q.Now = s.now()
	page, err := s.store.Search(r.Context(), q)
	if errors.Is(err, index.ErrEmptyQuery) {
		s.fail(w, r, true, badRequest("q: %v", err))
		return
	}
	if err != nil {
		s.fail(w, r, true, fmt.Errorf("search %q: %w", q.Text, err))
		return
	}
	writeJSON(w, http.StatusOK, index.JSONOf(page))
}

// apiQuery reads and checks the parameters of /api/search.
func apiQuery(r *http.Request) (index.Query, error) {
	params := r.URL.Query()
	q := index.Query{Text: params.Get("q"), Limit: index.DefaultLimit}
	if trimASCII(q.Text) == "" {
		return q, badRequest("q: missing: give the words to search for")
	}
	if len(q.Text) > index.MaxQueryBytes {
		return q, badRequest("q: longer than %d bytes", index.MaxQueryBytes)
	}
	var err error
	if q.Limit, err = intParam(params.Get("limit"), "limit", index.DefaultLimit, 1, index.MaxLimit); err != nil {
		return q, err
	}
	if q.Offset, err = intParam(params.Get("offset"), "offset", 0, 0, index.MaxOffset); err != nil {
		return q, err
	}
	return q, nil
}

// intParam parses an optional integer parameter within [lo, hi]; empty means def.
func intParam(v, name string, def, lo, hi int) (int, error) {
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		return 0, badRequest("%s: %q is not a whole number between %d and %d", name, v, lo, hi)
	}
	return n, nil
}

// writeJSON sends v as indented JSON without HTML escaping, exactly as the CLI prints it (the
// Content-Type and nosniff keep a browser from reading it as HTML).
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		// Only unsupported values fail, and every value written here is plain data.
		buf.Reset()
		buf.WriteString(`{"error": "the answer could not be encoded"}` + "\n")
		status = http.StatusInternalServerError
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(buf.Bytes()) // a client that went away is not our error
}

// apiError is the body of every API error.
type apiError struct {
	Error string `json:"error"`
}

func writeJSONError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, apiError{Error: msg})
}
