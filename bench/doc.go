// Package bench is the benchmark suite of github.com/avrogo/avro against
// its Go peers (hamba/avro, twmb/avro, linkedin/goavro and the code that
// gogen-avro generates), with parity tests that check every row of a group
// does the same work. It is a module of its own so that the peers never
// enter the library's go.mod.
//
// Run the suite and the comparison table with
//
//	go run ./cmd/compare
//
// See README.md for the rows.
package bench
