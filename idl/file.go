package idl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/avrogo/avro/schema"
)

// Default limits; see the Option functions.
const (
	// DefaultMaxSize is the largest file, in bytes, read by default.
	DefaultMaxSize = 64 << 20
	// DefaultMaxDepth is the deepest nesting of types and JSON values.
	DefaultMaxDepth = 1000
	// DefaultMaxImportDepth is the longest chain of imports.
	DefaultMaxImportDepth = 64
	// DefaultMaxTokens is the most tokens (names, literals, punctuation)
	// a file and its imports may have together: some 6 to 8 MB of IDL, more
	// than hand-written files have, it bounds the memory a parse takes
	// to a few hundred megabytes.
	DefaultMaxTokens = 1 << 20
)

type options struct {
	searchPath     []string
	maxSize        int
	maxDepth       int
	maxImportDepth int
	maxTokens      int
}

// An Option changes how Parse and ParseFile read a file.
type Option func(*options)

// WithSearchPath gives the directories searched for an import that is not
// found relative to the importing file, in order, as Java searches its
// classpath.
func WithSearchPath(dirs ...string) Option {
	return func(o *options) { o.searchPath = append(o.searchPath, dirs...) }
}

// WithMaxSize sets the largest size in bytes of each file read, the main
// file or an import (DefaultMaxSize if n <= 0). A larger file is an *Error
// wrapping ErrLimit.
func WithMaxSize(n int) Option {
	return func(o *options) { o.maxSize = n }
}

// WithMaxDepth sets how deeply types and JSON values may nest
// (DefaultMaxDepth if n <= 0). Deeper nesting is an *Error wrapping ErrLimit.
func WithMaxDepth(n int) Option {
	return func(o *options) { o.maxDepth = n }
}

// WithMaxImportDepth sets how long a chain of imports may be
// (DefaultMaxImportDepth if n <= 0). A longer chain is an *Error wrapping
// ErrLimit.
func WithMaxImportDepth(n int) Option {
	return func(o *options) { o.maxImportDepth = n }
}

// WithMaxTokens sets how many tokens a file and its imports may have
// together (DefaultMaxTokens if n <= 0). More is an *Error wrapping
// ErrLimit.
func WithMaxTokens(n int) Option {
	return func(o *options) { o.maxTokens = n }
}

// File is a parsed IDL file: a protocol, or the schema syntax (a main schema
// and named types). Its types include those of the files it imports.
type File struct {
	proto      *schema.Protocol
	protoJSON  []byte
	schemaJSON []byte
	main       *schema.Schema
	types      []*schema.Schema
	warnings   []string
}

// Warnings returns the warnings Java gives for the file: one for each
// documentation comment (/** ... */) that documents nothing, where a plain
// comment was probably meant. A warning from an imported file starts with
// the file's name as the import statement gives it, as in Java:
// "sub.avdl line 2, char 10: Ignoring out-of-place documentation comment...".
func (f *File) Warnings() []string { return f.warnings }

// Protocol returns the protocol the file declares, its types and messages
// parsed by schema.ParseProtocol (with Java's Unicode names), or nil for a
// file in the schema syntax.
func (f *File) Protocol() *schema.Protocol { return f.proto }

// Schema returns the main schema of a file in the schema syntax (the type
// of its "schema" declaration), or nil for a protocol or a file without one.
func (f *File) Schema() *schema.Schema { return f.main }

// SchemaJSON returns the JSON text of the main schema as Java's idl tool
// writes it (named types defined where first used), or nil when Schema
// returns nil.
func (f *File) SchemaJSON() []byte { return f.schemaJSON }

// Types returns every named type the file and its imports define, in the
// order Java lists them: declaration order, an import's types at the
// place of the import.
func (f *File) Types() []*schema.Schema { return f.types }

// ProtocolJSON returns the protocol's JSON text (.avpr) as Java's idl tool
// writes it, with the same keys in the same order, or nil when the file
// declares no protocol.
func (f *File) ProtocolJSON() []byte { return f.protoJSON }

type protocolInfo struct {
	name, space string
	doc         *string
	props       []prop
}

// reader holds what all files of one parse share: the named types, the
// messages and the files already read.
type reader struct {
	opts       options
	types      []*node
	byName     map[string]*node
	refs       []*node
	proto      *protocolInfo
	msgs       map[string]*message
	msgOrder   []string
	mainSchema *node
	read       map[string]bool
	top        *parser
	warnings   []string
	redefined  [][2]*node // a name defined twice: first and second node
	tokens     int        // tokens read so far, in all files
}

// Parse parses the IDL text src. name is the file name errors give; when it
// is a path, imports are looked up in its directory first, then in the
// search path. Without a directory ("" or a bare name), imports are looked
// up in the current directory.
func Parse(name string, src []byte, opts ...Option) (*File, error) {
	r := newReader(opts)
	if abs, err := filepath.Abs(name); err == nil {
		r.read[abs] = true
	}
	return result(r.run(name, filepath.Dir(name), src))
}

func result(f *File, err error) (*File, error) {
	if err != nil {
		return nil, err
	}
	return f, nil
}

// ParseFile reads and parses the IDL file at path.
func ParseFile(path string, opts ...Option) (*File, error) {
	return result(parseFile(path, opts...))
}

func parseFile(path string, opts ...Option) (*File, error) {
	r := newReader(opts)
	src, err := r.readFile(path, path, 0, 0)
	if err != nil {
		return nil, err
	}
	if abs, err := filepath.Abs(path); err == nil {
		r.read[abs] = true
	}
	return r.run(path, filepath.Dir(path), src)
}

func newReader(opts []Option) *reader {
	o := options{}
	for _, f := range opts {
		f(&o)
	}
	if o.maxSize <= 0 {
		o.maxSize = DefaultMaxSize
	}
	if o.maxDepth <= 0 {
		o.maxDepth = DefaultMaxDepth
	}
	if o.maxImportDepth <= 0 {
		o.maxImportDepth = DefaultMaxImportDepth
	}
	if o.maxTokens <= 0 {
		o.maxTokens = DefaultMaxTokens
	}
	return &reader{opts: o, byName: map[string]*node{}, msgs: map[string]*message{}, read: map[string]bool{}}
}

// readFile reads a file within the size limit; name, line and col locate
// the errors.
func (r *reader) readFile(path, name string, line, col int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: name, Line: line, Column: col, Msg: "cannot read " + strconv.Quote(path), Err: err}
	}
	defer func() { _ = f.Close() }()
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(f, int64(r.opts.maxSize)+1))
	if err != nil {
		return nil, &Error{File: name, Line: line, Column: col, Msg: "cannot read " + strconv.Quote(path), Err: err}
	}
	if n > int64(r.opts.maxSize) {
		return nil, &Error{File: name, Line: line, Column: col, Msg: fmt.Sprintf("%s is larger than %d bytes", path, r.opts.maxSize), Err: ErrLimit}
	}
	return buf.Bytes(), nil
}

func (r *reader) run(name, dir string, src []byte) (*File, error) {
	ws, err := r.parseText(name, dir, src, 0)
	if err != nil {
		return nil, err
	}
	r.warnings = ws
	if err := r.resolve(); err != nil {
		return nil, err
	}
	for _, d := range r.redefined {
		if !bytes.Equal(r.standalone(d[0]), r.standalone(d[1])) {
			n := d[1]
			return nil, newError(n.file, n.line, n.col, "type %q is already defined", n.fullName())
		}
	}
	for _, d := range r.redefined {
		// The second definition is the first from now on.
		*d[1] = node{kind: "ref", ref: d[0].fullName(), target: d[0]}
	}
	if err := r.checkDefaults(); err != nil {
		return nil, err
	}
	f := &File{warnings: r.warnings}
	if r.proto != nil {
		if f.protoJSON = r.protocolJSON(); f.protoJSON == nil {
			return nil, r.outputLimit(name)
		}
	} else if r.mainSchema != nil {
		w := newJSONWriter("", r.maxOutput())
		w.schema(r.mainSchema)
		if w.over {
			return nil, r.outputLimit(name)
		}
		f.schemaJSON = indent(w.buf.Bytes())
	}
	if err := r.buildSchemas(f); err != nil {
		return nil, err
	}
	if f.protoJSON != nil {
		p, err := javaRules.ParseProtocol(string(f.protoJSON))
		if err != nil {
			return nil, &Error{File: name, Line: 1, Column: 1, Msg: "protocol refused", Err: err}
		}
		f.proto = p
	}
	return f, nil
}

// javaRules parses as Java does: names may be letters and digits of any
// script, which IDL identifiers are.
var javaRules = schema.ParseOptions{UnicodeNames: true}

// parseText parses one file and returns its warnings, those of its imports
// included.
func (r *reader) parseText(name, dir string, src []byte, importDepth int) ([]string, error) {
	if len(src) > r.opts.maxSize {
		return nil, &Error{File: name, Line: 1, Column: 1, Msg: fmt.Sprintf("file larger than %d bytes", r.opts.maxSize), Err: ErrLimit}
	}
	toks, err := tokenize(name, string(src), r.opts.maxTokens-r.tokens)
	if err != nil {
		return nil, err
	}
	r.tokens += len(toks)
	p := &parser{r: r, file: name, dir: dir, toks: toks, importDepth: importDepth, docDone: -1}
	if r.top == nil {
		r.top = p
	}
	err = p.parseFile()
	return p.warnings, err
}

// standalone is the JSON text of one named type on its own.
func (r *reader) standalone(n *node) []byte {
	w := newJSONWriter("", r.maxOutput())
	w.schema(n)
	return w.buf.Bytes()
}

// maxOutput bounds the JSON texts: four times the largest file, plus room
// for small files.
func (r *reader) maxOutput() int { return 4*r.opts.maxSize + 1<<20 }

func (r *reader) outputLimit(file string) *Error {
	return &Error{File: file, Line: 1, Column: 1, Msg: fmt.Sprintf("JSON text larger than %d bytes", r.maxOutput()), Err: ErrLimit}
}

// put adds a named type, refusing a second definition of a name.
func (r *reader) put(n *node, file string) error {
	full := n.fullName()
	if old, ok := r.byName[full]; ok {
		if old == n {
			return nil
		}
		// Java accepts a second definition equal to the first; whether it
		// is can only be told once references are resolved.
		r.redefined = append(r.redefined, [2]*node{old, n})
		return nil
	}
	r.byName[full] = n
	r.types = append(r.types, n)
	return nil
}

func (r *reader) addMessage(m *message) {
	if _, ok := r.msgs[m.name]; !ok {
		r.msgOrder = append(r.msgOrder, m.name)
	}
	r.msgs[m.name] = m
}

func (r *reader) resolve() error {
	for _, ref := range r.refs {
		t, ok := r.byName[ref.ref]
		if !ok && ref.refShort != "" {
			t, ok = r.byName[ref.refShort]
		}
		if !ok {
			if primitives[ref.refShort] {
				ref.kind = ref.refShort
				continue
			}
			return newError(ref.file, ref.line, ref.col, "undefined type %q", ref.ref)
		}
		ref.target = t
	}
	return nil
}

// buildSchemas parses every named type with package schema, one text per
// type printed as in the protocol's "types", so that references to types
// printed earlier resolve.
func (r *reader) buildSchemas(f *File) error {
	sp := javaRules.NewParser()
	w := newJSONWriter("", r.maxOutput())
	for _, t := range r.types {
		if w.names[t] {
			continue
		}
		w.buf.Reset()
		w.space = ""
		w.schema(t)
		if w.over {
			return r.outputLimit(t.file)
		}
		if _, err := sp.Parse(w.buf.String()); err != nil {
			return &Error{File: t.file, Line: t.line, Column: t.col, Msg: "type " + strconv.Quote(t.fullName()) + " refused", Err: err}
		}
	}
	for _, t := range r.types {
		s := sp.Lookup(t.fullName())
		if s == nil {
			return &Error{File: t.file, Line: t.line, Column: t.col, Msg: "type " + strconv.Quote(t.fullName()) + " not parsed"}
		}
		f.types = append(f.types, s)
	}
	if f.schemaJSON != nil {
		s, err := sp.Parse(string(f.schemaJSON))
		if err != nil {
			m := r.mainSchema
			return &Error{File: m.file, Line: m.line, Column: m.col, Msg: "main schema refused", Err: err}
		}
		f.main = s
	}
	return nil
}

func jsonIndent(out *bytes.Buffer, b []byte) error { return json.Indent(out, b, "", "  ") }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func quote(s string) string { return strconv.Quote(s) }
