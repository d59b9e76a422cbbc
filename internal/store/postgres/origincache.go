package postgres

import "sync"

// originSet remembers origin keys that committed transactions have written. Origins are never
// deleted, so a remembered key stays true whatever other processes do. It is safe for concurrent
// use.
type originSet struct {
	mu   sync.Mutex
	keys map[string]struct{}
	max  int
}

func newOriginSet(max int) *originSet {
	return &originSet{keys: make(map[string]struct{}), max: max}
}

func (o *originSet) has(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, ok := o.keys[key]
	return ok
}

// add remembers key while there is room.
func (o *originSet) add(key string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.keys) < o.max {
		o.keys[key] = struct{}{}
	}
}
