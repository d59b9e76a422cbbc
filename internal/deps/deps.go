//go:build tools

// Package deps pins the chosen dependencies of DESIGN.md in go.mod while the
// packages that use them are being written; it is never built.
package deps

import (
	_ "github.com/andybalholm/brotli"
	_ "github.com/chromedp/chromedp"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/pgxpool"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/nlnwa/whatwg-url/url"
	_ "github.com/prometheus/client_golang/prometheus"
	_ "github.com/prometheus/client_golang/prometheus/promhttp"
	_ "github.com/spf13/cobra"
	_ "github.com/vbauerster/mpb/v8"
	_ "golang.org/x/net/html"
	_ "golang.org/x/net/html/charset"
	_ "golang.org/x/net/http2"
	_ "golang.org/x/net/idna"
	_ "golang.org/x/net/publicsuffix"
	_ "golang.org/x/time/rate"
	_ "modernc.org/sqlite"
)
