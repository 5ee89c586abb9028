package idl

// checkDefaults checks every field default against its type, as Java does
// when it builds the field: a union's default may match any branch (Avro
// 1.12).
func (r *reader) checkDefaults() error {
	// One budget for all defaults, so that many costly defaults cannot
	// add up.
	steps := maxDefaultSteps
	check := func(fs []*field, what string) error {
		for _, f := range fs {
			if f.def == nil {
				continue
			}
			if !validDefault(f.typ, f.def, 0, &steps) {
				if steps < 0 {
					return &Error{File: f.file, Line: f.line, Column: f.col, Msg: sprintf("default of field %q of %s too costly to check", f.name, what), Err: ErrLimit}
				}
				return newError(f.file, f.line, f.col, "invalid default for field %q of %s", f.name, what)
			}
		}
		return nil
	}
	for _, t := range r.types {
		if err := check(t.fields, t.kind+" "+quote(t.fullName())); err != nil {
			return err
		}
	}
	for _, name := range r.msgOrder {
		if err := check(r.msgs[name].request, "message "+quote(name)); err != nil {
			return err
		}
	}
	return nil
}

// maxDefaultSteps bounds the work of checking the defaults of a file: a
// record whose fields default to records of its type would otherwise take
// exponential time.
const maxDefaultSteps = 1 << 22

func validDefault(n *node, v *jvalue, depth int, steps *int) bool {
	*steps--
	if depth > DefaultMaxDepth || *steps < 0 {
		return false
	}
	n = n.deref()
	switch n.kind {
	case "null":
		return v.kind == jNull
	case "boolean":
		return v.kind == jBool
	case "int", "long":
		return v.kind == jInt
	case "float", "double":
		return v.kind == jInt || v.kind == jFloat
	case "string", "bytes", "fixed":
		return v.kind == jString
	case "enum":
		if v.kind != jString {
			return false
		}
		for _, s := range n.symbols {
			if s == v.s {
				return true
			}
		}
		return false
	case "array":
		if v.kind != jArray {
			return false
		}
		for _, x := range v.arr {
			if !validDefault(n.items, x, depth+1, steps) {
				return false
			}
		}
		return true
	case "map":
		if v.kind != jObject {
			return false
		}
		for _, x := range v.vals {
			if !validDefault(n.items, x, depth+1, steps) {
				return false
			}
		}
		return true
	case "union":
		for _, b := range n.branches {
			if validDefault(b, v, depth+1, steps) {
				return true
			}
		}
		return false
	case "record", "error":
		if v.kind != jObject {
			return false
		}
		for _, f := range n.fields {
			x := v.get(f.name)
			if x == nil {
				x = f.def
			}
			if x == nil || !validDefault(f.typ, x, depth+1, steps) {
				return false
			}
		}
		return true
	}
	return true // an unresolved reference: Java does not check it
}
