//go:build !race

package avrojson_test

// raceEnabled is set under the race detector, whose sync.Pool drops items
// at random: allocation counts then say nothing about the code.
const raceEnabled = false
