package avro

import (
	"reflect"

	"github.com/avrogo/avro/schema"
)

func isValueType(t reflect.Type) bool { return false }

func (c *compiler) valueDecoder(s *schema.Schema, path string) (decoder, error) { return nil, nil }
func (c *compiler) valueEncoder(s *schema.Schema, path string) (encoder, error) { return nil, nil }
