package main

import (
	"fmt"
	"github.com/fractle/mandelbot/internal/budget"
	"strconv"
	"strings"
	"time"

	"github.com/fractle/mandelbot/crawl"
)

// noneWord is how the command spells crawl.NoLimit and crawl.NoDelay (issue 27: one meaning per
// setting): --max-depth none, --max-pages none, --delay none.
const noneWord = "none"

// limitValue is a count flag that takes a number or "none" (crawl.NoLimit; -1 too, as in the
// Go API). With seedsAtZero (--max-depth), 0 is crawl.SeedsOnly; otherwise 0 is "none" as well
// (--max-pages 0 has always meant no limit).
type limitValue struct {
	n           *int
	seedsAtZero bool
}

func (l limitValue) String() string {
	if l.n == nil {
		return ""
	}
	switch *l.n {
	case 0, crawl.NoLimit:
		return noneWord
	case crawl.SeedsOnly:
		return "0"
	}
	return strconv.Itoa(*l.n)
}

func (l limitValue) Set(s string) error {
	if strings.EqualFold(s, noneWord) {
		*l.n = crawl.NoLimit
		return nil
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil || n < -1:
		return fmt.Errorf("want a number or %s", noneWord)
	case n == 0 && l.seedsAtZero:
		*l.n = crawl.SeedsOnly
	case n <= 0:
		*l.n = crawl.NoLimit
	default:
		*l.n = n
	}
	return nil
}

func (l limitValue) Type() string { return "N|none" }

// durationValue is a duration flag that also takes "none": --delay (none, or 0, is
// crawl.NoDelay) and --give-up-after (none is crawl.NoLimit; 0 is refused).
type durationValue struct {
	d          *time.Duration
	none       time.Duration // what "none" sets
	zeroIsNone bool
}

func (v durationValue) String() string {
	if v.d == nil {
		return ""
	}
	if *v.d == v.none {
		return noneWord
	}
	return v.d.String()
}

func (v durationValue) Set(s string) error {
	if strings.EqualFold(s, noneWord) {
		*v.d = v.none
		return nil
	}
	d, err := time.ParseDuration(s)
	switch {
	case err != nil || d < 0 || d == 0 && !v.zeroIsNone:
		return fmt.Errorf("want a duration such as 30s or 250ms, or %s", noneWord)
	case d == 0:
		*v.d = v.none
	default:
		*v.d = d
	}
	return nil
}

func (v durationValue) Type() string { return "duration|none" }

// sizeValue is a flag holding a size in bytes, written as operators write sizes: "256MiB",
// "1GiB", "512M" (budget.ParseSize).
type sizeValue struct{ n *int64 }

func (v sizeValue) String() string {
	if v.n == nil {
		return ""
	}
	return budget.FormatSize(*v.n)
}

func (v sizeValue) Set(s string) error {
	n, err := budget.ParseSize(s)
	if err != nil {
		return err
	}
	*v.n = n
	return nil
}

func (sizeValue) Type() string { return "SIZE" }
