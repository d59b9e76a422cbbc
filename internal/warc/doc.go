// Package warc writes WARC 1.1 files (ISO 28500:2017) and captures the
// bytes of HTTP/1.1 exchanges as they went over the wire.
//
// # Writing
//
// A [Writer] appends records to gzip-compressed WARC files in one
// directory. Each record is its own gzip member, so a reader can seek to
// the offset in a [Ref] and decompress that record alone. A file begins with
// a warcinfo record and rotates once the next records would take it past
// [Options.MaxFileSize]; file names never collide (see [Options.Prefix]).
//
// [Writer.WriteExchange] writes a response (or revisit) record and the
// request record that produced it, linked both ways by WARC-Concurrent-To,
// with WARC-Block-Digest and, for HTTP payloads, WARC-Payload-Digest (sha1,
// base32). It returns a [Ref] for each record: file name, offset and length
// of its gzip member.
//
// # Durability
//
// When WriteExchange returns, the records have been handed to the file
// system in one write, but nothing has been fsynced. [Writer.Sync] makes
// every record whose Ref was returned before Sync was called durable (the
// current file, files closed by rotation and the directory entries of new
// files). A caller commits Refs to its own store only after a Sync that
// returned nil; Sync is cheap to call once per commit group.
//
// # Failure
//
// The first write, sync, create or close error breaks the Writer: the
// call that met it returns it, and every later call returns an error
// wrapping it ([ErrBroken] too), so a full disk stops the crawl instead of
// dropping records. A failed write leaves the file as it was before the
// call: the Writer truncates the file back to the end of the last record
// whose Ref was returned (a file that rotation had just created, whose
// warcinfo record failed, is left empty). Only if that truncation fails
// too does a partial gzip member stay at the end of the file, after every
// whole record; the error then says so, and no Ref points into it. Files
// are never deleted. The Writer closes its file when it breaks.
//
// # Concurrency
//
// A Writer is safe for concurrent use. Records are built and compressed by
// the calling goroutine; only the append to the file is serialised.
//
// # Capture
//
// The bytes a WARC keeps must be the bytes on the wire: status line and
// header fields as received, body before content decoding. [Dialer] wraps a
// dial function so that an http.Transport's connections copy what they read
// and write into the [Recorder] of the exchange using them; see [Dialer] for
// how internal/fetch plugs it in.
package warc
