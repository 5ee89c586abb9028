"""Apache Avro (Python) side of the ocf interop tests.

  interop.py read FILE                 print {"codec","meta","records"} as JSON
  interop.py write FILE CODEC N        write N generated records (gen below)

Bytes are printed as {"$bytes_hex": ...}; unions are unwrapped.
"""
import json
import sys

import avro.datafile
import avro.io
import avro.schema


def conv(x):
    if isinstance(x, bytes):
        return {"$bytes_hex": x.hex()}
    if isinstance(x, dict):
        return {k: conv(v) for k, v in x.items()}
    if isinstance(x, list):
        return [conv(v) for v in x]
    return x


def gen(i):
    # Keep in step with toolRecord in interop_test.go.
    return {
        "id": i,
        "ts": 1700000000000 + i * 7919,
        "name": "name-%d" % i,
        "score": i * 1.5 - 7.25,
        "active": i % 2 == 0,
        "values": [i, -i, i * 1000, (1 << 40) + i, -(1 << 50), 0],
        "tags": {"a": str(i), "b": "x" * (i % 5)},
        "note": None if i % 3 == 0 else "note-%d" % i,
        "raw": bytes([(i * j) & 255 for j in range(16)]),
        "inner": {"x": -i, "label": "L%d" % i},
    }


def main():
    if sys.argv[1] == "read":
        with open(sys.argv[2], "rb") as f:
            r = avro.datafile.DataFileReader(f, avro.io.DatumReader())
            recs = [conv(x) for x in r]
            meta = {k: v.decode("latin-1") for k, v in r.meta.items() if k != "avro.schema"}
            print(json.dumps({"codec": r.codec, "meta": meta, "records": recs}))
    elif sys.argv[1] == "write":
        path, codec, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
        schema = avro.schema.parse(open(sys.argv[5]).read())
        with open(path, "wb") as f:
            w = avro.datafile.DataFileWriter(f, avro.io.DatumWriter(), schema, codec=codec)
            w.set_meta("user.key", b"from-python")
            for i in range(n):
                w.append(gen(i))
                if i % 50 == 49:
                    w.sync()  # several blocks
            w.close()


main()
