module github.com/avrogo/avro/bench

go 1.26.0

replace github.com/avrogo/avro => ../

require (
	github.com/actgardner/gogen-avro/v10 v10.2.1
	github.com/avrogo/avro v0.0.0
	github.com/google/go-cmp v0.7.0
	github.com/hamba/avro/v2 v2.31.0
	github.com/linkedin/goavro/v2 v2.15.0
	github.com/twmb/avro v1.9.1
	github.com/twmb/franz-go/pkg/sr v1.8.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/ettle/strcase v0.2.0 // indirect
	github.com/go-viper/mapstructure/v2 v2.4.0 // indirect
	github.com/golang/snappy v1.0.0 // indirect
	github.com/google/uuid v1.3.0 // indirect
	github.com/heetch/avro v0.3.1 // indirect
	github.com/json-iterator/go v1.1.12 // indirect
	github.com/klauspost/compress v1.19.2 // indirect
	github.com/modern-go/concurrent v0.0.0-20180306012644-bacd9c7ef1dd // indirect
	github.com/modern-go/reflect2 v1.0.2 // indirect
	github.com/ulikunitz/xz v0.5.17 // indirect
	golang.org/x/mod v0.31.0 // indirect
	golang.org/x/sync v0.19.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/tools v0.40.0 // indirect
)

tool (
	github.com/actgardner/gogen-avro/v10/cmd/gogen-avro
	github.com/hamba/avro/v2/cmd/avrogen
	github.com/heetch/avro/cmd/avrogo
)
