package avro

import "github.com/avrogo/avro/internal/codec"

// Duration is the Go value of the Avro duration logical type (a fixed of
// 12 bytes: three little-endian unsigned 32-bit integers). The three parts
// are kept apart, as the specification defines them, because they do not
// convert into one another: a month has no fixed number of days, and a day
// has no fixed number of milliseconds across daylight saving changes. That
// is also why this is not a time.Duration. Any struct type with the same
// three fields maps to duration too.
type Duration struct {
	Months       uint32 // number of months
	Days         uint32 // number of days
	Milliseconds uint32 // number of milliseconds
}

func init() { codec.UseDurationType[Duration]() }
