package codec

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// fieldTagError is a bad avro tag, reported as a *TypeError by the
// compilation that meets it.
type fieldTagError struct {
	field  string // the field's Avro name: the tag's name, else the Go name
	goName string
	typ    reflect.Type
	err    error
}

// goField is one field of a Go struct as the record codecs see it, after
// embedded structs are flattened with encoding/json's rules.
type goField struct {
	name   string // the Avro name: the tag name, or the Go field name
	tagged bool
	typ    reflect.Type
	tag    fieldTag
	// goName is the field's name in its Go struct.
	goName string
	// steps locate the field from the outer struct: add offset, then, for
	// every step but the last, follow the pointer of an embedded *struct.
	steps []fieldStep
	depth int
	// index is the field's index sequence, as reflect.Value.FieldByIndex
	// takes it.
	index []int
}

type fieldStep struct {
	offset uintptr
	// ptrElem is the struct type behind an embedded pointer that this
	// step dereferences, or nil for an embedded value struct or the field
	// itself.
	ptrElem reflect.Type
}

// structFields lists the fields a struct type exposes to Avro: exported
// fields and fields of embedded structs, by the name in their `avro` tag
// (a tag of "-" skips the field) or their Go name. As in encoding/json, a
// shallower field hides deeper ones of the same name, and two at the same
// depth hide each other unless exactly one is tagged. A field tagged
// inline is flattened as an embedded struct is. A bad tag is an error.
func structFields(t reflect.Type) ([]goField, *fieldTagError) {
	var all []goField
	type queued struct {
		t     reflect.Type
		steps []fieldStep
		index []int
	}
	next := []queued{{t: t}}
	visited := map[reflect.Type]bool{}
	// Level by level, as encoding/json walks them: a struct type embedded
	// twice at one depth gives each of its fields twice, so that the two
	// hide each other (it was walked once, and the first path won).
	for depth := 0; len(next) > 0; depth++ {
		current := next
		next = nil
		count := map[reflect.Type]int{}
		for _, q := range current {
			count[q.t]++
		}
		for _, q := range current {
			if visited[q.t] {
				continue
			}
			visited[q.t] = true
			for i := 0; i < q.t.NumField(); i++ {
				f := q.t.Field(i)
				text, hasTag := f.Tag.Lookup("avro")
				if text == "-" {
					continue
				}
				tag, err := parseTag(text)
				if err != nil {
					return nil, &fieldTagError{field: cmp.Or(tag.name, f.Name), goName: f.Name, typ: f.Type, err: defaultHint(err, f.Type)}
				}
				name := tag.name
				steps := append(append([]fieldStep(nil), q.steps...), fieldStep{offset: f.Offset})
				index := append(append([]int(nil), q.index...), i)
				if tag.inline {
					ft := f.Type
					switch {
					case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
						steps[len(steps)-1].ptrElem = ft.Elem()
						next = append(next, queued{t: ft.Elem(), steps: steps, index: index})
					case ft.Kind() == reflect.Struct:
						next = append(next, queued{t: ft, steps: steps, index: index})
					default:
						return nil, &fieldTagError{field: f.Name, goName: f.Name, typ: f.Type, err: errInlineKind}
					}
					continue
				}
				if f.Anonymous && name == "" {
					ft := f.Type
					if ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct {
						steps[len(steps)-1].ptrElem = ft.Elem()
						next = append(next, queued{t: ft.Elem(), steps: steps, index: index})
						continue
					}
					if ft.Kind() == reflect.Struct {
						next = append(next, queued{t: ft, steps: steps, index: index})
						continue
					}
				}
				if !f.IsExported() {
					continue
				}
				if name == "" {
					name = f.Name
				}
				field := goField{name: name, tagged: hasTag && name != "", typ: f.Type, tag: tag, goName: f.Name, steps: steps, depth: depth, index: index}
				all = append(all, field)
				if count[q.t] > 1 {
					all = append(all, field)
				}
			}
		}
	}
	// Keep the dominant field of each name.
	byName := map[string][]goField{}
	var order []string
	for _, f := range all {
		if _, ok := byName[f.name]; !ok {
			order = append(order, f.name)
		}
		byName[f.name] = append(byName[f.name], f)
	}
	var out []goField
	for _, name := range order {
		if f, ok := dominantField(byName[name]); ok {
			out = append(out, f)
		}
	}
	// In the order of the Go declarations, as encoding/json writes them.
	slices.SortFunc(out, func(a, b goField) int { return slices.Compare(a.index, b.index) })
	return out, nil
}

func dominantField(fs []goField) (goField, bool) {
	minDepth := fs[0].depth
	for _, f := range fs {
		minDepth = min(minDepth, f.depth)
	}
	var top []goField
	for _, f := range fs {
		if f.depth == minDepth {
			top = append(top, f)
		}
	}
	if len(top) == 1 {
		return top[0], true
	}
	var tagged []goField
	for _, f := range top {
		if f.tagged {
			tagged = append(tagged, f)
		}
	}
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return goField{}, false
}

// matchField finds the Go field for an Avro field name: an exact match
// first, then a field with that alias in its tag, then a case-insensitive
// match (as encoding/json does).
func matchField(fields []goField, name string) (int, bool) {
	for i, f := range fields {
		if f.name == name {
			return i, true
		}
	}
	for i, f := range fields {
		for _, a := range f.tag.aliases {
			if a == name {
				return i, true
			}
		}
	}
	for i, f := range fields {
		if !f.tagged && strings.EqualFold(f.name, name) {
			return i, true
		}
	}
	return -1, false
}
