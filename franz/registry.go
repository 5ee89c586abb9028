package franz

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/twmb/franz-go/pkg/sr"

	"github.com/avrogo/avro/kafka"
	"github.com/avrogo/avro/registry"
	"github.com/avrogo/avro/schema"
)

// Registry makes a franz-go schema registry client a registry of package
// kafka: a kafka.GUIDRegistry for Deserializers and a
// kafka.SubjectRegistry for NewRegistrySerializer, every option
// included. Schemas are parsed with their references resolved, and the
// schemas of ids are kept for the Registry's life (an id's schema never
// changes). The registry's error responses become *registry.Error, so
// that errors.Is matches the registry package's sentinels
// (registry.ErrSubjectNotFound, ...). It is safe for concurrent use.
type Registry struct {
	cl    *sr.Client
	parse schema.ParseOptions
	byID  sync.Map // int -> *schema.Schema
}

var (
	_ kafka.GUIDRegistry    = (*Registry)(nil)
	_ kafka.SubjectRegistry = (*Registry)(nil)
)

// NewRegistry returns the Registry of cl.
func NewRegistry(cl *sr.Client) *Registry { return &Registry{cl: cl} }

// WithParseOptions returns a Registry that parses schemas with o (and its
// limits), sharing r's client but not its cache.
func (r *Registry) WithParseOptions(o schema.ParseOptions) *Registry {
	return &Registry{cl: r.cl, parse: o}
}

// Client returns the franz-go client.
func (r *Registry) Client() *sr.Client { return r.cl }

// SchemaByID returns the schema registered under id.
func (r *Registry) SchemaByID(ctx context.Context, id int) (*schema.Schema, error) {
	if s, ok := r.byID.Load(id); ok {
		return s.(*schema.Schema), nil
	}
	ss, err := r.cl.SchemaByID(ctx, id)
	if err != nil {
		return nil, convert(err)
	}
	s, err := r.parseSchema(ctx, ss)
	if err != nil {
		return nil, fmt.Errorf("franz: schema %d: %w", id, err)
	}
	r.byID.Store(id, s)
	return s, nil
}

// SchemaByGUID returns the schema registered under guid.
func (r *Registry) SchemaByGUID(ctx context.Context, guid [kafka.GUIDSize]byte) (*schema.Schema, error) {
	text := guidText(guid)
	ss, err := r.cl.SchemaByGUID(ctx, text)
	if err != nil {
		return nil, convert(err)
	}
	s, err := r.parseSchema(ctx, ss.Schema)
	if err != nil {
		return nil, fmt.Errorf("franz: schema %s: %w", text, err)
	}
	return s, nil
}

// Register registers s under subject and returns its id.
func (r *Registry) Register(ctx context.Context, subject string, s *schema.Schema, refs ...registry.Reference) (int, error) {
	body, err := r.body(ctx, s, refs)
	if err != nil {
		return 0, fmt.Errorf("franz: registering under %s: %w", subject, err)
	}
	id, err := r.cl.RegisterSchema(ctx, subject, body, -1, -1)
	if err != nil {
		return 0, convert(err)
	}
	r.byID.LoadOrStore(id, s)
	return id, nil
}

// RegisterSchema is Register that returns the subject's version of s.
func (r *Registry) RegisterSchema(ctx context.Context, subject string, s *schema.Schema, refs ...registry.Reference) (registry.SubjectSchema, error) {
	body, err := r.body(ctx, s, refs)
	if err != nil {
		return registry.SubjectSchema{}, fmt.Errorf("franz: registering under %s: %w", subject, err)
	}
	ss, err := r.cl.CreateSchema(ctx, subject, body)
	if err != nil {
		return registry.SubjectSchema{}, convert(err)
	}
	r.byID.LoadOrStore(ss.ID, s)
	return subjectSchema(ss, s), nil
}

// Latest returns the latest version of subject.
func (r *Registry) Latest(ctx context.Context, subject string) (registry.SubjectSchema, error) {
	return r.SchemaByVersion(ctx, subject, -1)
}

// SchemaByVersion returns version v of subject; -1 is the latest.
func (r *Registry) SchemaByVersion(ctx context.Context, subject string, v int) (registry.SubjectSchema, error) {
	ss, err := r.cl.SchemaByVersion(ctx, subject, v)
	if err != nil {
		return registry.SubjectSchema{}, convert(err)
	}
	s, err := r.parseSchema(ctx, ss.Schema)
	if err != nil {
		return registry.SubjectSchema{}, fmt.Errorf("franz: %s version %d: %w", subject, v, err)
	}
	return subjectSchema(ss, s), nil
}

// Versions lists the versions of subject.
func (r *Registry) Versions(ctx context.Context, subject string) ([]int, error) {
	vs, err := r.cl.SubjectVersions(ctx, subject)
	return vs, convert(err)
}

// Config returns the compatibility level of subject ("" for the global
// one), as registry.Client.Config does.
func (r *Registry) Config(ctx context.Context, subject string) (string, error) {
	res := r.cl.Compatibility(ctx, subject)
	if len(res) == 0 {
		return "", errors.New("franz: the registry gave no compatibility level")
	}
	if res[0].Err != nil {
		return "", convert(res[0].Err)
	}
	if res[0].Level == 0 {
		return "", nil
	}
	return res[0].Level.String(), nil
}

// CheckCompatibility checks s against version v of subject (-1: the
// latest; registry.AllVersions: every version its level compares with)
// and returns the registry's reasons when it is not compatible.
func (r *Registry) CheckCompatibility(ctx context.Context, subject string, v int, s *schema.Schema, refs ...registry.Reference) (bool, []string, error) {
	body, err := r.body(ctx, s, refs)
	if err != nil {
		return false, nil, fmt.Errorf("franz: checking against %s: %w", subject, err)
	}
	if v == registry.AllVersions {
		v = -2 // franz-go's "every version"
	}
	res, err := r.cl.CheckCompatibility(sr.WithParams(ctx, sr.Verbose), subject, v, body)
	if err != nil {
		return false, nil, convert(err)
	}
	return res.Is, res.Messages, nil
}

// body is the registry's form of s with refs: the types the references
// define written by name, as the registry parses the references first.
func (r *Registry) body(ctx context.Context, s *schema.Schema, refs []registry.Reference) (sr.Schema, error) {
	body := sr.Schema{Schema: s.String(), Type: sr.TypeAvro}
	if len(refs) == 0 {
		return body, nil
	}
	w := r.walker()
	w.defined = map[string]bool{}
	body.References = make([]sr.SchemaReference, len(refs))
	for i, ref := range refs {
		body.References[i] = sr.SchemaReference{Name: ref.Name, Subject: ref.Subject, Version: ref.Version}
	}
	if err := w.walk(ctx, body.References, 1); err != nil {
		return body, err
	}
	names := make([]string, 0, len(w.defined))
	for n := range w.defined {
		names = append(names, n)
	}
	body.Schema = s.StringReferring(names...)
	return body, nil
}

// parseSchema parses a schema after its references, in a parser of its
// own.
func (r *Registry) parseSchema(ctx context.Context, s sr.Schema) (*schema.Schema, error) {
	if s.Type != sr.TypeAvro {
		return nil, fmt.Errorf("a %s schema is not Avro", s.Type)
	}
	w := r.walker()
	if err := w.walk(ctx, s.References, 1); err != nil {
		return nil, err
	}
	return w.p.Parse(s.Schema)
}

// maxReferenceDepth bounds a schema's reference graph, as the registry
// package's client does by default.
const maxReferenceDepth = registry.DefaultMaxReferenceDepth

type refWalk struct {
	r            *Registry
	p            *schema.Parser
	done, active map[sr.SchemaReference]bool
	defined      map[string]bool
}

func (r *Registry) walker() *refWalk {
	return &refWalk{r: r, p: r.parse.NewParser(), done: map[sr.SchemaReference]bool{}, active: map[sr.SchemaReference]bool{}}
}

// walk parses the schemas refs name, leaves first, into w's parser.
func (w *refWalk) walk(ctx context.Context, refs []sr.SchemaReference, depth int) error {
	if len(refs) > 0 && depth > maxReferenceDepth {
		return fmt.Errorf("%w: deeper than %d", registry.ErrReferences, maxReferenceDepth)
	}
	for _, ref := range refs {
		key := sr.SchemaReference{Subject: ref.Subject, Version: ref.Version}
		if w.done[key] {
			continue
		}
		if w.active[key] {
			return fmt.Errorf("%w: %s version %d refers to itself", registry.ErrReferences, ref.Subject, ref.Version)
		}
		w.active[key] = true
		ss, err := w.r.cl.SchemaByVersion(ctx, ref.Subject, ref.Version)
		if err != nil {
			return fmt.Errorf("reference %s: %w", ref.Name, convert(err))
		}
		if ss.Type != sr.TypeAvro {
			return fmt.Errorf("reference %s: a %s schema is not Avro", ref.Name, ss.Type)
		}
		if err := w.walk(ctx, ss.References, depth+1); err != nil {
			return err
		}
		rs, err := w.p.Parse(ss.Schema.Schema)
		if err != nil {
			return fmt.Errorf("reference %s (%s version %d): %w", ref.Name, ref.Subject, ref.Version, err)
		}
		if w.defined != nil {
			for _, n := range rs.NamedTypes() {
				w.defined[n.FullName()] = true
			}
		}
		delete(w.active, key)
		w.done[key] = true
	}
	return nil
}

func subjectSchema(ss sr.SubjectSchema, s *schema.Schema) registry.SubjectSchema {
	out := registry.SubjectSchema{Subject: ss.Subject, Version: ss.Version, ID: ss.ID, Schema: s}
	if g, ok := parseGUID(ss.GUID); ok {
		out.GUID = g
	}
	for _, ref := range ss.References {
		out.References = append(out.References, registry.Reference{Name: ref.Name, Subject: ref.Subject, Version: ref.Version})
	}
	return out
}

// convert turns franz-go's error responses into *registry.Error.
func convert(err error) error {
	var re *sr.ResponseError
	if !errors.As(err, &re) {
		return err
	}
	code := re.ErrorCode
	if code == 0 {
		code = re.StatusCode
	}
	return &registry.Error{Method: re.Method, Path: re.URL, StatusCode: re.StatusCode, Code: code, Message: re.Error()}
}

func guidText(g [kafka.GUIDSize]byte) string {
	h := hex.EncodeToString(g[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func parseGUID(text string) (g [kafka.GUIDSize]byte, ok bool) {
	if len(text) != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-' {
		return g, false
	}
	h := text[:8] + text[9:13] + text[14:18] + text[19:23] + text[24:]
	if _, err := hex.Decode(g[:], []byte(h)); err != nil {
		return [kafka.GUIDSize]byte{}, false
	}
	return g, true
}
