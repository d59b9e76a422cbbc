// Command mandelbot is the polite web crawler and its search index. This package only parses flags
// and wires the concrete types together; behaviour lives in the libraries and internal packages.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/fractle/mandelbot/internal/fetch"
)

// version is reported by `mandelbot --version`; the User-Agent header sends the same (one
// place: fetch.Version).
const version = fetch.Version

func main() {
	stop := startProfile(os.Getenv(envCPUProfile))
	stopHeap := startHeapProfile(os.Getenv(envHeapProfile))
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopHeap()
	stop()
	os.Exit(code)
}

// run executes the command line args and returns the process exit status. It is main without
// the process: tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCommand()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(stderr, "mandelbot: %v\n", ee.err)
		}
		return ee.code
	}
	// Anything cobra itself rejects (unknown command, wrong number of arguments) is usage.
	fmt.Fprintf(stderr, "mandelbot: %v\n", err)
	return exitUsage
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "mandelbot",
		Short:         "A polite web crawler that follows the Robots Exclusion Protocol exactly",
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf("%w%s (see '%s --help')", err, suggestFlag(c, err), c.CommandPath())
	})
	root.AddCommand(newDemoCommand(), newRobotsCommand(), newCrawlCommand(), newExportCommand(), newSearchCommand(), newServeCommand())
	markRuntimeErrors(root)
	return root
}

// markRuntimeErrors makes an error that a command returns without an exit status a runtime failure
// (exit 1), so that exit 2 stays what it says: bad flags or arguments, or unreadable input. Errors
// that cobra itself raises before a command runs (unknown command, wrong argument count) still
// reach run as plain errors, hence usage.
func markRuntimeErrors(c *cobra.Command) {
	if next := c.RunE; next != nil {
		c.RunE = func(cmd *cobra.Command, args []string) error {
			err := next(cmd, args)
			var ee *exitError
			if err != nil && !errors.As(err, &ee) {
				return &exitError{code: exitFailure, err: err}
			}
			return err
		}
	}
	for _, sub := range c.Commands() {
		markRuntimeErrors(sub)
	}
}
