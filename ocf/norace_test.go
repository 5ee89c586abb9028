//go:build !race

package ocf

// raceEnabled scales the large tests down under the race detector, which
// makes them about ten times slower; the full sizes run without -race.
const raceEnabled = false
