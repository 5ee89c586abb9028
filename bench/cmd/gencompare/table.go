package main

import (
	"fmt"
	"go/types"
	"io"
	"strings"
)

// shapes says what each schema of testdata/gencompare is there for; a
// schema without an entry is shown by its file name alone.
var shapes = map[string]string{
	"docs.avsc":                    "doc strings on a record and its fields",
	"enums.avsc":                   "an enum with a default, optional, and a field default",
	"fixed.avsc":                   "fixed(16), and optional",
	"logical_date_time.avsc":       "date, time-millis, time-micros",
	"logical_decimal.avsc":         "decimal on bytes and on fixed",
	"logical_duration.avsc":        "duration on fixed(12)",
	"logical_local_timestamp.avsc": "local-timestamp-millis/micros/nanos",
	"logical_timestamp.avsc":       "timestamp-millis/micros/nanos",
	"logical_uuid.avsc":            "uuid on string and on fixed(16)",
	"names.avsc":                   "field names that are Go keywords or initialisms",
	"opt_array.avsc":               `["null", array]`,
	"opt_map.avsc":                 `["null", map]`,
	"opt_record.avsc":              `["null", record]`,
	"opt_string.avsc":              `["null", "string"] and ["string", "null"]`,
	"recursive_list.avsc":          "a linked list through [\"null\", self]",
	"recursive_tree.avsc":          "a tree through an array of self",
	"same_name.avsc":               "records a.X and b.X in one record",
	"union_null_records.avsc":      `["null", record, record]`,
	"union_primitives.avsc":        `["string", "int", "boolean"]`,
	"union_records.avsc":           "a union of three records",
	"union_single.avsc":            `["string"]`,
}

func writeTables(w io.Writer, gens []generator, schemas []*schemaInfo, results [][]result) {
	fmt.Fprintln(w, "### The generators")
	fmt.Fprintln(w)
	for _, g := range gens {
		fmt.Fprintf(w, "- %s: %s, run as %s\n", g.name, g.version, code(commandLine(g.template)))
	}
	fmt.Fprintln(w)

	header := func(first ...string) {
		cols := append(first, make([]string, len(gens))...)
		for i, g := range gens {
			cols[len(first)+i] = g.name
		}
		fmt.Fprintln(w, "| "+strings.Join(cols, " | ")+" |")
		fmt.Fprintln(w, strings.Repeat("|---", len(cols))+"|")
	}
	row := func(cells ...string) {
		for i, c := range cells {
			cells[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}

	fmt.Fprintln(w, "### Does the generated code build")
	fmt.Fprintln(w)
	header("schema", "shape")
	for i, s := range schemas {
		cells := []string{s.file, shapes[s.file]}
		for gi := range gens {
			cells = append(cells, status(results[gi][i]))
		}
		row(cells...)
	}
	fmt.Fprintln(w)

	fmt.Fprintln(w, "### How the fields come out")
	fmt.Fprintln(w)
	header("schema / field", "Avro type")
	for i, s := range schemas {
		cells := []string{"**" + s.file + "**", "record " + s.name}
		for gi := range gens {
			cells = append(cells, recordCell(results[gi][i], s))
		}
		row(cells...)
		for _, f := range s.fields {
			cells := []string{f.name, code(f.typ)}
			for gi := range gens {
				cells = append(cells, fieldCell(results[gi][i], s, f))
			}
			row(cells...)
		}
	}
}

func status(r result) string {
	switch {
	case r.genErr != "":
		return "generator fails: " + code(clip(r.genErr))
	case r.pkg != nil && r.pkg.parseErr != "":
		return "does not parse: " + code(clip(r.pkg.parseErr))
	case r.buildErr != "":
		return "does not compile: " + code(clip(r.buildErr))
	case r.vetErr != "":
		return "compiles; vet: " + code(clip(r.vetErr))
	}
	return "ok"
}

// recordCell names the struct of the record and says whether its doc
// came through.
func recordCell(r result, s *schemaInfo) string {
	if r.pkg == nil {
		return "-"
	}
	ts, _ := r.pkg.record(s)
	if ts == nil {
		return "no struct found"
	}
	c := code(ts.Name.Name)
	if s.doc != "" {
		c += docNote(r.pkg.docs[ts], s.doc)
	}
	return c
}

func fieldCell(r result, s *schemaInfo, f fieldInfo) string {
	if r.pkg == nil {
		return "-"
	}
	ts, st := r.pkg.record(s)
	if st == nil {
		return "-"
	}
	gf := structField(st, f.name)
	if gf == nil {
		return "no field"
	}
	name := ""
	for i, n := range gf.Names {
		if i > 0 {
			name += ", "
		}
		name += n.Name
	}
	c := code(strings.TrimSpace(name + " " + types.ExprString(gf.Type)))
	if name == "" {
		// A field whose type the generator left out reads as an
		// embedded field of a type named after it.
		c = "embedded " + c
	}
	if d := r.pkg.describe(gf.Type, ts.Name.Name); d != "" {
		c += ": " + d
	}
	if f.doc != "" {
		c += docNote(fieldDoc(gf), f.doc)
	}
	return c
}

// docNote says whether a Go doc comment holds the first words of an Avro
// doc.
func docNote(goDoc, avroDoc string) string {
	words := strings.Fields(avroDoc)
	if len(words) > 3 {
		words = words[:3]
	}
	if strings.Contains(strings.Join(strings.Fields(goDoc), " "), strings.Join(words, " ")) {
		return " (doc kept)"
	}
	return " (no doc comment)"
}

func code(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "'") + "`"
}

func clip(s string) string {
	const max = 110
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

// commandLine is a template with each tool named by the last element of
// its import path.
func commandLine(tmpl string) string {
	return toolRE.ReplaceAllStringFunc(tmpl, func(m string) string {
		path := toolRE.FindStringSubmatch(m)[1]
		return path[strings.LastIndexByte(path, '/')+1:]
	})
}
