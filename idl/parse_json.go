package idl

func (p *parser) jsonValue() (*jvalue, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.peek()
	switch {
	case t.kind == tString:
		p.next()
		return jstr(t.val), nil
	case t.kind == tInt:
		p.next()
		v, _ := parseJavaLong(t.text)
		return &jvalue{kind: jInt, i: v}, nil
	case t.kind == tFloat:
		p.next()
		f, _ := parseJavaDouble(t.text)
		return &jvalue{kind: jFloat, f: f}, nil
	case keyword(t, "true"), keyword(t, "false"):
		p.next()
		return &jvalue{kind: jBool, b: t.text == "true"}, nil
	case keyword(t, "null"):
		p.next()
		return &jvalue{kind: jNull}, nil
	case isPunct(t, "["):
		p.next()
		v := &jvalue{kind: jArray}
		for !p.atPunct("]") {
			if len(v.arr) > 0 {
				if _, err := p.expect(",", "an array element"); err != nil {
					return nil, err
				}
			}
			x, err := p.jsonValue()
			if err != nil {
				return nil, err
			}
			v.arr = append(v.arr, x)
		}
		p.next()
		return v, nil
	case isPunct(t, "{"):
		p.next()
		v := &jvalue{kind: jObject}
		for {
			kt := p.peek()
			if kt.kind != tString {
				return nil, p.expected("a string key", "'{' or ','")
			}
			p.next()
			if _, err := p.expect(":", "key "+kt.text); err != nil {
				return nil, err
			}
			x, err := p.jsonValue()
			if err != nil {
				return nil, err
			}
			v.set(kt.val, x)
			if p.atPunct(",") {
				p.next()
				continue
			}
			if _, err := p.expect("}", "the value of key "+kt.text); err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	return nil, p.expected("a JSON value", "")
}
