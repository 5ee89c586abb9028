module github.com/avrogo/avro

go 1.24

require (
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.19.2
	github.com/modern-go/reflect2 v1.0.2
	github.com/ulikunitz/xz v0.5.17
	golang.org/x/sys v0.35.0
)
