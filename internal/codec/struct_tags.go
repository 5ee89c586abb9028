package codec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/avrogo/avro/schema"
)

// fieldTag is a parsed `avro:"name,opt,opt=value"` struct tag.
type fieldTag struct {
	name     string
	aliases  []string
	inline   bool
	omitzero bool
	// def is the JSON text of default=, when hasDef.
	def    string
	hasDef bool
	doc    string
	// logical is the logical type the field must have (or gets, in
	// SchemaOf), with precision and scale for a decimal.
	logical          schema.Logical
	precision, scale int
	// typeName names the record or fixed a field's type introduces in
	// SchemaOf.
	typeName string
	// long asks for an Avro long for the integers the field holds,
	// accepting that Marshal range-checks the unsigned ones.
	long bool
}

// tagLogicals are the logical types a tag may name: those whose Go
// mapping a tag can choose (the others follow from the Go type).
var tagLogicals = map[string]schema.Logical{
	"uuid": schema.UUID, "date": schema.Date, "time-millis": schema.TimeMillis,
	"time-micros": schema.TimeMicros, "timestamp-millis": schema.TimestampMillis,
	"timestamp-micros": schema.TimestampMicros, "timestamp-nanos": schema.TimestampNanos,
	"local-timestamp-millis": schema.LocalTimestampMillis, "local-timestamp-micros": schema.LocalTimestampMicros,
	"local-timestamp-nanos": schema.LocalTimestampNanos, "big-decimal": schema.BigDecimal,
}

// parseTag parses the avro tag of a struct field. The syntax is a name,
// then comma-separated options; an option's value runs to the next comma
// unless it is single-quoted (doc='a, b'), a default= value is one JSON
// value, commas and all (default=[1,2]), alias=[a,b] lists several
// aliases, and decimal(10,2) keeps its comma.
func parseTag(tag string) (fieldTag, error) {
	var ft fieldTag
	name, rest, _ := strings.Cut(tag, ",")
	ft.name = name
	for rest != "" {
		key, val, hasVal, tail, err := nextTagOption(rest)
		if err != nil {
			return ft, err
		}
		rest = tail
		if err := ft.set(key, val, hasVal); err != nil {
			return ft, err
		}
	}
	if ft.inline && (ft.name != "" || ft.hasDef || ft.omitzero || ft.logical != schema.NoLogical || len(ft.aliases) > 0 || ft.typeName != "" || ft.long) {
		return ft, fmt.Errorf("inline takes no name and no other option: the inlined struct's fields have their own tags")
	}
	if ft.long && ft.logical != schema.NoLogical {
		return ft, fmt.Errorf("long and %s: the logical type names the Avro type itself", ft.logicalText())
	}
	return ft, nil
}

// nextTagOption cuts the first option off rest.
func nextTagOption(rest string) (key, val string, hasVal bool, tail string, err error) {
	// A decimal's arguments hold a comma.
	if strings.HasPrefix(rest, "decimal(") || strings.HasPrefix(rest, "logical=decimal(") {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return "", "", false, "", fmt.Errorf("%s has no closing parenthesis", rest)
		}
		key, tail = rest[:end+1], rest[end+1:]
		if tail != "" && tail[0] != ',' {
			return "", "", false, "", fmt.Errorf("%s is followed by %q, not a comma", key, tail)
		}
		tail = strings.TrimPrefix(tail, ",")
		if k, v, ok := strings.Cut(key, "="); ok {
			return k, v, true, tail, nil
		}
		return key, "", false, tail, nil
	}
	eq := strings.IndexAny(rest, "=,")
	if eq < 0 || rest[eq] == ',' {
		key, tail, _ = strings.Cut(rest, ",")
		return key, "", false, tail, nil
	}
	key, rest = rest[:eq], rest[eq+1:]
	switch {
	case key == "default":
		dec := json.NewDecoder(strings.NewReader(rest))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			text, _, _ := strings.Cut(rest, ",")
			return "", "", false, "", &defaultSyntaxError{text: text, err: err}
		}
		n := int(dec.InputOffset())
		val, tail = strings.TrimSpace(rest[:n]), rest[n:]
	case key == "alias" && strings.HasPrefix(rest, "["):
		end := strings.IndexByte(rest, ']')
		if end < 0 {
			return "", "", false, "", fmt.Errorf("alias=%s has no closing bracket", rest)
		}
		val, tail = rest[:end+1], rest[end+1:]
	case strings.HasPrefix(rest, "'"):
		end := strings.IndexByte(rest[1:], '\'')
		if end < 0 {
			return "", "", false, "", fmt.Errorf("%s= has an unclosed quote", key)
		}
		val, tail = rest[1:1+end], rest[2+end:]
	default:
		val, tail, _ = strings.Cut(rest, ",")
		return key, val, true, tail, nil
	}
	if tail != "" && tail[0] != ',' {
		return "", "", false, "", fmt.Errorf("%s= is followed by %q, not a comma", key, tail)
	}
	return key, val, true, strings.TrimPrefix(tail, ","), nil
}

// defaultSyntaxError is a default= that is not JSON text.
type defaultSyntaxError struct {
	text string // the value, up to the next comma
	err  error
	hint string // what to write instead, once the Go type is known
}

func (e *defaultSyntaxError) Error() string {
	msg := fmt.Sprintf("default=%s is not a JSON value (%v): a default is JSON, as in a schema", e.text, e.err)
	if e.hint != "" {
		msg += ": " + e.hint
	}
	return msg
}

// defaultHint completes a default= syntax error with what to write for
// a field of Go type t.
func defaultHint(err error, t reflect.Type) error {
	e, ok := err.(*defaultSyntaxError)
	if !ok {
		return err
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	quoted := "default=" + strconv.Quote(e.text)
	switch t.Kind() {
	case reflect.String:
		e.hint = "write " + quoted
	case reflect.Bool:
		e.hint = "write default=true or default=false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		e.hint = "write a JSON number, such as default=0"
	default:
		e.hint = "write the value's JSON text (a string quoted, as " + quoted + ")"
	}
	return e
}

func (ft *fieldTag) set(key, val string, hasVal bool) error {
	noValue := func() error {
		if hasVal {
			return fmt.Errorf("option %s takes no value", key)
		}
		return nil
	}
	switch key {
	case "inline":
		ft.inline = true
		return noValue()
	case "omitzero":
		ft.omitzero = true
		return noValue()
	case "long":
		ft.long = true
		return noValue()
	case "default":
		ft.def, ft.hasDef = val, true
	case "alias":
		names := []string{val}
		if strings.HasPrefix(val, "[") && strings.HasSuffix(val, "]") {
			names = strings.Split(val[1:len(val)-1], ",")
		}
		for _, n := range names {
			if n == "" {
				return fmt.Errorf("alias= needs a name")
			}
			ft.aliases = append(ft.aliases, n)
		}
	case "doc":
		ft.doc = val
	case "typename":
		if val == "" {
			return fmt.Errorf("typename= needs a name")
		}
		ft.typeName = val
	case "logical":
		return ft.setLogical(val)
	case "":
		return fmt.Errorf("empty option")
	default:
		if hasVal {
			return fmt.Errorf("unknown option %s=", key)
		}
		if err := ft.setLogical(key); err != nil {
			if strings.HasPrefix(key, "decimal(") || ft.logical != schema.NoLogical {
				return err
			}
			return fmt.Errorf("unknown option %q", key)
		}
		return nil
	}
	if !hasVal {
		return fmt.Errorf("option %s needs a value (%s=...)", key, key)
	}
	return nil
}

// setLogical sets the logical type a tag names: one of tagLogicals, or
// decimal(precision,scale).
func (ft *fieldTag) setLogical(name string) error {
	if ft.logical != schema.NoLogical {
		return fmt.Errorf("two logical types, %s and %s", ft.logical, name)
	}
	if l, ok := tagLogicals[name]; ok {
		ft.logical = l
		return nil
	}
	args, ok := strings.CutPrefix(name, "decimal(")
	if !ok || !strings.HasSuffix(args, ")") {
		return fmt.Errorf("unknown logical type %q", name)
	}
	p, s, ok := strings.Cut(args[:len(args)-1], ",")
	if !ok {
		s = "0"
	}
	prec, err1 := strconv.Atoi(strings.TrimSpace(p))
	scale, err2 := strconv.Atoi(strings.TrimSpace(s))
	if err1 != nil || err2 != nil || prec < 1 || scale < 0 || scale > prec {
		return fmt.Errorf("decimal(%s) needs a precision of at least 1 and a scale from 0 to the precision", args[:len(args)-1])
	}
	ft.logical, ft.precision, ft.scale = schema.Decimal, prec, scale
	return nil
}

// logicalText renders the tag's logical type as a tag names it.
func (ft *fieldTag) logicalText() string {
	if ft.logical == schema.Decimal {
		return fmt.Sprintf("decimal(%d,%d)", ft.precision, ft.scale)
	}
	return ft.logical.String()
}
