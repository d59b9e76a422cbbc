// Package trap holds the crawler-trap defences of issue 9: path heuristics
// that reject a URL on sight ([Check]) and a per-origin page budget
// ([PageBudget]). Each defence has a name ([Heuristic]) that appears in the
// reason recorded for a URL it rejects, so the export and the dashboard can
// show which origins hit which defence.
//
// The package is pure: no I/O, no clock, no global state.
package trap
