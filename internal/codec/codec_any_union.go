package codec

import (
	"encoding/json"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/avrogo/avro/schema"
)

// Unions of values held in an any: the branch a Go value goes to (see the
// order of preference in codec_any.go).

// anyClass is the shape of a Go value, for choosing a union branch.
type anyClass uint8

const (
	clsNone anyClass = iota
	clsNull
	clsBool
	clsInt64 // int, int64, uint, uint64, uintptr
	clsInt32 // int8..int32, uint8..uint32
	clsFloat32
	clsFloat64
	clsString
	clsBytes     // []byte
	clsByteArray // [N]byte
	clsSlice     // other slices and arrays
	clsStringMap // map[string]any
	clsMap       // other maps with string keys
	clsTime
	clsDuration // time.Duration
	clsRat
	clsAvroDuration
	numClasses
)

func classify(v any) anyClass {
	switch v := v.(type) {
	case nil:
		return clsNull
	case bool:
		return clsBool
	case int, int64, uint, uint64, uintptr:
		return clsInt64
	case int32, int16, int8, uint32, uint16, uint8:
		return clsInt32
	case float32:
		return clsFloat32
	case float64:
		return clsFloat64
	case string:
		return clsString
	case []byte:
		return clsBytes
	case []any:
		return clsSlice
	case map[string]any:
		return clsStringMap
	case time.Time:
		return clsTime
	case time.Duration:
		return clsDuration
	case *big.Rat, big.Rat:
		return clsRat
	case [16]byte:
		return clsByteArray
	case json.Number:
		if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
			return clsInt64
		}
		return clsFloat64
	}
	if _, ok := unboxDuration(v); ok {
		return clsAvroDuration
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return clsBool
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64, reflect.Uintptr:
		return clsInt64
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return clsInt32
	case reflect.Float32:
		return clsFloat32
	case reflect.Float64:
		return clsFloat64
	case reflect.String:
		return clsString
	case reflect.Slice:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return clsBytes
		}
		return clsSlice
	case reflect.Array:
		if rv.Type().Elem().Kind() == reflect.Uint8 {
			return clsByteArray
		}
		return clsSlice
	case reflect.Map:
		if rv.Type().Key().Kind() == reflect.String {
			return clsMap
		}
	}
	return clsNone
}

// branchRank returns the preference of branch b for values of class cls
// (lower is preferred), or -1 when b never takes them. See the package
// comment above for the order.
func branchRank(cls anyClass, b *schema.Schema) int {
	k, l := b.Kind(), b.Logical()
	pick := func(kinds ...schema.Kind) int {
		for i, x := range kinds {
			if x == k {
				return i
			}
		}
		return -1
	}
	switch cls {
	case clsNull:
		return pick(schema.Null)
	case clsBool:
		return pick(schema.Boolean)
	case clsInt64:
		return numberRank(l, pick(schema.Long, schema.Int, schema.Double, schema.Float))
	case clsInt32:
		return pick(schema.Int, schema.Long, schema.Double, schema.Float)
	case clsFloat32:
		return pick(schema.Float, schema.Double)
	case clsFloat64:
		return numberRank(l, pick(schema.Double, schema.Float))
	case clsString:
		if k == schema.Fixed && l != schema.UUID {
			return -1
		}
		return pick(schema.String, schema.Enum, schema.Fixed, schema.Bytes)
	case clsBytes:
		return pick(schema.Bytes, schema.Fixed, schema.String)
	case clsByteArray:
		if k == schema.String && l != schema.UUID {
			return -1
		}
		return pick(schema.Fixed, schema.String)
	case clsSlice:
		return pick(schema.Array)
	case clsStringMap:
		return pick(schema.Record, schema.Map)
	case clsMap:
		return pick(schema.Map, schema.Record)
	case clsTime:
		switch l {
		case schema.Date, schema.TimestampMillis, schema.TimestampMicros, schema.TimestampNanos,
			schema.LocalTimestampMillis, schema.LocalTimestampMicros, schema.LocalTimestampNanos:
			return 0
		}
	case clsDuration:
		if l == schema.TimeMillis || l == schema.TimeMicros {
			return 0
		}
		if r := pick(schema.Long, schema.Int); r >= 0 {
			return 1 + r
		}
	case clsRat:
		if l == schema.Decimal || l == schema.BigDecimal {
			return 0
		}
	case clsAvroDuration:
		if l == schema.Duration {
			return 0
		}
	}
	return -1
}

// numberRank is the rank of a branch of logical type l, which ranks r
// for the class of integers (clsInt64) or of float64s: a decimal comes
// after the numbers, for the only Go value of those classes it takes,
// a json.Number.
func numberRank(l schema.Logical, r int) int {
	if l == schema.Decimal || l == schema.BigDecimal {
		return 4
	}
	return r
}

type anyUnion struct {
	s         *schema.Schema
	branches  []anyNode
	nullIndex int
	byName    map[string]int
	// order lists, for each class of Go value, the branches that may take
	// it, preferred first.
	order [numClasses][]int
	// records lists the record branches, for the loose match of a map.
	records []int
}

func (c *compiler) newAnyUnion(s *schema.Schema, path string) (*anyUnion, error) {
	u := &anyUnion{s: s, nullIndex: -1, byName: map[string]int{}}
	for i, b := range s.Branches() {
		n, err := c.anyNodeFor(b, joinPath(path, "["+b.FullName()+"]"))
		if err != nil {
			return nil, err
		}
		u.branches = append(u.branches, n)
		if b.Kind() == schema.Null && u.nullIndex < 0 {
			u.nullIndex = i
		}
		if b.Kind() == schema.Record {
			u.records = append(u.records, i)
		}
		names := []string{b.FullName()}
		if b.Logical() != schema.NoLogical {
			names = append(names, b.Kind().String()+"."+b.Logical().String())
		}
		for _, name := range names {
			if _, dup := u.byName[name]; !dup {
				u.byName[name] = i
			}
		}
	}
	// Short names only where no branch has that full name: in
	// ["n.E", "E"] the key "E" names the second branch, not the first's
	// short name.
	for i, b := range s.Branches() {
		if _, dup := u.byName[b.Name()]; b.Kind().IsNamed() && !dup {
			u.byName[b.Name()] = i
		}
	}
	for cls := range numClasses {
		var idx []int
		for i, b := range s.Branches() {
			if branchRank(cls, b) >= 0 {
				idx = append(idx, i)
			}
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			return branchRank(cls, s.Branches()[a]) - branchRank(cls, s.Branches()[b])
		})
		u.order[cls] = idx
	}
	return u, nil
}

func (n *anyUnion) decodeAny(d *decodeState, b *anyBoxes) any {
	i := readUnionIndex(n.s, d)
	if d.Err != nil {
		return nil
	}
	return n.branches[i].decodeAny(d, b)
}

// onlyEntry returns the entry of a map of one entry (a union wrapper,
// {"type": value}), without setting up a range over it when it can.
func onlyEntry(m map[string]any) (string, any) {
	if w, ok := walkSmallMap(pointerTo(&m)); ok {
		size, off := slotLayout[any]()
		if s := w.next(size); !s.isNil() {
			return *as[string](s), *as[any](s.add(off))
		}
	}
	for k, v := range m {
		return k, v
	}
	return "", nil
}

// pick returns the branch for v and the value to encode in it (v, or the
// content of a wrapper map), or -1.
func (n *anyUnion) pick(v any) (int, any) {
	if v == nil {
		return n.nullIndex, nil
	}
	m, isMap := v.(map[string]any)
	if isMap && len(m) == 1 {
		k, inner := onlyEntry(m)
		if i, ok := n.byName[k]; ok && n.branches[i].accepts(inner) {
			return i, inner
		}
	}
	cls := classify(v)
	if (cls == clsStringMap || cls == clsMap) && len(n.order[cls]) == 1 && len(n.records) <= 1 {
		// The only branch that takes a map (["null", "Rec"], the usual
		// optional record): matching its fields first would look every
		// field up twice. A map that does not fit it fails inside it,
		// naming the field.
		return n.order[cls][0], v
	}
	for _, i := range n.order[cls] {
		if n.branches[i].accepts(v) {
			return i, v
		}
	}
	if cls == clsStringMap || cls == clsMap {
		for _, i := range n.records {
			if n.branches[i].(*anyRecord).keysMatch(v, false) {
				return i, v
			}
		}
	}
	return -1, nil
}

func (n *anyUnion) encodeAny(v any, e *encodeState) {
	i, x := n.pick(v)
	if i < 0 {
		if v == nil {
			e.Failf(ErrRange, "nil for a union without null")
			return
		}
		e.Failf(ErrRange, "Go %T fits no branch of the union %s", v, unionText(n.s))
		return
	}
	e.WriteLong(int64(i))
	n.branches[i].encodeAny(x, e)
}

func (n *anyUnion) accepts(v any) bool {
	i, _ := n.pick(v)
	return i >= 0
}

// unionText names the branches of a union for an error message.
func unionText(s *schema.Schema) string {
	b := []byte{'['}
	for i, br := range s.Branches() {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, br.FullName()...)
	}
	return string(append(b, ']'))
}
