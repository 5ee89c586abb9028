// Package e2e runs the Kafka serde end to end: a producer and a consumer
// group (franz-go's kgo) on an in-process Kafka cluster (kfake), writing
// and reading through the registry client against franz-go's in-memory
// Schema Registry (srfake). It is a module of its own, so that franz-go
// never enters the library's go.mod.
package e2e
