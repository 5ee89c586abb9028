module github.com/avrogo/avro/franz

go 1.26.0

replace github.com/avrogo/avro => ../

require (
	github.com/avrogo/avro v0.0.0-00010101000000-000000000000
	github.com/twmb/franz-go v1.22.3
	github.com/twmb/franz-go/pkg/sr v1.8.0
)

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/pierrec/lz4/v4 v4.1.33 // indirect
	github.com/twmb/franz-go/pkg/kmsg v1.15.1 // indirect
	golang.org/x/sys v0.35.0 // indirect
)
