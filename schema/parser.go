package schema

import (
	"errors"
	"os"
	"sync"
)

// Parser parses several schema texts that share named types: a type that
// one text defines can be referenced by name in the texts parsed after it,
// the common layout of one .avsc file per type. A text may also repeat the
// definition of a type an earlier text defined, provided both are the same
// (equal String forms); the earlier node is then used, so that every text
// shares one node per name. A different definition is an error.
//
// A text that fails to parse leaves the Parser as it was: none of the
// names it defined are kept. A Parser is safe for concurrent use.
type Parser struct {
	mu    sync.Mutex
	names map[string]*Schema
	opts  ParseOptions
}

// NewParser returns a Parser that knows no named types yet and parses with
// the default limits of ParseOptions.
func NewParser() *Parser {
	return &Parser{names: map[string]*Schema{}}
}

// Parse parses one schema text, resolving names against the named types of
// the texts parsed before, and keeps the named types it defines.
func (p *Parser) Parse(text string) (*Schema, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.names == nil {
		p.names = map[string]*Schema{}
	}
	s, st, err := parseTextState(&p.opts, text, p.names)
	if err != nil {
		return nil, err
	}
	// Commit only now, so a failed text leaves nothing half-defined.
	for _, name := range st.added {
		p.names[name] = st.local[name]
	}
	return s, nil
}

// ParseFile reads a schema file and parses it as Parse does. A parse error
// is an *Error whose File is path.
func (p *Parser) ParseFile(path string) (*Schema, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := p.Parse(string(data))
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.File = path
		}
		return nil, err
	}
	return s, nil
}

// Lookup returns the named type with the given full name, or nil.
func (p *Parser) Lookup(fullName string) *Schema {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.names[fullName]
}

// ParseFiles parses schema files that may refer to each other's named
// types and returns the schema of the last path. The files may come in any
// order: a file that refers to a type not yet defined is parsed again
// after the others, until every file parses or no more progress is made,
// in which case the first remaining file's error is returned.
func ParseFiles(paths ...string) (*Schema, error) {
	return parseFiles(NewParser(), paths)
}

func parseFiles(p *Parser, paths []string) (*Schema, error) {
	if len(paths) == 0 {
		return nil, errors.New("schema.ParseFiles: no files")
	}
	results := make([]*Schema, len(paths))
	pending := make([]int, len(paths))
	for i := range pending {
		pending[i] = i
	}
	for {
		var next []int
		var firstErr error
		for _, i := range pending {
			s, err := p.ParseFile(paths[i])
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || e.undefined == "" {
					return nil, err
				}
				if firstErr == nil {
					firstErr = err
				}
				next = append(next, i)
				continue
			}
			results[i] = s
		}
		if len(next) == 0 {
			return results[len(paths)-1], nil
		}
		if len(next) == len(pending) {
			return nil, firstErr
		}
		pending = next
	}
}
