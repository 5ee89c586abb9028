package idl

import (
	"errors"
	"fmt"
)

// ErrLimit is wrapped by the *Error returned when a file exceeds one of the
// limits of Options: its size, its nesting depth or the depth of its imports.
var ErrLimit = errors.New("idl: limit exceeded")

// Error reports why an IDL file was refused and where: the file, and the line
// and column (both from 1, the column counted in characters) of the token at
// fault. Msg says what was expected or what is wrong, as in
// `expected ';' after field "x"`. Err, when not nil, is the underlying cause:
// ErrLimit, an error of the file system (errors.Is(err, fs.ErrNotExist) for a
// missing import), or the error of package schema for a type it refused.
type Error struct {
	File   string
	Line   int
	Column int
	Msg    string
	Err    error
}

// Error formats the error as "file:line:column: message".
func (e *Error) Error() string {
	s := fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
	if e.Line == 0 {
		// a file that cannot be read has no position
		s = e.File + ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }
