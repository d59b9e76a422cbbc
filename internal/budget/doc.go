// Package budget is a process-wide byte budget for memory held on behalf of
// requests in flight: a weighted semaphore whose units are bytes.
//
// A holder acquires bytes before it allocates them and releases them when the
// memory is no longer referenced. A request that would take the budget past
// its size waits, first come first served, until enough is released or its
// context ends. The budget therefore bounds what is charged to it, not what
// the process allocates: code that buffers must charge what it buffers.
//
// Deadlock: a holder that waits for more while keeping what it holds can wait
// for ever if every other holder does the same. Callers avoid that by taking
// at most two steps per request (a small first grant, then everything the
// request could still need at once) and by waiting under a context with a
// deadline; see internal/fetch for the scheme used there.
package budget
