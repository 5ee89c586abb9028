// Package registry is a client of the Confluent Schema Registry REST API,
// on net/http alone.
//
//	c, err := registry.NewClient("http://localhost:8081")
//	id, err := c.Register(ctx, "orders-value", s)
//	s, err := c.SchemaByID(ctx, id)
//
// A *Client is safe for concurrent use and implements kafka.Registry, so a
// kafka.Deserializer can look writer schemas up through it.
//
// # Caches
//
// Schemas by id never change in a registry, so they are kept for the
// client's life, as are the ids of the schemas registered or looked up
// under a subject; the latest version of a subject is kept for a short TTL
// (WithLatestTTL). Concurrent lookups of one id make one request. An id
// the registry does not know is remembered for a short time
// (WithNegativeTTL), so that a flood of messages with a bad id does not
// flood the registry.
//
// # Reliability
//
// Requests go to the first URL that answers; a network error, a 5xx or a
// 429 moves to the next and is retried, with capped exponential backoff
// and full jitter, up to DefaultMaxRetries times (WithRetries) and within
// the context's deadline. Responses larger than DefaultMaxResponseSize
// (WithMaxResponseSize) are an error, read no further than that.
//
// # References
//
// A schema with references is parsed after its references, depth first, in
// one schema.Parser per lookup, so that the named types of one reference
// graph never collide with another's. Reference graphs are bounded in
// depth (DefaultMaxReferenceDepth, WithMaxReferenceDepth) and cycles are
// an error.
//
// To register a reference graph, register the schemas that define the
// shared types first (leaves first), then the schema that uses them with
// a Reference to each: Register sends it with those types written by
// name, as the registry expects (it refuses a type defined twice).
//
// # Contexts and GUIDs
//
// A subject qualified with a context (":.staging:orders-value") is
// registered in that context. Ids are per context: a client whose URL
// is the context's (http://registry:8081/contexts/.staging) looks them
// up there. Registries from Confluent Platform 8 give each schema a GUID
// as well, which SubjectSchema carries and SchemaByGUID looks up.
//
// # Errors
//
// The registry's errors are *Error values with the HTTP status, the
// registry's error code and its message; errors.Is matches them against
// the sentinels (ErrSubjectNotFound, ErrSchemaNotFound, ...).
package registry
