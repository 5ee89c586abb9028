package idl

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
)

// jkind is the kind of a JSON value.
type jkind uint8

const (
	jNull jkind = iota
	jBool
	jInt // an integer (Java's IntNode or LongNode)
	jFloat
	jString
	jArray
	jObject
)

// jvalue is a JSON value that keeps the order of object members, as Java's
// Jackson nodes do, so that properties and defaults print in source order.
type jvalue struct {
	kind jkind
	b    bool
	i    int64
	f    float64
	num  string // the text of a number read from JSON, printed as is
	s    string
	arr  []*jvalue
	keys []string
	vals []*jvalue
	idx  map[string]int // key positions, once an object has many keys
}

// set adds or replaces a member, keeping the first position of a key as
// Jackson's ObjectNode.set does.
func (v *jvalue) set(k string, x *jvalue) {
	if i, ok := v.find(k); ok {
		v.vals[i] = x
		return
	}
	if v.idx != nil {
		v.idx[k] = len(v.keys)
	}
	v.keys = append(v.keys, k)
	v.vals = append(v.vals, x)
}

// find gives the position of key k, indexing the keys of a large object so
// that building one stays linear.
func (v *jvalue) find(k string) (int, bool) {
	if v.idx == nil && len(v.keys) > 16 {
		v.idx = make(map[string]int, len(v.keys))
		for i, key := range v.keys {
			v.idx[key] = i
		}
	}
	if v.idx != nil {
		i, ok := v.idx[k]
		return i, ok
	}
	for i, key := range v.keys {
		if key == k {
			return i, true
		}
	}
	return 0, false
}

func (v *jvalue) get(k string) *jvalue {
	if v == nil || v.kind != jObject {
		return nil
	}
	if i, ok := v.find(k); ok {
		return v.vals[i]
	}
	return nil
}

func jstr(s string) *jvalue { return &jvalue{kind: jString, s: s} }

// write appends v as JSON. Non-finite doubles print as the strings Jackson
// writes for them ("NaN", "Infinity", "-Infinity").
func (v *jvalue) write(buf *bytes.Buffer) {
	switch v.kind {
	case jNull:
		buf.WriteString("null")
	case jBool:
		buf.WriteString(strconv.FormatBool(v.b))
	case jInt:
		if v.num != "" {
			buf.WriteString(v.num)
		} else {
			buf.WriteString(strconv.FormatInt(v.i, 10))
		}
	case jFloat:
		switch {
		case v.num != "":
			buf.WriteString(v.num)
		case math.IsNaN(v.f):
			buf.WriteString(`"NaN"`)
		case math.IsInf(v.f, 1):
			buf.WriteString(`"Infinity"`)
		case math.IsInf(v.f, -1):
			buf.WriteString(`"-Infinity"`)
		default:
			buf.WriteString(javaDouble(v.f))
		}
	case jString:
		writeString(buf, v.s)
	case jArray:
		buf.WriteByte('[')
		for i, x := range v.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			x.write(buf)
		}
		buf.WriteByte(']')
	case jObject:
		buf.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, k)
			buf.WriteByte(':')
			v.vals[i].write(buf)
		}
		buf.WriteByte('}')
	}
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s)
	buf.Write(b)
}

// errDepth is returned by decodeJSON for a text nested too deeply.
var errDepth = errors.New("JSON nested too deeply")

// decodeJSON reads one JSON value keeping member order. Numbers keep their
// text.
func decodeJSON(data []byte, maxDepth int) (*jvalue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec, 0, maxDepth)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("text after the JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth, maxDepth int) (*jvalue, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	t, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	switch t := t.(type) {
	case nil:
		return &jvalue{kind: jNull}, nil
	case bool:
		return &jvalue{kind: jBool, b: t}, nil
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return &jvalue{kind: jInt, i: i, num: string(t)}, nil
		}
		f, _ := strconv.ParseFloat(string(t), 64)
		return &jvalue{kind: jFloat, f: f, num: string(t)}, nil
	case string:
		return jstr(t), nil
	case json.Delim:
		if t == '[' {
			v := &jvalue{kind: jArray}
			for dec.More() {
				x, err := decodeValue(dec, depth+1, maxDepth)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, x)
			}
			_, err := dec.Token()
			return v, err
		}
		v := &jvalue{kind: jObject}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			x, err := decodeValue(dec, depth+1, maxDepth)
			if err != nil {
				return nil, err
			}
			v.set(k, x)
		}
		_, err := dec.Token()
		return v, err
	}
	return nil, errors.New("unexpected JSON token")
}

func sameJSON(a, b *jvalue) bool {
	var x, y bytes.Buffer
	a.write(&x)
	b.write(&y)
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// javaDouble formats a finite double as Java's Double.toString, which
// Jackson uses: plain from 10^-3 to 10^7, else as 1.0E12.
func javaDouble(f float64) string {
	if a := math.Abs(f); a == 0 || a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(exp, "+-0")
	if neg {
		exp = "-" + exp
	}
	return mant + "E" + exp
}
