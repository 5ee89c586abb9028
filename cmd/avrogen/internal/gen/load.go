package gen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/avrogo/avro/idl"
	"github.com/avrogo/avro/schema"
)

// maxInput bounds one input file, as schema.Parse bounds a text.
const maxInput = schema.DefaultMaxSize

// source is one schema text and where it came from.
type source struct {
	name     string
	text     string
	protocol bool
	// typesOnly marks a text that is a union of the named types of an
	// IDL file, made here: its types are generated, not a root.
	typesOnly bool
}

// Load reads the schemas of files, directories (their .avsc and .avpr
// files) and standard input ("-"), and parses them with one parser, in an
// order in which each refers only to types defined before it, whatever
// the order given. The inputs in before (from a registry) come first.
func Load(paths []string, stdin io.Reader, before []Input) ([]Input, error) {
	srcs, err := readSources(paths, stdin)
	if err != nil {
		return nil, err
	}
	return parseSources(srcs, before)
}

// readSources reads the files, directories and standard input named on
// the command line.
func readSources(paths []string, stdin io.Reader) ([]source, error) {
	var srcs []source
	seen := map[string]bool{}
	add := func(name string, protocol bool, r io.Reader) error {
		data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if len(data) > maxInput {
			return fmt.Errorf("%s: larger than %d MiB", name, maxInput>>20)
		}
		srcs = append(srcs, source{name: name, text: string(data), protocol: protocol || isProtocol(data)})
		return nil
	}
	for _, p := range paths {
		if p == "-" {
			if seen[p] {
				continue
			}
			seen[p] = true
			if err := add("stdin", false, stdin); err != nil {
				return nil, err
			}
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		files := []string{p}
		if !info.IsDir() && filepath.Ext(p) == ".avdl" {
			files = nil
			if err := addIDL(&srcs, p); err != nil {
				return nil, err
			}
		}
		if info.IsDir() {
			files = nil
			err := filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if ext := filepath.Ext(path); !d.IsDir() && (ext == ".avsc" || ext == ".avpr" || ext == ".avdl") {
					files = append(files, path)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			sort.Strings(files)
			if len(files) == 0 {
				return nil, fmt.Errorf("%s: no .avsc, .avpr or .avdl files", p)
			}
		}
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			if filepath.Ext(f) == ".avdl" {
				if err := addIDL(&srcs, f); err != nil {
					return nil, err
				}
				continue
			}
			fh, err := os.Open(f)
			if err != nil {
				return nil, err
			}
			err = add(f, filepath.Ext(f) == ".avpr", fh)
			_ = fh.Close() // read only: nothing to lose
			if err != nil {
				return nil, err
			}
		}
	}
	return srcs, nil
}

// isProtocol reports whether a text is a protocol: an object with a
// "protocol" key.
func isProtocol(data []byte) bool {
	var probe struct {
		Protocol *string `json:"protocol"`
	}
	data = bytes.TrimSpace(data)
	return len(data) > 0 && data[0] == '{' && json.Unmarshal(data, &probe) == nil && probe.Protocol != nil
}

// parseSources parses the texts, as Load does.
func parseSources(srcs []source, before []Input) ([]Input, error) {
	l := NewLoader()
	for _, in := range before {
		if err := l.Add(Source{Name: in.Name, Text: in.Text}); err != nil {
			return nil, err
		}
	}
	conv := make([]Source, len(srcs))
	for i, s := range srcs {
		conv[i] = Source{Name: s.name, Text: s.text, Protocol: s.protocol, TypesOnly: s.typesOnly}
	}
	if err := l.Add(conv...); err != nil {
		return nil, err
	}
	return l.Inputs(), nil
}

// Source is a schema text to load.
type Source struct {
	Name     string // where it came from, for messages and root type names
	Text     string
	Protocol bool // a .avpr protocol, whose types are loaded
	// TypesOnly marks a union of named types whose types are generated,
	// with no Go type for the union.
	TypesOnly bool
}

// A Loader parses schema texts with one parser, so that later texts may
// refer to the types of earlier ones.
type Loader struct {
	p       *schema.Parser
	defined []string
	inputs  []Input
}

// NewLoader returns an empty Loader. It takes names of any script, as
// Java does (Go identifiers may be such names too).
func NewLoader() *Loader { return &Loader{p: schema.ParseOptions{UnicodeNames: true}.NewParser()} }

// Inputs returns the inputs loaded so far, in parse order.
func (l *Loader) Inputs() []Input { return l.inputs }

// Add parses srcs, in an order in which each refers only to types known
// before it, whatever the order given.
func (l *Loader) Add(srcs ...Source) error {
	texts := make([]string, len(srcs))
	for i, src := range srcs {
		texts[i] = src.Text
		if src.Protocol {
			t, err := protocolTypes(src.Text)
			if err != nil {
				return fmt.Errorf("%s: %w", src.Name, err)
			}
			texts[i] = t
		}
	}
	pending := make([]int, len(srcs))
	for i := range pending {
		pending[i] = i
	}
	errs := map[int]error{}
	for len(pending) > 0 {
		var next []int
		for _, i := range pending {
			if texts[i] == "" {
				continue // a protocol with no types
			}
			s, err := l.p.Parse(texts[i])
			if err != nil {
				errs[i] = err
				next = append(next, i)
				continue
			}
			l.inputs = append(l.inputs, Input{
				Name:   srcs[i].Name,
				Schema: s,
				Text:   s.StringReferring(l.defined...),
				Root:   !srcs[i].Protocol && !srcs[i].TypesOnly,
			})
			for _, n := range s.NamedTypes() {
				l.defined = append(l.defined, n.FullName())
			}
		}
		if len(next) == len(pending) {
			i := next[0]
			return fmt.Errorf("%s: %w", srcs[i].Name, errs[i])
		}
		pending = next
	}
	return nil
}

// protocolTypes returns the named types of a protocol, the ones its
// messages define included, as the text of a union of them.
func protocolTypes(text string) (string, error) {
	p, err := schema.ParseProtocol(text)
	if err != nil {
		return "", err
	}
	return unionOf(p.Types()), nil
}

// addIDL adds the sources of an Avro IDL file (see IDLSources).
func addIDL(srcs *[]source, path string) error {
	more, err := IDLSources(path)
	for _, m := range more {
		*srcs = append(*srcs, source{name: m.Name, text: m.Text, typesOnly: m.TypesOnly})
	}
	return err
}

// IDLSources returns the sources of an Avro IDL file: its named types (its
// imports' included), and for a file in the schema syntax whose main
// schema is not a named type, that schema as a root.
func IDLSources(path string, opts ...idl.Option) ([]Source, error) {
	f, err := idl.ParseFile(path, opts...)
	if err != nil {
		return nil, err
	}
	var srcs []Source
	var names []string
	for _, t := range f.Types() {
		names = append(names, t.FullName())
	}
	if text := unionOf(f.Types()); text != "" {
		srcs = append(srcs, Source{Name: path, Text: text, TypesOnly: true})
	}
	if m := f.Schema(); m != nil && !m.Kind().IsNamed() {
		srcs = append(srcs, Source{Name: path, Text: m.StringReferring(names...)})
	}
	return srcs, nil
}

// unionOf returns the text of a union of named types, each defined once,
// or "" for none.
func unionOf(types []*schema.Schema) string {
	if len(types) == 0 {
		return ""
	}
	var b strings.Builder
	var written []string
	done := map[*schema.Schema]bool{}
	b.WriteByte('[')
	for _, t := range types {
		if done[t] {
			continue
		}
		if len(written) > 0 {
			b.WriteByte(',')
		}
		b.WriteString(t.StringReferring(written...))
		for _, n := range t.NamedTypes() {
			if !done[n] {
				done[n] = true
				written = append(written, n.FullName())
			}
		}
	}
	b.WriteByte(']')
	return b.String()
}
