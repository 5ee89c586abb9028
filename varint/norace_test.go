//go:build !race

package varint

const raceEnabled = false
