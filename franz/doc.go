// Package franz plugs the avro library's Kafka serde into franz-go, the
// Kafka client most Go programs use: it writes and reads the values and
// keys of *kgo.Record (SetValue, Value, ...) and makes franz-go's schema
// registry client, *sr.Client, a registry of package kafka (NewRegistry).
// It is a module of its own, so that franz-go stays out of the library's
// go.mod.
//
// A producer and a consumer in a few lines:
//
//	rg := franz.NewRegistry(srClient)
//	ser, err := kafka.NewRegistrySerializer(ctx, rg, "orders", s, kafka.SerializerConfig{})
//	rec := &kgo.Record{Topic: "orders"}
//	err = franz.SetValue(rec, ser, &order)
//
//	d := kafka.NewDeserializer(rg, s)
//	err = franz.Value(ctx, d, rec, &order)
//
// # Headers
//
// A record's value (or key) names its writer schema in one of two places:
// in the payload, as the Confluent wire format's prefix (SetValue,
// SetKey: the form every Confluent serde reads), or in a record header,
// kafka.ValueSchemaIDHeader or kafka.KeySchemaIDHeader, the payload then
// holding the datum alone (SetValueHeader, SetKeyHeader). Value and Key
// read both: the header, when the record has one for that side, names the
// schema (the last such header, when there are several), else the
// payload's prefix does. So that a record never says two things, each
// Set function removes the other form's header: SetValue drops a
// __value_schema_id header the record held, SetValueHeader replaces it.
// Other headers are left as they are.
package franz
