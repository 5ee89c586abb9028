package registry

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"github.com/avrogo/avro/schema"
)

// A Reference names a schema that another refers to: Name is how the
// referring schema names it (for Avro, the full name of a type it
// defines), Subject and Version where the registry holds it.
type Reference struct {
	Name    string `json:"name"`
	Subject string `json:"subject"`
	Version int    `json:"version"`
}

// SubjectSchema is a schema as a subject holds it.
type SubjectSchema struct {
	// Subject and Version say where the registry holds it.
	Subject string
	Version int
	// ID is the schema's registry id, the one messages carry.
	ID int
	// GUID is the schema's globally unique id, when the registry gives
	// one (Confluent Platform 8 and later), else zero.
	GUID [16]byte
	// Schema is the schema, its references resolved.
	Schema *schema.Schema
	// References are the schemas it refers to.
	References []Reference
}

// parseGUID reads a GUID in its RFC 4122 text form; ok is false for
// anything else.
func parseGUID(text string) (g [16]byte, ok bool) {
	if len(text) != 36 || text[8] != '-' || text[13] != '-' || text[18] != '-' || text[23] != '-' {
		return g, false
	}
	h := text[:8] + text[9:13] + text[14:18] + text[19:23] + text[24:]
	if _, err := hex.Decode(g[:], []byte(h)); err != nil {
		return [16]byte{}, false
	}
	return g, true
}

func guidText(g [16]byte) string {
	h := hex.EncodeToString(g[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func (b *schemaBody) subjectSchema(s *schema.Schema) SubjectSchema {
	g, _ := parseGUID(b.GUID)
	return SubjectSchema{Subject: b.Subject, Version: b.Version, ID: b.ID, GUID: g, Schema: s, References: b.References}
}

// schemaBody is the registry's JSON of a schema.
type schemaBody struct {
	Subject    string      `json:"subject,omitempty"`
	Version    int         `json:"version,omitempty"`
	ID         int         `json:"id,omitempty"`
	GUID       string      `json:"guid,omitempty"`
	Schema     string      `json:"schema"`
	SchemaType string      `json:"schemaType,omitempty"`
	References []Reference `json:"references,omitempty"`
}

func subjectPath(subject string) string { return "/subjects/" + url.PathEscape(subject) }

// SchemaByID returns the schema the registry holds under id, with its
// references resolved. Schemas are cached for the client's life;
// concurrent calls for one id make one request; an unknown id is an error
// matching ErrSchemaNotFound, remembered for the negative TTL.
func (c *Client) SchemaByID(ctx context.Context, id int) (*schema.Schema, error) {
	c.mu.Lock()
	if s, ok := c.byID[id]; ok {
		c.mu.Unlock()
		return s, nil
	}
	if until, ok := c.unknown[id]; ok {
		if c.now().Before(until) {
			c.mu.Unlock()
			return nil, &Error{Method: "GET", Path: "/schemas/ids/" + strconv.Itoa(id), StatusCode: 404, Code: 40403, Message: "schema not found (cached)"}
		}
		delete(c.unknown, id)
	}
	c.mu.Unlock()
	v, err := c.flights.do(ctx, id, func() (any, error) {
		// A flight that ended between the lookup above and this one
		// has filled the cache.
		c.mu.Lock()
		s, ok := c.byID[id]
		c.mu.Unlock()
		if ok {
			return s, nil
		}
		var b schemaBody
		if err := c.do(ctx, "GET", "/schemas/ids/"+strconv.Itoa(id), nil, &b); err != nil {
			if errors.Is(err, ErrSchemaNotFound) {
				c.mu.Lock()
				c.unknown[id] = c.now().Add(c.negativeTTL)
				c.mu.Unlock()
			}
			return nil, err
		}
		s, err := c.parseBody(ctx, &b)
		if err != nil {
			return nil, fmt.Errorf("registry: schema %d: %w", id, err)
		}
		c.mu.Lock()
		c.byID[id] = s
		c.mu.Unlock()
		return s, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*schema.Schema), nil
}

// parseBody parses a schema after its references, depth first, in a
// parser of its own.
func (c *Client) parseBody(ctx context.Context, b *schemaBody) (*schema.Schema, error) {
	if b.SchemaType != "" && b.SchemaType != "AVRO" {
		return nil, fmt.Errorf("a %s schema is not Avro", b.SchemaType)
	}
	p := c.parse.NewParser()
	r := refWalk{c: c, p: p, done: map[Reference]bool{}, active: map[Reference]bool{}}
	if err := r.walk(ctx, b.References, 1); err != nil {
		return nil, err
	}
	return p.Parse(b.Schema)
}

type refWalk struct {
	c            *Client
	p            *schema.Parser
	done, active map[Reference]bool
	// defined collects the full names of the named types the references
	// define, when it is not nil.
	defined map[string]bool
}

func (r *refWalk) walk(ctx context.Context, refs []Reference, depth int) error {
	if len(refs) > 0 && depth > r.c.maxRefDepth {
		return fmt.Errorf("%w: deeper than %d", ErrReferences, r.c.maxRefDepth)
	}
	for _, ref := range refs {
		key := Reference{Subject: ref.Subject, Version: ref.Version}
		if r.done[key] {
			continue
		}
		if r.active[key] {
			return fmt.Errorf("%w: %s version %d refers to itself", ErrReferences, ref.Subject, ref.Version)
		}
		r.active[key] = true
		var b schemaBody
		if err := r.c.do(ctx, "GET", subjectPath(ref.Subject)+"/versions/"+strconv.Itoa(ref.Version), nil, &b); err != nil {
			return fmt.Errorf("reference %s: %w", ref.Name, err)
		}
		if b.SchemaType != "" && b.SchemaType != "AVRO" {
			return fmt.Errorf("reference %s: a %s schema is not Avro", ref.Name, b.SchemaType)
		}
		if err := r.walk(ctx, b.References, depth+1); err != nil {
			return err
		}
		rs, err := r.p.Parse(b.Schema)
		if err != nil {
			return fmt.Errorf("reference %s (%s version %d): %w", ref.Name, ref.Subject, ref.Version, err)
		}
		if r.defined != nil {
			for _, n := range rs.NamedTypes() {
				r.defined[n.FullName()] = true
			}
		}
		delete(r.active, key)
		r.done[key] = true
	}
	return nil
}

// textFor returns the text of s to send with refs: the types the
// references define are written by name (the registry parses the
// references first, and a schema that defined them again would be
// refused as a redefinition).
func (c *Client) textFor(ctx context.Context, s *schema.Schema, refs []Reference) (string, error) {
	if len(refs) == 0 {
		return s.String(), nil
	}
	r := refWalk{c: c, p: c.parse.NewParser(), done: map[Reference]bool{}, active: map[Reference]bool{}, defined: map[string]bool{}}
	if err := r.walk(ctx, refs, 1); err != nil {
		return "", err
	}
	names := make([]string, 0, len(r.defined))
	for n := range r.defined {
		names = append(names, n)
	}
	return s.StringReferring(names...), nil
}

// refsKey is what the references add to the key of a registered schema.
func refsKey(refs []Reference) string {
	if len(refs) == 0 {
		return ""
	}
	b, _ := json.Marshal(refs)
	return string(b)
}

// Register registers s under subject and returns its id; registering a
// schema the subject already has returns its id. Ids are cached per
// subject, schema and references.
//
// The references name schemas registered before (the subject and version
// of each) that define named types s uses: s is sent with those types
// written by name, as the registry expects, so s may be a schema parsed
// with them in the same Parser, or one whose Go type holds them
// (SchemaOf). Register them first, leaves first; the serializer's
// References option does the same.
func (c *Client) Register(ctx context.Context, subject string, s *schema.Schema, refs ...Reference) (int, error) {
	key := subjectText{subject, s.String() + refsKey(refs)}
	c.mu.Lock()
	if id, ok := c.ids[key]; ok {
		c.mu.Unlock()
		return id, nil
	}
	c.mu.Unlock()
	text, err := c.textFor(ctx, s, refs)
	if err != nil {
		return 0, fmt.Errorf("registry: registering under %s: %w", subject, err)
	}
	var out struct {
		ID int `json:"id"`
	}
	if err := c.do(ctx, "POST", subjectPath(subject)+"/versions"+c.query(), schemaBody{Schema: text, References: refs}, &out); err != nil {
		return 0, err
	}
	c.remember(key, out.ID, s)
	c.mu.Lock()
	delete(c.latest, subject)
	c.mu.Unlock()
	return out.ID, nil
}

// RegisterSchema is Register that returns the subject's version of s
// with its id, version and GUID. The registry's answer to a registration
// holds the id alone before Confluent Platform 8, so the version and
// GUID then take a second request (LookupID).
func (c *Client) RegisterSchema(ctx context.Context, subject string, s *schema.Schema, refs ...Reference) (SubjectSchema, error) {
	text, err := c.textFor(ctx, s, refs)
	if err != nil {
		return SubjectSchema{}, fmt.Errorf("registry: registering under %s: %w", subject, err)
	}
	var b schemaBody
	if err := c.do(ctx, "POST", subjectPath(subject)+"/versions"+c.query(), schemaBody{Schema: text, References: refs}, &b); err != nil {
		return SubjectSchema{}, err
	}
	c.remember(subjectText{subject, s.String() + refsKey(refs)}, b.ID, s)
	c.mu.Lock()
	delete(c.latest, subject)
	c.mu.Unlock()
	if b.Version == 0 || b.GUID == "" {
		ss, err := c.LookupID(ctx, subject, s, refs...)
		if err != nil {
			return SubjectSchema{}, err
		}
		if ss.ID != b.ID {
			return SubjectSchema{}, fmt.Errorf("registry: %s: registered as id %d, looked up as id %d", subject, b.ID, ss.ID)
		}
		return ss, nil
	}
	b.Subject = subject
	ss := b.subjectSchema(s)
	ss.References = refs
	return ss, nil
}

func (c *Client) remember(key subjectText, id int, s *schema.Schema) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ids[key] = id
	if _, ok := c.byID[id]; !ok {
		c.byID[id] = s
	}
}

// LookupID returns the id and version of s under subject, an error
// matching ErrSchemaNotFound when the subject does not hold it.
func (c *Client) LookupID(ctx context.Context, subject string, s *schema.Schema, refs ...Reference) (SubjectSchema, error) {
	text, err := c.textFor(ctx, s, refs)
	if err != nil {
		return SubjectSchema{}, fmt.Errorf("registry: looking up under %s: %w", subject, err)
	}
	var b schemaBody
	if err := c.do(ctx, "POST", subjectPath(subject)+c.query(), schemaBody{Schema: text, References: refs}, &b); err != nil {
		return SubjectSchema{}, err
	}
	c.remember(subjectText{subject, s.String() + refsKey(refs)}, b.ID, s)
	b.Subject = subject
	return b.subjectSchema(s), nil
}

// SchemaByVersion returns version v of subject; v of -1 is the latest
// (Latest caches it for a while). A version never changes, so it is
// cached until the client deletes it.
func (c *Client) SchemaByVersion(ctx context.Context, subject string, v int) (SubjectSchema, error) {
	ver := strconv.Itoa(v)
	if v == -1 {
		ver = "latest"
	}
	c.mu.Lock()
	ss, ok := c.versions[subjectVersion{subject, v}]
	c.mu.Unlock()
	if ok {
		return ss, nil
	}
	var b schemaBody
	if err := c.do(ctx, "GET", subjectPath(subject)+"/versions/"+ver, nil, &b); err != nil {
		return SubjectSchema{}, err
	}
	s, err := c.parseBody(ctx, &b)
	if err != nil {
		return SubjectSchema{}, fmt.Errorf("registry: %s version %s: %w", subject, ver, err)
	}
	ss = b.subjectSchema(s)
	if ss.Version > 0 {
		c.mu.Lock()
		c.versions[subjectVersion{subject, ss.Version}] = ss
		c.mu.Unlock()
	}
	return ss, nil
}

// Latest returns the latest version of subject, from a cache kept for
// the latest TTL (see WithLatestTTL).
func (c *Client) Latest(ctx context.Context, subject string) (SubjectSchema, error) {
	c.mu.Lock()
	if e, ok := c.latest[subject]; ok && c.now().Before(e.until) {
		c.mu.Unlock()
		return e.s, nil
	}
	c.mu.Unlock()
	ss, err := c.SchemaByVersion(ctx, subject, -1)
	if err == nil && c.latestTTL > 0 {
		c.mu.Lock()
		c.latest[subject] = latestEntry{ss, c.now().Add(c.latestTTL)}
		c.mu.Unlock()
	}
	return ss, err
}

func (c *Client) query() string {
	if c.normalize {
		return "?normalize=true"
	}
	return ""
}

// Subjects lists the registry's subjects.
func (c *Client) Subjects(ctx context.Context) ([]string, error) {
	var out []string
	return out, c.do(ctx, "GET", "/subjects", nil, &out)
}

// Versions lists the versions of subject.
func (c *Client) Versions(ctx context.Context, subject string) ([]int, error) {
	var out []int
	return out, c.do(ctx, "GET", subjectPath(subject)+"/versions", nil, &out)
}

// AllVersions, as the version of CheckCompatibility, checks against every
// version the subject's compatibility mode compares with (all of them
// under a transitive mode).
const AllVersions = 0

// CheckCompatibility checks s against version v of subject (-1: the
// latest; AllVersions: the versions its mode compares with) under the
// subject's compatibility mode. It returns the registry's reasons when s
// is not compatible.
func (c *Client) CheckCompatibility(ctx context.Context, subject string, v int, s *schema.Schema, refs ...Reference) (ok bool, reasons []string, err error) {
	path := "/compatibility" + subjectPath(subject) + "/versions"
	switch v {
	case -1:
		path += "/latest"
	case AllVersions:
	default:
		path += "/" + strconv.Itoa(v)
	}
	var out struct {
		OK       bool     `json:"is_compatible"`
		Messages []string `json:"messages"`
	}
	text, err := c.textFor(ctx, s, refs)
	if err != nil {
		return false, nil, fmt.Errorf("registry: checking against %s: %w", subject, err)
	}
	err = c.do(ctx, "POST", path+"?verbose=true", schemaBody{Schema: text, References: refs}, &out)
	return out.OK, out.Messages, err
}

// DeleteSubject deletes subject, softly or (permanent, after a soft
// delete) for good, and returns the versions deleted.
func (c *Client) DeleteSubject(ctx context.Context, subject string, permanent bool) ([]int, error) {
	path := subjectPath(subject)
	if permanent {
		path += "?permanent=true"
	}
	var out []int
	err := c.do(ctx, "DELETE", path, nil, &out)
	c.forget(subject)
	return out, err
}

// forget drops what the client keeps of subject's versions, which a
// delete makes stale: registering the schema again must reach the
// registry, which then makes a new version.
func (c *Client) forget(subject string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.latest, subject)
	for k := range c.ids {
		if k.subject == subject {
			delete(c.ids, k)
		}
	}
	for k := range c.versions {
		if k.subject == subject {
			delete(c.versions, k)
		}
	}
}

// DeleteVersion deletes version v of subject, softly or (permanent, after
// a soft delete) for good.
func (c *Client) DeleteVersion(ctx context.Context, subject string, v int, permanent bool) error {
	path := subjectPath(subject) + "/versions/" + strconv.Itoa(v)
	if permanent {
		path += "?permanent=true"
	}
	err := c.do(ctx, "DELETE", path, nil, nil)
	c.forget(subject)
	return err
}

// SchemaByGUID returns the schema the registry holds under guid, with
// its references resolved, as SchemaByID does (without its caches: the
// Kafka Deserializer keeps what it looks up).
func (c *Client) SchemaByGUID(ctx context.Context, guid [16]byte) (*schema.Schema, error) {
	text := guidText(guid)
	var b schemaBody
	if err := c.do(ctx, "GET", "/schemas/guids/"+text, nil, &b); err != nil {
		return nil, err
	}
	s, err := c.parseBody(ctx, &b)
	if err != nil {
		return nil, fmt.Errorf("registry: schema %s: %w", text, err)
	}
	return s, nil
}
