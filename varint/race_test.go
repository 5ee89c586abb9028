//go:build race

package varint

const raceEnabled = true
