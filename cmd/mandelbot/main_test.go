package main

import (
	"os"
	"testing"
)

// envRunMain makes the test binary behave as the mandelbot command, so that tests can run it as
// a child process (and kill it) without building a separate binary.
const envRunMain = "MANDELBOT_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envRunMain) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}
