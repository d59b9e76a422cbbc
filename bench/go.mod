module github.com/fractle/mandelbot/bench

go 1.26.8

require (
	github.com/fractle/mandelbot v0.0.0-00010101000000-000000000000
	github.com/jimsmart/grobotstxt v1.0.3
	github.com/temoto/robotstxt v1.1.2
)

replace github.com/fractle/mandelbot => ../
