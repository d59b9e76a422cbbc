package frontier

import (
	"net/http"
	"time"

	"github.com/fractle/mandelbot/internal/store"
	"github.com/fractle/mandelbot/robotstxt"
)

// StepKind says what the caller must do next.
type StepKind uint8

const (
	// StepWait: nothing may be done before Until; a zero Until means nothing until an outcome is
	// reported (requests in flight or writes pending).
	StepWait StepKind = iota
	// StepDone: no work is left and nothing is in flight.
	StepDone
	// StepLoad: read Origin's persisted record and up to Limit of its due URLs from the store
	// (store.Queue.LoadOrigin) and call Loaded.
	StepLoad
	// StepRefill: read up to Limit due URLs of Origin from the store and call Refilled.
	StepRefill
	// StepRobots: fetch Origin's robots.txt (with Header as validators) and call RobotsDone.
	StepRobots
	// StepFetch: request URL (it passed the gate) and call Done, or Answered when the answer is
	// read and Processed when its record is ready.
	StepFetch
	// StepSkip: URL is disallowed by robots.txt: record it (Reason, Verdict) without requesting
	// it, then call Persisted like for any write.
	StepSkip
	// StepReject: URL is past a crawl-trap defence (the origin's page budget, issue 9): record
	// it out of scope with Reason without requesting it, then call Persisted.
	StepReject
	// StepRelease: Origin has nothing left to do and is forgotten (Options.ReleaseIdle): give up
	// its lease. Nothing is reported back.
	StepRelease
)

// Step is one thing to do. Fields beyond Kind are set as the kind says.
type Step struct {
	Kind    StepKind
	Origin  string
	URL     store.URL
	Header  http.Header // validators for StepRobots
	Limit   int         // for StepLoad and StepRefill (at least 1 for StepRefill)
	Until   time.Time   // for StepWait
	Reason  string      // for StepSkip and StepReject
	Verdict robotstxt.Verdict
}
