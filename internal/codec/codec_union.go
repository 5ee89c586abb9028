package codec

import (
	"encoding/json"
	"reflect"
	"strconv"
	"sync"

	"github.com/modern-go/reflect2"

	"github.com/avrogo/avro/schema"
)

// readUnionIndex reads a union branch index and checks it.
func readUnionIndex(s *schema.Schema, d *decodeState) int {
	return d.ReadBranch(len(s.Branches()))
}

// ptrDecoder decodes a non-union schema into *T, allocating T when the
// pointer is nil.
type ptrDecoder struct {
	newElem func(d *decodeState) pointer
	dec     decoder
}

func (c *ptrDecoder) decode(p pointer, d *decodeState) {
	pp := as[pointer](p)
	if (*pp).isNil() {
		if *pp = c.newElem(d); (*pp).isNil() {
			return
		}
	}
	c.dec.decode(*pp, d)
}

// ptrEncoder encodes *T for a schema without null: nil is an error.
type ptrEncoder struct {
	enc encoder
}

func (c *ptrEncoder) encode(p pointer, e *encodeState) {
	ptr := p.elem()
	if ptr.isNil() {
		e.Failf(ErrRange, "nil pointer for a schema without null")
		return
	}
	c.enc.encode(ptr, e)
}

// endlessPointer reports whether t is a pointer type whose chain of
// pointer elements never ends (type P *P): no value of it holds anything
// but pointers, so no schema without null can be written from or read into
// it, and following it would never stop.
func endlessPointer(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	for ; t.Kind() == reflect.Pointer; t = t.Elem() {
		if seen[t] {
			return true
		}
		seen[t] = true
	}
	return false
}

func (c *compiler) ptrDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	if endlessPointer(t) {
		return nil, typeErr(path, t, s, "its pointers only point to pointers")
	}
	pd := &ptrDecoder{newElem: pointeeAllocator(t.Elem())}
	c.decoders[compileKey{s, t}] = pd
	dec, err := c.decoderFor(s, t.Elem(), path)
	if err != nil {
		return nil, err
	}
	pd.dec = dec
	return pd, nil
}

func (c *compiler) ptrEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	if endlessPointer(t) {
		return nil, typeErr(path, t, s, "its pointers only point to pointers")
	}
	pe := &ptrEncoder{}
	c.encoders[compileKey{s, t}] = pe
	enc, err := c.encoderFor(s, t.Elem(), path)
	if err != nil {
		return nil, err
	}
	pe.enc = enc
	return pe, nil
}

// unionDecoder decodes a union into a Go type that is not an interface:
//   - *T: null is a nil pointer; another branch allocates T (or reuses the
//     pointee) and decodes into it;
//   - a slice or map: null is nil;
//   - any other T: null is T's zero value.
//
// Every other branch must decode into T; a branch that cannot is a
// compile-time error only when no branch can, and a decode-time ErrRange
// when the data selects it.
type unionDecoder struct {
	branches []decoder // nil for null
	names    []string
	// newElem is set when the Go type is *T and the branches decode T.
	newElem func(d *decodeState) pointer
	zero    func(p pointer)
}

func (c *unionDecoder) decode(p pointer, d *decodeState) {
	i := d.ReadBranch(len(c.branches))
	if i < 0 {
		return
	}
	dec := c.branches[i]
	if dec == nil {
		if c.names[i] != "null" {
			d.Failf(ErrRange, "union branch %s does not fit the Go type", c.names[i])
			return
		}
		c.zero(p)
		return
	}
	if c.newElem != nil {
		pp := as[pointer](p)
		if (*pp).isNil() {
			if *pp = c.newElem(d); (*pp).isNil() {
				return
			}
		}
		p = *pp
	}
	dec.decode(p, d)
}

// isNullString reports whether c decodes ["null","string"] into a
// *string, which a struct decoder reads inline (readNullString): the most
// common optional field, read without the union's three indirect calls.
func (c *unionDecoder) isNullString() bool {
	if len(c.branches) != 2 || c.branches[0] != nil || c.names[0] != "null" || c.newElem == nil {
		return false
	}
	_, ok := c.branches[1].(stringCodec)
	return ok
}

// isNullString reports whether c writes a *string as a union whose
// branch 0 is null and branch 1 string, which a struct encoder writes
// inline: the encoder's side of isNullString.
func (c *unionEncoder) isNullString() bool {
	_, ok := c.enc.(stringCodec)
	return ok && c.isPtr && !c.picks && c.nullIndex == 0 && c.index == 1
}

// readNullString reads a ["null","string"] union into *pp as unionDecoder
// would: nil for null; else the string, into the pointee when there is
// one.
func (d *decodeState) readNullString(pp **string) {
	switch d.ReadBranch(2) {
	case 0:
		*pp = nil
	case 1:
		if *pp == nil {
			*pp = new(string)
		}
		**pp = d.ReadString()
	}
}

func (c *compiler) unionDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	ud := &unionDecoder{}
	c.decoders[compileKey{s, t}] = ud
	target := t
	hasNull := false
	for _, b := range s.Branches() {
		hasNull = hasNull || b.Kind() == schema.Null
	}
	if t.Kind() == reflect.Pointer && hasNull {
		target = t.Elem()
		ud.newElem = pointeeAllocator(target)
	}
	rt := reflect2.Type2(t)
	zero := unsafeNew(rt) // shared and never written: unsafeSet copies from it
	ud.zero = func(p pointer) { unsafeSet(rt, p, zero) }
	if t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		ud.zero = func(p pointer) { *as[pointer](p) = pointer{} }
		if t.Kind() == reflect.Slice {
			ud.zero = func(p pointer) { *as[sliceHeader](p) = sliceHeader{} }
		}
	}
	var firstErr error
	fits := 0
	for _, b := range s.Branches() {
		ud.names = append(ud.names, b.FullName())
		if b.Kind() == schema.Null {
			ud.branches = append(ud.branches, nil)
			continue
		}
		dec, err := c.decoderFor(b, target, joinPath(path, "["+b.FullName()+"]"))
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			ud.branches = append(ud.branches, nil)
			continue
		}
		fits++
		ud.branches = append(ud.branches, dec)
	}
	if fits == 0 && len(s.Branches()) > 0 && (len(s.Branches()) != 1 || !hasNull) {
		if firstErr != nil {
			return nil, firstErr
		}
	}
	return ud, nil
}

// unionEncoder encodes a Go value that is not an interface into a union:
// the null branch for a nil pointer, slice or map; otherwise the first
// branch that the Go type compiles for.
type unionEncoder struct {
	nullIndex int // -1 when the union has no null
	index     int // the branch used for non-nil values, -1 if none
	enc       encoder
	// nilable: pointer, slice or map; nil selects the null branch.
	nilable bool
	isPtr   bool
	// picks: enc writes the branch index too (see numberUnionEncoder).
	picks bool
}

func (c *unionEncoder) encode(p pointer, e *encodeState) {
	if c.nilable && p.elem().isNil() {
		if c.nullIndex < 0 {
			e.Failf(ErrRange, "nil value for a union without null")
			return
		}
		e.WriteLong(int64(c.nullIndex))
		return
	}
	if c.index < 0 {
		e.Failf(ErrRange, "non-nil value for a union with only null")
		return
	}
	if c.isPtr {
		p = p.elem()
	}
	if !c.picks {
		e.WriteLong(int64(c.index))
	}
	c.enc.encode(p, e)
}

// numberUnionEncoder writes a json.Number in the branch the union picks
// for its text, with the branch index.
type numberUnionEncoder struct{ u *anyUnion }

func (c numberUnionEncoder) encode(p pointer, e *encodeState) {
	c.u.encodeAny(*as[json.Number](p), e)
}

func (c *compiler) unionEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	ue := &unionEncoder{nullIndex: -1, index: -1}
	c.encoders[compileKey{s, t}] = ue
	target := t
	for i, b := range s.Branches() {
		if b.Kind() == schema.Null && ue.nullIndex < 0 {
			ue.nullIndex = i
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		ue.nilable = true
		if ue.nullIndex >= 0 {
			target = t.Elem()
			ue.isPtr = true
		}
	case reflect.Slice, reflect.Map:
		// A slice header's first word is its data pointer and a map is a
		// pointer, so both are nil exactly when that word is.
		ue.nilable = true
	}
	if target == jsonNumberType {
		// A json.Number's branch depends on its text: chosen per value,
		// as for one held in an any.
		u, err := c.newAnyUnion(s, path)
		if err != nil {
			return nil, err
		}
		ue.index, ue.enc, ue.picks = 0, numberUnionEncoder{u}, true
		return ue, nil
	}
	var firstErr error
	bestRank := 0
	for i, b := range s.Branches() {
		if b.Kind() == schema.Null {
			continue
		}
		enc, err := c.encoderFor(b, target, joinPath(path, "["+b.FullName()+"]"))
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if r := branchPreference(target, b); ue.index < 0 || r < bestRank {
			ue.index, ue.enc, bestRank = i, enc, r
		}
	}
	if ue.index < 0 && firstErr != nil {
		return nil, firstErr
	}
	return ue, nil
}

// branchPreference ranks a union branch for a Go type (lower is better),
// so that a Go value goes to the branch that holds all its values: an
// int64 to long before int, a float32 to float before double, a string to
// string before bytes. Branches of equal rank keep schema order.
func branchPreference(t reflect.Type, b *schema.Schema) int {
	k := b.Kind()
	switch t.Kind() {
	case reflect.Int64, reflect.Int, reflect.Uint, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if k == schema.Long {
			return 0
		}
	case reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint16, reflect.Uint8:
		if k == schema.Int {
			return 0
		}
	case reflect.Float64:
		if k == schema.Double {
			return 0
		}
	case reflect.Float32:
		if k == schema.Float {
			return 0
		}
	case reflect.String:
		if k == schema.String {
			return 0
		}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && k == schema.Bytes {
			return 0
		}
	}
	return 1
}

// registry maps the names of union branches (the full names of named
// types, the type names of the others) to the Go types registered for
// them, newest last. One name may serve several interfaces, each with its
// own Go type: an interface picks the newest type that implements it.
var registry struct {
	sync.RWMutex
	m map[string][]reflect.Type
}

// Register associates a union branch with the Go type of v; see
// avro.Register.
func Register(fullName string, v any) {
	t := reflect.TypeOf(v)
	if t == nil {
		panic("avro.Register: nil value for " + strconv.Quote(fullName) + ": pass a typed value, such as (*T)(nil)")
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.m == nil {
		registry.m = map[string][]reflect.Type{}
	}
	old := registry.m[fullName]
	types := make([]reflect.Type, 0, len(old)+1)
	for _, o := range old {
		if o != t {
			types = append(types, o)
		}
	}
	registry.m[fullName] = append(types, t)
}

// registeredType returns the newest Go type registered for the branch
// name that implements iface, or nil.
func registeredType(fullName string, iface reflect.Type) reflect.Type {
	registry.RLock()
	defer registry.RUnlock()
	types := registry.m[fullName]
	for i := len(types) - 1; i >= 0; i-- {
		if types[i].Implements(iface) {
			return types[i]
		}
	}
	return nil
}

// rangeRegistered calls f for every registered name and Go type.
func rangeRegistered(f func(name string, t reflect.Type)) {
	registry.RLock()
	defer registry.RUnlock()
	for name, types := range registry.m {
		for _, t := range types {
			f(name, t)
		}
	}
}

// ifaceDecoder decodes a union into a non-empty interface type using the
// registered Go types of its branches.
type ifaceDecoder struct {
	iface    reflect.Type
	branches []ifaceBranch
}

type ifaceBranch struct {
	name   string
	null   bool
	typ    reflect.Type // nil for null and for a branch no type is registered for
	dec    decoder      // decodes into typ (or *typ's element when typ is a pointer)
	size   uintptr      // of the value a decode allocates (typ's element for a pointer)
	tab    typeWord     // the interface's first word for typ
	direct bool         // typ is pointer-shaped: the data word is the value
}

func (c *ifaceDecoder) decode(p pointer, d *decodeState) {
	i := d.ReadBranch(len(c.branches))
	if i < 0 {
		return
	}
	b := &c.branches[i]
	iv := valueAt(c.iface, p).Elem()
	if b.null {
		iv.SetZero()
		return
	}
	if b.dec == nil {
		d.Failf(ErrRange, "no Go type registered for union branch %s", b.name)
		return
	}
	if !d.ReserveNew(b.size) {
		return
	}
	if b.typ.Kind() == reflect.Pointer {
		holder := reflect.New(b.typ.Elem())
		b.dec.decode(pointerOfValue(holder), d)
		if d.Err == nil {
			iv.Set(holder)
		}
		return
	}
	// The decoded value becomes the interface's data as it is, as the
	// runtime's boxing would make it, without copying it to a new box.
	holder := pointerOfValue(reflect.New(b.typ))
	b.dec.decode(holder, d)
	if d.Err != nil {
		return
	}
	ifc := ifaceAt(p)
	if b.direct {
		holder = holder.elem()
	}
	ifc.tab, ifc.data = b.tab, holder
}

// ifaceEncoder encodes an interface value into a union by its dynamic
// type.
type ifaceEncoder struct {
	iface     reflect.Type
	nullIndex int
	byType    map[reflect.Type]ifaceEncBranch
	byTab     map[typeWord]ifaceEncBranch // the same, by the interface's first word
}

type ifaceEncBranch struct {
	index  int
	enc    encoder
	ptr    bool
	direct bool // pointer-shaped, not a pointer: the data word is the value
}

func (c *ifaceEncoder) encode(p pointer, e *encodeState) {
	ifc := ifaceAt(p)
	if ifc.tab.isNil() {
		if c.nullIndex < 0 {
			e.Failf(ErrRange, "nil interface for a union without null")
			return
		}
		e.WriteLong(int64(c.nullIndex))
		return
	}
	b, ok := c.byTab[ifc.tab]
	if !ok {
		dyn := valueAt(c.iface, p).Elem().Elem().Type()
		if b, ok = c.byType[dyn]; !ok {
			e.Failf(ErrRange, "Go type %s fits no branch of the union (register it with avro.Register)", dyn)
			return
		}
	}
	// The encoder reads the value where the interface keeps it: a
	// pointer's pointee, the data word itself for other pointer-shaped
	// types, or what the data word points at.
	v := ifc.data
	switch {
	case b.ptr && v.isNil():
		e.Failf(ErrRange, "nil %s in a union", valueAt(c.iface, p).Elem().Elem().Type())
		return
	case b.direct:
		v = pointerTo(&ifc.data.p)
	}
	e.WriteLong(int64(b.index))
	b.enc.encode(v, e)
}

func (c *compiler) interfaceDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	if s.Kind() != schema.Union {
		return nil, typeErr(path, t, s, "only unions decode into non-empty interfaces")
	}
	id := &ifaceDecoder{iface: t}
	c.decoders[compileKey{s, t}] = id
	found := false
	for _, b := range s.Branches() {
		br := ifaceBranch{name: b.FullName(), null: b.Kind() == schema.Null}
		if !br.null {
			rt := registeredType(b.FullName(), t)
			if rt == nil {
				id.branches = append(id.branches, ifaceBranch{name: b.FullName()})
				continue
			}
			br.typ = rt
			br.tab, br.direct = itabOf(t, rt), isDirectIface(rt)
			elem := rt
			if rt.Kind() == reflect.Pointer {
				elem = rt.Elem()
			}
			br.size = elem.Size()
			dec, err := c.decoderFor(b, elem, joinPath(path, "["+b.FullName()+"]"))
			if err != nil {
				return nil, err
			}
			br.dec = dec
			found = true
		}
		id.branches = append(id.branches, br)
	}
	if !found {
		return nil, typeErr(path, t, s, "no branch has a registered Go type implementing the interface (see avro.Register)")
	}
	return id, nil
}

func (c *compiler) interfaceEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	if s.Kind() != schema.Union {
		return nil, typeErr(path, t, s, "only unions encode from non-empty interfaces")
	}
	ie := &ifaceEncoder{iface: t, nullIndex: -1, byType: map[reflect.Type]ifaceEncBranch{}, byTab: map[typeWord]ifaceEncBranch{}}
	c.encoders[compileKey{s, t}] = ie
	for i, b := range s.Branches() {
		if b.Kind() == schema.Null {
			if ie.nullIndex < 0 {
				ie.nullIndex = i
			}
			continue
		}
		rt := registeredType(b.FullName(), t)
		if rt == nil {
			continue
		}
		if _, dup := ie.byType[rt]; dup {
			continue
		}
		elem := rt
		if rt.Kind() == reflect.Pointer {
			elem = rt.Elem()
		}
		enc, err := c.encoderFor(b, elem, joinPath(path, "["+b.FullName()+"]"))
		if err != nil {
			return nil, err
		}
		br := ifaceEncBranch{index: i, enc: enc, ptr: rt.Kind() == reflect.Pointer}
		br.direct = !br.ptr && isDirectIface(rt)
		ie.byType[rt] = br
		ie.byTab[itabOf(t, rt)] = br
	}
	if len(ie.byType) == 0 {
		return nil, typeErr(path, t, s, "no branch has a registered Go type implementing the interface (see avro.Register)")
	}
	return ie, nil
}
