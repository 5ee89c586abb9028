//go:build !race

package avro_test

// raceEnabled scales the large tests down under the race detector, which
// makes them several times slower; the full sizes run without -race.
const raceEnabled = false
