// Command avro reads, writes and checks Avro container files, schemas and
// Schema Registry subjects, as Apache's avro-tools does, in one binary
// without a JVM:
//
//	avro tojson data.avro                 # records as JSON Lines
//	avro fromjson --schema user.avsc users.jsonl users.avro
//	avro count data.avro                  # records and blocks, no decoding
//	avro compat new.avsc old.avsc         # exit 1 with every reason
//	avro registry --url http://sr:8081 subjects
//
// Install it with
//
//	go install github.com/avrogo/avro/cmd/avro@latest
//
// Run "avro help" for the list of commands and "avro help COMMAND" for one
// command's flags. A schema argument is a file path, "-" for standard
// input, or the schema's JSON itself; "-" for a file reads standard input
// or writes standard output.
//
// Exit status: 0 on success, 1 when the data is bad or schemas are not
// compatible (the error, with the file and byte offset, goes to standard
// error), 2 for a wrong use of the command (its usage is printed).
package main

import (
	"context"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, newSystemEnv(), os.Args[1:])
	stop()
	os.Exit(code)
}
