package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// schemaInfo is one schema file: a record whose fields are the rows of the
// types table.
type schemaInfo struct {
	path   string // absolute
	file   string // base name
	pkg    string // the Go package its code goes to
	name   string // the record's full name
	short  string // the record's name
	doc    string
	fields []fieldInfo
}

type fieldInfo struct {
	name string
	typ  string // the Avro type, in short
	doc  string
}

func loadSchemas(dir string) ([]*schemaInfo, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.avsc"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no .avsc files in %s", dir)
	}
	sort.Strings(paths)
	var out []*schemaInfo
	for _, p := range paths {
		s, err := loadSchema(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		out = append(out, s)
	}
	return out, nil
}

func loadSchema(path string) (*schemaInfo, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	var rec struct {
		Type, Name, Namespace, Doc string
		Fields                     []struct {
			Name string
			Doc  string
			Type json.RawMessage
		}
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, err
	}
	if rec.Type != "record" || rec.Name == "" {
		return nil, fmt.Errorf("the schema is not a named record")
	}
	base := filepath.Base(abs)
	s := &schemaInfo{
		path:  abs,
		file:  base,
		pkg:   strings.Map(identRune, strings.TrimSuffix(base, ".avsc")),
		name:  rec.Name,
		short: rec.Name,
		doc:   rec.Doc,
	}
	if rec.Namespace != "" && !strings.Contains(rec.Name, ".") {
		s.name = rec.Namespace + "." + rec.Name
	}
	if i := strings.LastIndexByte(rec.Name, '.'); i >= 0 {
		s.short = rec.Name[i+1:]
	}
	for _, f := range rec.Fields {
		var t any
		if err := json.Unmarshal(f.Type, &t); err != nil {
			return nil, err
		}
		s.fields = append(s.fields, fieldInfo{name: f.Name, typ: shortType(t), doc: f.Doc})
	}
	return s, nil
}

// identRune keeps the lower-case letters and digits of a package name.
func identRune(r rune) rune {
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
		return r
	case r >= 'A' && r <= 'Z':
		return r + 'a' - 'A'
	}
	return -1
}

// shortType writes an Avro type in a line: named types by kind and name,
// logical types after their underlying type.
func shortType(t any) string {
	switch t := t.(type) {
	case string:
		return t
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = shortType(x)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		typ, _ := t["type"].(string)
		var s string
		switch typ {
		case "record", "error", "enum":
			s = fmt.Sprintf("%s %v", typ, t["name"])
		case "fixed":
			s = fmt.Sprintf("fixed %v(%v)", t["name"], t["size"])
		case "array":
			s = "array<" + shortType(t["items"]) + ">"
		case "map":
			s = "map<" + shortType(t["values"]) + ">"
		default:
			s = shortType(t["type"])
		}
		if lt, ok := t["logicalType"].(string); ok {
			s += " " + lt
			if lt == "decimal" {
				s += fmt.Sprintf("(%v,%v)", t["precision"], t["scale"])
			}
		}
		return s
	}
	return fmt.Sprint(t)
}
