package main

// goldenCases are the command lines whose transcripts testdata/golden
// holds: every command, its flags and its errors. The files they name are
// those of workDir.
var goldenCases = []goldenCase{
	// help and usage
	{name: "no-args", args: nil},
	{name: "help", args: []string{"help"}},
	{name: "help-tojson", args: []string{"help", "tojson"}},
	{name: "help-unknown", args: []string{"help", "nope"}},
	{name: "flag-help", args: []string{"count", "--help"}},
	{name: "unknown-command", args: []string{"nope"}},
	{name: "unknown-flag", args: []string{"count", "--nope", "weather.avro"}},

	// tojson
	{name: "tojson", args: []string{"tojson", "weather.avro"}},
	{name: "tojson-codecs", args: []string{"tojson", "weather-deflate.avro", "weather-snappy.avro", "weather-zstd.avro"}},
	{name: "tojson-readings", args: []string{"tojson", "readings.avro", "--head", "6"}},
	{name: "tojson-plain", args: []string{"tojson", "--plain", "--head", "6", "readings-deflate.avro"}},
	{name: "tojson-pretty", args: []string{"tojson", "--pretty", "--head", "2", "readings.avro"}},
	{name: "tojson-head-across-files", args: []string{"tojson", "--head", "7", "weather.avro", "weather-deflate.avro"}},
	{name: "tojson-reader-schema", args: []string{"tojson", "--reader-schema", "weather-v2.avsc", "weather.avro"}},
	{name: "tojson-reader-schema-incompatible", args: []string{"tojson", "--reader-schema", "weather-bad.avsc", "weather.avro"}},
	{name: "tojson-stdin", args: []string{"cat", "weather.avro", "-"}, pipe: [][]string{{"tojson", "-"}}},
	{name: "tojson-damaged", args: []string{"tojson", "damaged.avro"}},
	{name: "tojson-corrupt", args: []string{"tojson", "corrupt.avro"}},
	{name: "tojson-cut", args: []string{"tojson", "cut.avro"}},
	{name: "tojson-not-avro", args: []string{"tojson", "weather.json"}},
	{name: "tojson-missing", args: []string{"tojson", "missing.avro"}},
	{name: "tojson-no-args", args: []string{"tojson"}},
	{name: "tojson-two-stdins", args: []string{"tojson", "-", "-"}},
	{name: "tojson-raw", args: []string{"fromjson", "--raw", "--schema", "weather.avsc", "weather.json"},
		pipe: [][]string{{"tojson", "--raw", "--schema", "weather.avsc", "-"}}},
	{name: "tojson-jobs", args: []string{"tojson", "-j", "2", "--head", "3", "readings-deflate.avro"}},
	{name: "tojson-bad-jobs", args: []string{"tojson", "-j", "-1", "readings.avro"}},
	{name: "tojson-raw-no-schema", args: []string{"tojson", "--raw", "weather.avro"}},

	// fromjson
	{name: "fromjson", args: []string{"fromjson", "--schema", "weather.avsc", "weather.json"}, pipe: [][]string{{"tojson", "-"}}},
	{name: "fromjson-codec", args: []string{"fromjson", "--schema", "weather.avsc", "--codec", "zstandard", "--level", "19", "weather.json", "-"},
		pipe: [][]string{{"getmeta", "--key", "avro.codec", "-"}}},
	{name: "fromjson-plain", args: []string{"tojson", "--plain", "readings.avro"},
		pipe: [][]string{{"fromjson", "--plain", "--schema", "readings.avsc"}, {"tojson", "--head", "3", "-"}}},
	{name: "fromjson-stdin", stdin: `{"station":"x","time":1,"temp":2} {"station":"y","time":3,"temp":4}`,
		args: []string{"fromjson", "--schema", "weather.avsc"}, pipe: [][]string{{"tojson", "-"}}},
	{name: "fromjson-bad-record", stdin: "{\"station\":\"x\",\"time\":1,\"temp\":2}\n{\"station\":\"y\",\"time\":\"late\",\"temp\":4}\n",
		args: []string{"fromjson", "--schema", "weather.avsc"}},
	{name: "fromjson-no-schema", args: []string{"fromjson", "weather.json"}},
	{name: "fromjson-bad-codec", args: []string{"fromjson", "--schema", "weather.avsc", "--codec", "lzma", "weather.json"}},
	{name: "fromjson-read-only-codec", args: []string{"fromjson", "--schema", "weather.avsc", "--codec", "bzip2", "weather.json"}},
	{name: "fromjson-bad-level", args: []string{"fromjson", "--schema", "weather.avsc", "--codec", "deflate", "--level", "40", "weather.json"}},
	{name: "fromjson-inline-schema", stdin: "\"a\"\n\"b\"\n", args: []string{"fromjson", "--schema", `"string"`}, pipe: [][]string{{"tojson", "-"}}},
	{name: "fromjson-bad-schema", args: []string{"fromjson", "--schema", `{"type":"recrod"}`, "weather.json"}},

	// cat
	{name: "cat", args: []string{"cat", "--offset", "8", "--limit", "5", "readings.avro", "-"}, pipe: [][]string{{"tojson", "-"}}},
	{name: "cat-samplerate", args: []string{"cat", "--samplerate", "0.25", "readings.avro", "readings-deflate.avro", "-"}, pipe: [][]string{{"count", "-"}}},
	{name: "cat-codec", args: []string{"cat", "--codec", "snappy", "weather.avro", "-"}, pipe: [][]string{{"getmeta", "-"}}},
	{name: "cat-schemas-differ", args: []string{"cat", "weather.avro", "readings.avro", "-"}},
	{name: "cat-bad-samplerate", args: []string{"cat", "--samplerate", "2", "weather.avro", "-"}},
	{name: "cat-no-output", args: []string{"cat", "weather.avro"}},

	// totext and fromtext
	{name: "fromtext", stdin: "first line\nsecond\r\n\nlast, no newline", args: []string{"fromtext"}, pipe: [][]string{{"totext"}}},
	{name: "totext-wrong-schema", args: []string{"totext", "weather.avro"}},

	// getschema, getmeta, count
	{name: "getschema", args: []string{"getschema", "weather.avro"}},
	{name: "getmeta", args: []string{"getmeta", "readings.avro"}},
	{name: "getmeta-key", args: []string{"getmeta", "--key", "origin", "readings.avro"}},
	{name: "getmeta-missing-key", args: []string{"getmeta", "--key", "nope", "readings.avro"}},
	{name: "count", args: []string{"count", "readings.avro"}},
	{name: "count-several", args: []string{"count", "readings.avro", "weather.avro", "readings-deflate.avro"}},
	{name: "count-jobs", args: []string{"count", "-j", "4", "readings-deflate.avro"}},
	{name: "count-damaged", args: []string{"count", "damaged.avro"}},

	// validate
	{name: "validate", args: []string{"validate", "readings.avro", "weather-zstd.avro"}},
	{name: "validate-jobs", args: []string{"validate", "-j", "4", "readings.avro", "corrupt.avro"}},
	{name: "validate-bad", args: []string{"validate", "readings.avro", "damaged.avro", "corrupt.avro", "cut.avro"}},
	{name: "validate-reader-schema", args: []string{"validate", "--reader-schema", "weather-v2.avsc", "weather.avro"}},
	{name: "validate-reader-schema-incompatible", args: []string{"validate", "--reader-schema", "weather-bad.avsc", "weather.avro"}},

	// concat and recodec
	{name: "concat", args: []string{"concat", "readings.avro", "readings-deflate.avro", "readings.avro", "-"}, pipe: [][]string{{"count", "-"}}},
	{name: "concat-schemas-differ", args: []string{"concat", "readings.avro", "weather.avro", "-"}},
	{name: "recodec", args: []string{"recodec", "--codec", "zstandard", "readings.avro", "-"}, pipe: [][]string{{"validate", "-"}}},
	{name: "recodec-no-codec", args: []string{"recodec", "readings.avro", "-"}},
	{name: "recodec-output-is-input", args: []string{"recodec", "--codec", "deflate", "readings.avro", "readings.avro"}},

	// random
	{name: "random", args: []string{"random", "--schema", "readings.avsc", "--count", "4", "--seed", "42", "-"}, pipe: [][]string{{"tojson", "-"}}},
	{name: "random-codec", args: []string{"random", "--schema", "readings.avsc", "--count", "2000", "--seed", "1", "--codec", "deflate", "-"}, pipe: [][]string{{"validate", "-"}}},
	{name: "random-logical", args: []string{"random", "--count", "3", "--seed", "9", "-", "--schema",
		`{"type":"record","name":"L","fields":[{"name":"d","type":{"type":"int","logicalType":"date"}},` +
			`{"name":"t","type":{"type":"long","logicalType":"time-micros"}},{"name":"ts","type":{"type":"long","logicalType":"timestamp-nanos"}},` +
			`{"name":"u","type":{"type":"string","logicalType":"uuid"}},{"name":"m","type":{"type":"bytes","logicalType":"decimal","precision":6,"scale":2}},` +
			`{"name":"f","type":{"type":"fixed","name":"F","size":4,"logicalType":"decimal","precision":9,"scale":3}},` +
			`{"name":"du","type":{"type":"fixed","name":"D","size":12,"logicalType":"duration"}},{"name":"b","type":{"type":"bytes","logicalType":"big-decimal"}}]}`},
		pipe: [][]string{{"tojson", "--plain", "-"}}},
	{name: "random-infinite", args: []string{"random", "--schema", `{"type":"record","name":"L","fields":[{"name":"next","type":"L"}]}`, "--count", "1", "-"}},
	{name: "random-recursive", args: []string{"random", "--schema", `{"type":"record","name":"L","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","L"]}]}`, "--count", "6", "--seed", "5", "-"},
		pipe: [][]string{{"tojson", "-"}}},
	{name: "random-no-count", args: []string{"random", "--schema", "readings.avsc", "-"}},

	// repair
	{name: "repair", args: []string{"repair", "damaged.avro", "-"}, pipe: [][]string{{"count", "-"}}},
	{name: "repair-report", args: []string{"repair", "--report", "damaged.avro"}},
	{name: "repair-corrupt", args: []string{"repair", "corrupt.avro", "-"}, pipe: [][]string{{"tojson", "--head", "12", "-"}}},
	{name: "repair-cut", args: []string{"repair", "--mode", "report", "cut.avro"}},
	{name: "repair-prior", args: []string{"repair", "--mode", "prior", "damaged.avro", "-"}, pipe: [][]string{{"count", "-"}}},
	{name: "repair-after", args: []string{"repair", "--mode", "after", "corrupt.avro", "-"}, pipe: [][]string{{"count", "-"}}},
	{name: "repair-intact", args: []string{"repair", "readings.avro", "-"}, pipe: [][]string{{"count", "-"}}},
	{name: "repair-bad-record", args: []string{"repair", "badrecord.avro", "-"}, pipe: [][]string{{"tojson", "-"}}},
	{name: "tojson-bad-record", args: []string{"tojson", "badrecord.avro"}},
	{name: "validate-bad-record", args: []string{"validate", "badrecord.avro"}},
	{name: "repair-stdin", args: []string{"repair", "-", "-"}},
	{name: "repair-bad-mode", args: []string{"repair", "--mode", "some", "damaged.avro", "-"}},

	// schemas
	{name: "canonical", args: []string{"canonical", "readings.avsc"}},
	{name: "canonical-inline", args: []string{"canonical", `{"type":"fixed","name":"md5","namespace":"x","size":16,"doc":"d"}`}},
	{name: "canonical-stdin", stdin: `["null", {"type": "string"}]`, args: []string{"canonical", "-"}},
	{name: "fingerprint", args: []string{"fingerprint", "weather.avsc"}},
	{name: "fingerprint-md5", args: []string{"fingerprint", "--alg", "md5", "weather.avsc"}},
	{name: "fingerprint-sha256", args: []string{"fingerprint", "--alg", "sha256", "weather.avsc"}},
	{name: "fingerprint-bad-alg", args: []string{"fingerprint", "--alg", "crc32", "weather.avsc"}},
	{name: "compat", args: []string{"compat", "weather-v2.avsc", "weather.avsc"}},
	{name: "compat-full", args: []string{"compat", "--mode", "full", "weather-v2.avsc", "weather.avsc"}},
	{name: "compat-bad", args: []string{"compat", "--mode", "full-transitive", "weather-bad.avsc", "weather.avsc", "weather-v2.avsc"}},
	{name: "compat-bad-mode", args: []string{"compat", "--mode", "sideways", "weather.avsc", "weather.avsc"}},
	{name: "compat-one-schema", args: []string{"compat", "weather.avsc"}},

	// idl
	{name: "idl", args: []string{"idl", "weather.avdl"}},
	{name: "idl-schema", args: []string{"idl", "station.avdl", "-"}},
	{name: "idl-stdin", args: []string{"idl"}, stdin: "protocol P { fixed MD5(16); }"},
	{name: "idl-syntax-error", args: []string{"idl", "broken.avdl"}},
	{name: "idl-missing", args: []string{"idl", "missing.avdl"}},
	{name: "idl-too-many", args: []string{"idl", "a", "b", "c"}},
	{name: "idl2schemata", args: []string{"idl2schemata", "weather.avdl", "schemas"},
		pipe: [][]string{{"canonical", "schemas/Reading.avsc"}, {"canonical", "schemas/StationDown.avsc"}}},
	{name: "idl2schemata-no-args", args: []string{"idl2schemata"}},
}
