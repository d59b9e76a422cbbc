package warc

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/klauspost/compress/gzip"
)

// Defaults used where a field of [Options] is zero.
const (
	// DefaultMaxFileSize is the size past which a WARC file is rotated:
	// 1 GiB, the customary size of crawl WARCs.
	DefaultMaxFileSize int64 = 1 << 30
	// DefaultPrefix begins every file name.
	DefaultPrefix = "MANDELBOT"
	// DefaultSoftware is the warcinfo "software" field.
	DefaultSoftware = "Mandelbot"
	// DefaultLevel is the gzip level of each record's member: the fastest,
	// because a crawl compresses every page it fetches on its own workers
	// and the default level costs about twice the CPU for files a few
	// percent smaller (BENCHMARKS.md, issue 13).
	DefaultLevel = gzip.BestSpeed
)

// Options configure a [Writer]. Dir or FS is required; every other zero
// field takes its default.
type Options struct {
	// Dir is the directory the files are created in. It must exist.
	// Ignored when FS is set.
	Dir string
	// FS creates the files; nil means DirFS(Dir). Tests inject a failing
	// one.
	FS FS

	// Prefix begins each file name, which then carries the UTC time the
	// file was opened (to the millisecond), a serial number counting the
	// Writer's files from 0, the host name, the process id and 8 random
	// hex digits: PREFIX-20261123165701123-00000-host-4242-9f3a0c1e.warc.gz.
	// The random part keeps names apart even for the same host and pid (a
	// container's pid 1), and files are created with O_EXCL, so a
	// collision fails instead of overwriting. Default DefaultPrefix.
	Prefix string
	// Level is the gzip level records are compressed at, from
	// gzip.BestSpeed (1) to gzip.BestCompression (9). Zero means
	// DefaultLevel.
	Level int
	// MaxFileSize is the size in bytes a file is rotated at: a record
	// (or request/response pair) that would take a file past it starts a
	// new file, unless the file holds no record but its warcinfo, so a
	// record larger than MaxFileSize gets a file of its own. Default
	// DefaultMaxFileSize.
	MaxFileSize int64

	// Hostname goes into file names and the warcinfo record. Default
	// os.Hostname(), or "localhost" if that fails.
	Hostname string
	// PID goes into file names. Default os.Getpid().
	PID int
	// Software is the warcinfo "software" field. Default DefaultSoftware.
	Software string
	// Info holds more warcinfo fields (operator, robots policy,
	// http-header-user-agent, ...), written after the Writer's own.
	Info []Field

	// Now tells the time of WARC-Date fields that the caller leaves zero
	// and of file names. Default time.Now.
	Now func() time.Time
}

// config is Options with the defaults filled in.
type config struct {
	fs          FS
	prefix      string
	maxFileSize int64
	level       int
	hostname    string
	pid         int
	software    string
	info        []Field
	now         func() time.Time
}

func newConfig(o Options) (config, error) {
	c := config{
		fs:          o.FS,
		prefix:      o.Prefix,
		maxFileSize: o.MaxFileSize,
		level:       o.Level,
		hostname:    o.Hostname,
		pid:         o.PID,
		software:    o.Software,
		info:        append([]Field(nil), o.Info...),
		now:         o.Now,
	}
	if c.fs == nil {
		if o.Dir == "" {
			return config{}, errors.New("warc: options: Dir or FS is required")
		}
		c.fs = DirFS(o.Dir)
	}
	if c.prefix == "" {
		c.prefix = DefaultPrefix
	}
	switch {
	case c.maxFileSize == 0:
		c.maxFileSize = DefaultMaxFileSize
	case c.maxFileSize < 0:
		return config{}, fmt.Errorf("warc: options: MaxFileSize %d is negative", c.maxFileSize)
	}
	switch {
	case c.level == 0:
		c.level = DefaultLevel
	case c.level < gzip.BestSpeed || c.level > gzip.BestCompression:
		return config{}, fmt.Errorf("warc: options: Level %d is not a gzip level from %d to %d", c.level, gzip.BestSpeed, gzip.BestCompression)
	}
	if c.hostname == "" {
		h, err := os.Hostname()
		if err != nil || h == "" {
			h = "localhost"
		}
		c.hostname = h
	}
	if c.pid == 0 {
		c.pid = os.Getpid()
	}
	if c.software == "" {
		c.software = DefaultSoftware
	}
	if c.now == nil {
		c.now = time.Now
	}
	if err := checkValue("Prefix", c.prefix); err != nil {
		return config{}, err
	}
	for _, f := range c.info {
		if err := checkValue("Info "+f.Name, f.Name+f.Value); err != nil {
			return config{}, err
		}
	}
	return c, checkValue("Software", c.software)
}
