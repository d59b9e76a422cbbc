// Package tester is the robots.txt tester behind `mandelbot robots test` and the web UI: it
// checks URLs against one robots.txt decision and explains each verdict in terms a site owner can
// act on: the group chosen, the deciding line, the lines that were ignored and why.
package tester
