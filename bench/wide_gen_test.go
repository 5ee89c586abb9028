// The wide record (52 fields), written out once by a script; edit by hand.

package bench

// wideSchema is a record of 52 fields: long, int, string, double, boolean
// and ["null","string"] in turn.
const wideSchema = `{"type":"record","name":"Wide","namespace":"bench","fields":[
{"name":"f00","type":"long"},
{"name":"f01","type":"int"},
{"name":"f02","type":"string"},
{"name":"f03","type":"double"},
{"name":"f04","type":"boolean"},
{"name":"f05","type":["null","string"],"default":null},
{"name":"f06","type":"long"},
{"name":"f07","type":"int"},
{"name":"f08","type":"string"},
{"name":"f09","type":"double"},
{"name":"f10","type":"boolean"},
{"name":"f11","type":["null","string"],"default":null},
{"name":"f12","type":"long"},
{"name":"f13","type":"int"},
{"name":"f14","type":"string"},
{"name":"f15","type":"double"},
{"name":"f16","type":"boolean"},
{"name":"f17","type":["null","string"],"default":null},
{"name":"f18","type":"long"},
{"name":"f19","type":"int"},
{"name":"f20","type":"string"},
{"name":"f21","type":"double"},
{"name":"f22","type":"boolean"},
{"name":"f23","type":["null","string"],"default":null},
{"name":"f24","type":"long"},
{"name":"f25","type":"int"},
{"name":"f26","type":"string"},
{"name":"f27","type":"double"},
{"name":"f28","type":"boolean"},
{"name":"f29","type":["null","string"],"default":null},
{"name":"f30","type":"long"},
{"name":"f31","type":"int"},
{"name":"f32","type":"string"},
{"name":"f33","type":"double"},
{"name":"f34","type":"boolean"},
{"name":"f35","type":["null","string"],"default":null},
{"name":"f36","type":"long"},
{"name":"f37","type":"int"},
{"name":"f38","type":"string"},
{"name":"f39","type":"double"},
{"name":"f40","type":"boolean"},
{"name":"f41","type":["null","string"],"default":null},
{"name":"f42","type":"long"},
{"name":"f43","type":"int"},
{"name":"f44","type":"string"},
{"name":"f45","type":"double"},
{"name":"f46","type":"boolean"},
{"name":"f47","type":["null","string"],"default":null},
{"name":"f48","type":"long"},
{"name":"f49","type":"int"},
{"name":"f50","type":"string"},
{"name":"f51","type":"double"}
]}`

// Wide is the Go form of wideSchema.
type Wide struct {
	F00 int64   `avro:"f00"`
	F01 int32   `avro:"f01"`
	F02 string  `avro:"f02"`
	F03 float64 `avro:"f03"`
	F04 bool    `avro:"f04"`
	F05 *string `avro:"f05"`
	F06 int64   `avro:"f06"`
	F07 int32   `avro:"f07"`
	F08 string  `avro:"f08"`
	F09 float64 `avro:"f09"`
	F10 bool    `avro:"f10"`
	F11 *string `avro:"f11"`
	F12 int64   `avro:"f12"`
	F13 int32   `avro:"f13"`
	F14 string  `avro:"f14"`
	F15 float64 `avro:"f15"`
	F16 bool    `avro:"f16"`
	F17 *string `avro:"f17"`
	F18 int64   `avro:"f18"`
	F19 int32   `avro:"f19"`
	F20 string  `avro:"f20"`
	F21 float64 `avro:"f21"`
	F22 bool    `avro:"f22"`
	F23 *string `avro:"f23"`
	F24 int64   `avro:"f24"`
	F25 int32   `avro:"f25"`
	F26 string  `avro:"f26"`
	F27 float64 `avro:"f27"`
	F28 bool    `avro:"f28"`
	F29 *string `avro:"f29"`
	F30 int64   `avro:"f30"`
	F31 int32   `avro:"f31"`
	F32 string  `avro:"f32"`
	F33 float64 `avro:"f33"`
	F34 bool    `avro:"f34"`
	F35 *string `avro:"f35"`
	F36 int64   `avro:"f36"`
	F37 int32   `avro:"f37"`
	F38 string  `avro:"f38"`
	F39 float64 `avro:"f39"`
	F40 bool    `avro:"f40"`
	F41 *string `avro:"f41"`
	F42 int64   `avro:"f42"`
	F43 int32   `avro:"f43"`
	F44 string  `avro:"f44"`
	F45 float64 `avro:"f45"`
	F46 bool    `avro:"f46"`
	F47 *string `avro:"f47"`
	F48 int64   `avro:"f48"`
	F49 int32   `avro:"f49"`
	F50 string  `avro:"f50"`
	F51 float64 `avro:"f51"`
}
