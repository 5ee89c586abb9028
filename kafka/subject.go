package kafka

import "github.com/avrogo/avro/schema"

// A SubjectNameStrategy names the registry subject of a topic's keys (key
// true) or values written with schema s.
type SubjectNameStrategy func(topic string, key bool, s *schema.Schema) string

// TopicName names the subject "<topic>-key" or "<topic>-value", the
// Confluent default: one schema history per topic.
func TopicName(topic string, key bool, _ *schema.Schema) string {
	if key {
		return topic + "-key"
	}
	return topic + "-value"
}

// RecordName names the subject by the full name of the schema's record:
// one history per record type, across topics.
func RecordName(_ string, _ bool, s *schema.Schema) string { return s.FullName() }

// TopicRecordName names the subject "<topic>-<full name>": one history per
// record type in each topic.
func TopicRecordName(topic string, _ bool, s *schema.Schema) string {
	return topic + "-" + s.FullName()
}
