//go:build !race

package jsontext

// raceEnabled scales the long loops down under the race detector, which
// slows them about tenfold.
const raceEnabled = false
