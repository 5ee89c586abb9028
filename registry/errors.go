package registry

import (
	"errors"
	"fmt"
)

// Error is an error response of the registry.
type Error struct {
	// Method and Path are the request's.
	Method, Path string
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the registry's error code (40401, 42201, ...), or the
	// status when the body had none.
	Code int
	// Message is the registry's message.
	Message string
}

// Error formats the error as "registry: GET /schemas/ids/7: 404 (40403):
// Schema 7 not found".
func (e *Error) Error() string {
	return fmt.Sprintf("registry: %s %s: %d (%d): %s", e.Method, e.Path, e.StatusCode, e.Code, e.Message)
}

// Is reports whether target is the sentinel of e's code (or, for
// ErrIncompatible, its status).
func (e *Error) Is(target error) bool {
	s, ok := target.(*codeError)
	if !ok {
		return false
	}
	return e.Code == s.code || s.code == 409 && e.StatusCode == 409
}

// codeError is a sentinel that an *Error with its registry error code
// matches.
type codeError struct {
	code int
	msg  string
}

func (s *codeError) Error() string { return "registry: " + s.msg }

// sentinel returns the sentinel of a registry error code. It is a
// function so that go doc shows each sentinel's code and message.
func sentinel(code int, msg string) error { return &codeError{code, msg} }

// Sentinels of the registry's error codes, for errors.Is. An *Error
// matches the sentinel of its code; ErrIncompatible matches every 409.
var (
	ErrSubjectNotFound    = sentinel(40401, "subject not found")
	ErrVersionNotFound    = sentinel(40402, "version not found")
	ErrSchemaNotFound     = sentinel(40403, "schema not found")
	ErrSubjectSoftDeleted = sentinel(40404, "subject was soft deleted")
	ErrIncompatible       = sentinel(409, "schema incompatible with an earlier version")
	ErrInvalidSchema      = sentinel(42201, "invalid schema")
	ErrInvalidVersion     = sentinel(42202, "invalid version")
	// ErrSubjectCompatibilityNotConfigured is the answer of Config for a
	// subject without a compatibility level of its own, whose level is
	// then the global one (Confluent Platform 7 and later; earlier ones
	// answer with the global level).
	ErrSubjectCompatibilityNotConfigured = sentinel(40408, "subject has no compatibility level of its own")
)

// ErrTooLarge is returned for a response larger than the client's limit
// (DefaultMaxResponseSize, or WithMaxResponseSize).
var ErrTooLarge = errors.New("registry: response too large")

// ErrReferences is wrapped by the errors of a reference graph that is
// cyclic or deeper than the client's limit (DefaultMaxReferenceDepth, or
// WithMaxReferenceDepth).
var ErrReferences = errors.New("registry: bad schema references")
