package corpus

import "github.com/avrogo/avro/schema"

// root is a root type of the corpus.
type root struct {
	group, input string
	new          func() any
	schema       func() *schema.Schema
}
