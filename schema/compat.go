package schema

import (
	"errors"
	"fmt"
	"strings"
)

// CheckCompatibility reports whether every datum written with writer can be
// read with reader, and returns nil if so. Otherwise it returns a
// *CompatibilityError that lists every incompatibility with its path in
// the reader schema: the mismatches that make Resolve fail, and also those
// that only some data would hit (writer enum symbols that the reader lacks
// and cannot default, writer union branches that the reader cannot read).
// As in the Java and Python checkers, every writer union branch must be
// readable, whereas Resolve accepts a union some of whose branches are not.
func CheckCompatibility(reader, writer *Schema) error {
	if writer == nil || reader == nil {
		return errors.New("schema: CheckCompatibility of a nil schema")
	}
	rs := resolver{memo: map[pairKey]*Action{}}
	a, errs := rs.resolve(writer, reader, &rpath{})
	c := collector{seenErr: map[*Incompatibility]bool{}, seen: map[*Action]bool{}}
	c.add(errs)
	c.walk(a)
	if len(c.items) == 0 {
		return nil
	}
	return newCompatibilityError(c.items)
}

// collector gathers the incompatibilities of an action graph, once each
// (a failed record's errors include those of its fields, which are also
// in the fields' own actions).
type collector struct {
	items   []*Incompatibility
	seenErr map[*Incompatibility]bool
	seen    map[*Action]bool
}

func (c *collector) add(errs []*Incompatibility) {
	for _, e := range errs {
		if !c.seenErr[e] {
			c.seenErr[e] = true
			c.items = append(c.items, e)
		}
	}
}

func (c *collector) walk(a *Action) {
	if a == nil || c.seen[a] {
		return
	}
	c.seen[a] = true
	c.add(a.errs)
	if a.missing != nil {
		c.add([]*Incompatibility{a.missing})
	}
	c.walk(a.elem)
	for _, b := range a.branches {
		c.walk(b)
	}
	for _, f := range a.fields {
		c.walk(f.Action)
	}
}

// Mode is a compatibility policy of a schema registry: which earlier
// schemas a new schema must be compatible with, and in which direction.
type Mode uint8

// The compatibility modes of schema registries (Confluent's names).
const (
	// Backward: the new schema can read data written with the latest
	// previous schema (consumers upgrade first).
	Backward Mode = iota + 1
	// Forward: the latest previous schema can read data written with the
	// new one (producers upgrade first).
	Forward
	// Full: both Backward and Forward.
	Full
	// BackwardTransitive: the new schema can read data written with every
	// previous schema.
	BackwardTransitive
	// ForwardTransitive: every previous schema can read data written with
	// the new one.
	ForwardTransitive
	// FullTransitive: both, against every previous schema.
	FullTransitive
)

// String returns the registry name of the mode ("BACKWARD", ...).
func (m Mode) String() string {
	switch m {
	case Backward:
		return "BACKWARD"
	case Forward:
		return "FORWARD"
	case Full:
		return "FULL"
	case BackwardTransitive:
		return "BACKWARD_TRANSITIVE"
	case ForwardTransitive:
		return "FORWARD_TRANSITIVE"
	case FullTransitive:
		return "FULL_TRANSITIVE"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ModeFailure is one failed check of CheckMode.
type ModeFailure struct {
	// Previous is the index, in the previous schemas passed to
	// CheckMode, of the schema the candidate was checked against.
	Previous int
	// CandidateReads is true when the candidate was the reader (a
	// backward check) and false when the previous schema was (forward).
	CandidateReads bool
	// Err lists the incompatibilities.
	Err *CompatibilityError
}

// ModeError is the error of CheckMode: every check that failed.
type ModeError struct {
	Mode     Mode
	Failures []ModeFailure
}

// Error describes each failed check and its incompatibilities.
func (e *ModeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "schema: not %s compatible", e.Mode)
	for _, f := range e.Failures {
		dir := "previous schema %d cannot read the candidate's data"
		if f.CandidateReads {
			dir = "the candidate cannot read the data of previous schema %d"
		}
		b.WriteString("\n")
		fmt.Fprintf(&b, dir, f.Previous)
		for _, it := range f.Err.Items {
			b.WriteString("\n\t")
			b.WriteString(it.Path)
			b.WriteString(": ")
			b.WriteString(it.Reason)
		}
	}
	return b.String()
}

// Unwrap returns the *CompatibilityError of each failed check.
func (e *ModeError) Unwrap() []error {
	errs := make([]error, len(e.Failures))
	for i, f := range e.Failures {
		errs[i] = f.Err
	}
	return errs
}

// CheckMode checks a candidate schema against the schemas registered
// before it, oldest first (the latest is the last), under a registry
// compatibility mode: the non-transitive modes check the latest only, the
// transitive ones every previous schema. With no previous schema every
// candidate passes. A failure is a *ModeError that lists every failed
// check with its incompatibilities.
func CheckMode(mode Mode, candidate *Schema, previous ...*Schema) error {
	if candidate == nil {
		return errors.New("schema: CheckMode of a nil schema")
	}
	var backward, forward, transitive bool
	switch mode {
	case Backward:
		backward = true
	case Forward:
		forward = true
	case Full:
		backward, forward = true, true
	case BackwardTransitive:
		backward, transitive = true, true
	case ForwardTransitive:
		forward, transitive = true, true
	case FullTransitive:
		backward, forward, transitive = true, true, true
	default:
		return fmt.Errorf("schema: unknown compatibility mode %d", uint8(mode))
	}
	first := len(previous) - 1
	if transitive {
		first = 0
	}
	e := &ModeError{Mode: mode}
	for i := max(first, 0); i < len(previous); i++ {
		p := previous[i]
		if p == nil {
			return fmt.Errorf("schema: CheckMode: previous schema %d is nil", i)
		}
		if backward {
			if err := CheckCompatibility(candidate, p); err != nil {
				e.Failures = append(e.Failures, ModeFailure{Previous: i, CandidateReads: true, Err: err.(*CompatibilityError)})
			}
		}
		if forward {
			if err := CheckCompatibility(p, candidate); err != nil {
				e.Failures = append(e.Failures, ModeFailure{Previous: i, Err: err.(*CompatibilityError)})
			}
		}
	}
	if len(e.Failures) > 0 {
		return e
	}
	return nil
}
