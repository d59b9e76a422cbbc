package store

import "sync"

// DefaultKnownOrigins is how many origin keys a store remembers as present by default, about 100
// bytes each: a commit skips the insert of a remembered origin, and inserts (a no-op when present)
// the ones past the limit every time.
const DefaultKnownOrigins = 100_000

// OriginSet remembers origin keys that committed transactions have written, so a store skips
// inserting them again. Origins are never deleted, so a remembered key stays true whatever other
// processes do. It holds at most the max given to NewOriginSet. It is safe for concurrent use.
type OriginSet struct {
	mu   sync.Mutex
	keys map[string]struct{}
	max  int
}

// NewOriginSet returns an empty set that remembers at most max keys.
func NewOriginSet(max int) *OriginSet {
	return &OriginSet{keys: make(map[string]struct{}), max: max}
}

// Has reports whether key is remembered.
func (o *OriginSet) Has(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.keys[key]
	return ok
}

// Add remembers key while there is room.
func (o *OriginSet) Add(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.keys) < o.max {
		o.keys[key] = struct{}{}
	}
}
