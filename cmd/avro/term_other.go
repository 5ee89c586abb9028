//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package main

import "os"

// isTerminal reports whether f is a character device, the closest a
// portable check comes to a terminal.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// terminal reports whether f is a terminal, and a width of 80 columns.
func terminal(f *os.File) (bool, int) {
	if !isTerminal(f) {
		return false, 0
	}
	return true, 80
}
