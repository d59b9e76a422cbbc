// Package budget is a process-wide byte budget for memory held on behalf of
// requests in flight: a weighted semaphore whose units are bytes.
//
// A holder acquires bytes before it allocates them and releases them when the
// memory is no longer referenced. A request that would take the budget past
// its size waits, first come first served, until enough is released or its
// context ends. The budget therefore bounds what is charged to it, not what
// the process allocates: code that buffers must charge what it buffers.
//
// Deadlock: a holder that waits for more while keeping what it holds could
// wait for ever if every other holder did the same. [Budget.AcquireLeaving]
// prevents that: a holder takes its first bytes leaving room for the rest it
// may need, and takes the rest with [Budget.Acquire], which goes first. See
// internal/fetch for the two steps of a response body.
package budget
