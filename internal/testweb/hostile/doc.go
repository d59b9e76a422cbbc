// Package hostile serves a hostile origin: every way a web server can try to
// exhaust a crawler's memory, time or patience, one path each (issue 9, "A
// hostile web"). Its [Handler] is an http.Handler; [Site] wraps it as a
// testweb.Site (through Site.Raw) so crawler tests reach it by host name
// like any other site, with its requests in the web's log.
//
// The paths are constants ([PathGzipBomb] and friends) so tests name what
// they fetch. What each one answers is documented on its constant. Bombs
// decode to [BombSize] bytes; they are compressed once per Handler, on
// first use, and then served from memory (a few hundred KiB in all).
//
// Unlike testweb itself, this package imports compressors from outside the
// standard library (brotli and zstd have no encoder there); the demo binary
// does not link it.
package hostile
