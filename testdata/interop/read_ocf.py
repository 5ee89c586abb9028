#!/usr/bin/python3
"""Apache Avro Python side of the SchemaOf interop test.

  read_ocf.py FILE...

For each container file, reads every record with DataFileReader and
writes it back with the file's schema and BinaryEncoder. Prints a JSON
array with, per file, {"hex": [one hex string per record]} or
{"error": "..."}.
"""

import io
import json
import sys
import warnings

import avro.datafile
import avro.io
import avro.schema

# Unknown logical types (big-decimal, local-timestamp-*) are read as their
# underlying type; Python warns about them, which is not interesting here.
warnings.simplefilter("ignore")

out = []
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as f:
            reader = avro.datafile.DataFileReader(f, avro.io.DatumReader())
            schema = avro.schema.parse(reader.meta["avro.schema"].decode())
            writer = avro.io.DatumWriter(schema)
            hexes = []
            for record in reader:
                buf = io.BytesIO()
                writer.write(record, avro.io.BinaryEncoder(buf))
                hexes.append(buf.getvalue().hex())
        out.append({"hex": hexes})
    except Exception as e:  # reported to the Go test, which fails
        out.append({"error": "%s: %s" % (type(e).__name__, e)})
json.dump(out, sys.stdout)
