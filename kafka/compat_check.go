package kafka

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// IncompatibleSchemaError reports a schema that NewRegistrySerializer,
// with CheckCompatibility, did not register because it is not compatible
// with the versions of its subject: the registry's own check said so, or
// the local check of the subject's compatibility level (schema.CheckMode)
// did, or both. It lists every reason of each. It matches
// registry.ErrIncompatible, and errors.As finds the *schema.ModeError of
// the local check in it.
type IncompatibleSchemaError struct {
	Topic, Subject string
	// Level is the subject's compatibility level: BACKWARD, FORWARD,
	// FULL, their _TRANSITIVE forms, or NONE.
	Level string
	// Registry is true when the registry found the schema incompatible;
	// Reasons are its reasons, when it gave any.
	Registry bool
	Reasons  []string
	// Versions are the subject's versions the local check compared the
	// schema with, oldest first (the latest alone under a level that is
	// not transitive).
	Versions []int
	// Local is the error of the local check, nil when it found nothing;
	// the Previous of each of its failures indexes Versions.
	Local *schema.ModeError
}

// Error names the topic, subject and level, and lists every reason, one
// per line.
func (e *IncompatibleSchemaError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%sthe schema is not %s compatible with the versions of subject %s", prefix(e.Topic), e.Level, e.Subject)
	if e.Registry && len(e.Reasons) == 0 {
		b.WriteString("\n\tthe registry found it incompatible, without reasons")
	}
	for _, r := range e.Reasons {
		b.WriteString("\n\tregistry: ")
		b.WriteString(r)
	}
	if e.Local != nil {
		for _, f := range e.Local.Failures {
			v := f.Previous
			if v >= 0 && v < len(e.Versions) {
				v = e.Versions[v]
			}
			for _, it := range f.Err.Items {
				if f.CandidateReads {
					fmt.Fprintf(&b, "\n\tthe schema cannot read the data of version %d: %s: %s", v, it.Path, it.Reason)
				} else {
					fmt.Fprintf(&b, "\n\tversion %d cannot read the schema's data: %s: %s", v, it.Path, it.Reason)
				}
			}
		}
	}
	return b.String()
}

// Unwrap returns registry.ErrIncompatible and the local check's
// *schema.ModeError, when there is one.
func (e *IncompatibleSchemaError) Unwrap() []error {
	errs := []error{registry.ErrIncompatible}
	if e.Local != nil {
		errs = append(errs, e.Local)
	}
	return errs
}

// levelModes maps the registry's compatibility levels to the modes of
// schema.CheckMode; NONE has none.
var levelModes = map[string]schema.Mode{
	"BACKWARD":            schema.Backward,
	"FORWARD":             schema.Forward,
	"FULL":                schema.Full,
	"BACKWARD_TRANSITIVE": schema.BackwardTransitive,
	"FORWARD_TRANSITIVE":  schema.ForwardTransitive,
	"FULL_TRANSITIVE":     schema.FullTransitive,
}

// checkCompatibility checks s against the versions of subject, with the
// registry's check and the local one under the subject's level, before s
// is registered there.
func checkCompatibility(ctx context.Context, c SubjectRegistry, topic, subject string, s *schema.Schema, refs []registry.Reference) error {
	level, err := subjectLevel(ctx, c, subject)
	if err != nil {
		return fmt.Errorf("%sthe compatibility level of %s: %w", prefix(topic), subject, err)
	}
	mode, known := levelModes[level]
	if !known && level != "NONE" {
		return fmt.Errorf("%ssubject %s has the compatibility level %q, which the local check does not know", prefix(topic), subject, level)
	}
	ok, reasons, err := c.CheckCompatibility(ctx, subject, registry.AllVersions, s, refs...)
	if err != nil {
		if !noVersions(err) {
			return fmt.Errorf("%schecking the schema against %s: %w", prefix(topic), subject, err)
		}
		ok, reasons = true, nil
	}
	e := &IncompatibleSchemaError{Topic: topic, Subject: subject, Level: level, Registry: !ok, Reasons: reasons}
	if known {
		// The registry's answer is not taken on trust: some answer
		// "compatible" to everything (in-memory fakes), and the levels
		// are defined by Avro's resolution rules, which are checked here.
		var previous []*schema.Schema
		if e.Versions, previous, err = subjectVersions(ctx, c, subject, mode); err != nil {
			return fmt.Errorf("%sthe versions of %s: %w", prefix(topic), subject, err)
		}
		if err := schema.CheckMode(mode, s, previous...); err != nil {
			if !errors.As(err, &e.Local) {
				return fmt.Errorf("%schecking the schema against %s: %w", prefix(topic), subject, err)
			}
		}
	}
	if e.Registry || e.Local != nil {
		return e
	}
	return nil
}

// subjectLevel returns the compatibility level of subject: its own, else
// the global one, else BACKWARD, the registry's default.
func subjectLevel(ctx context.Context, c SubjectRegistry, subject string) (string, error) {
	level, err := c.Config(ctx, subject)
	if errors.Is(err, registry.ErrSubjectCompatibilityNotConfigured) || errors.Is(err, registry.ErrSubjectNotFound) {
		level, err = c.Config(ctx, "")
	}
	if err != nil {
		return "", err
	}
	level = strings.ToUpper(strings.TrimSpace(level))
	if level == "" {
		level = "BACKWARD"
	}
	return level, nil
}

// subjectVersions returns the versions of subject that mode compares a
// new schema with, oldest first, and their schemas; none for a subject
// that has no versions yet.
func subjectVersions(ctx context.Context, c SubjectRegistry, subject string, mode schema.Mode) ([]int, []*schema.Schema, error) {
	versions, err := c.Versions(ctx, subject)
	if err != nil {
		if noVersions(err) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	versions = append([]int(nil), versions...)
	slices.Sort(versions)
	switch mode {
	case schema.Backward, schema.Forward, schema.Full:
		versions = versions[max(len(versions)-1, 0):]
	}
	previous := make([]*schema.Schema, len(versions))
	for i, v := range versions {
		ss, err := c.SchemaByVersion(ctx, subject, v)
		if err != nil {
			return nil, nil, fmt.Errorf("version %d: %w", v, err)
		}
		if ss.Schema == nil {
			return nil, nil, fmt.Errorf("version %d: no schema", v)
		}
		previous[i] = ss.Schema
	}
	return versions, previous, nil
}

// noVersions reports whether err says the subject has no versions to
// compare with.
func noVersions(err error) bool {
	return errors.Is(err, registry.ErrSubjectNotFound) || errors.Is(err, registry.ErrVersionNotFound)
}
