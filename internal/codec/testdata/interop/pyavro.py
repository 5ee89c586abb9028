#!/usr/bin/python3
"""Reference encoder/decoder for the Go interop tests (Apache Avro Python).

Run with Debian's interpreter, /usr/bin/python3, which has python3-avro.

Commands are JSON objects:

  {"op": "encode", "schema": <schema JSON>, "datum": <tagged JSON>}
      -> {"hex": "<avro.io.BinaryEncoder output as hex>"}
  {"op": "decode", "schema": <schema JSON>, "hex": "<hex>"}
      -> {"datum": <tagged JSON>}

A failing command gives {"error": "<message>"} and the others still run.

Either pass one command as argv (pyavro.py encode SCHEMA DATUM, pyavro.py
decode SCHEMA HEX, where SCHEMA and DATUM are JSON text) and get one result
object on stdout, or write a JSON array of commands on stdin and get a JSON
array of results on stdout, in the same order.

Values that JSON cannot hold are tagged objects, in both directions:

  {"$bytes_hex": "00ff"}                  bytes and fixed
  {"$decimal": "-3.1415"}                 decimal.Decimal
  {"$date": "2000-01-01"}                 datetime.date
  {"$time": "23:59:59.999000"}            datetime.time
  {"$datetime": "2000-01-18T02:02:01.100000+10:00"}  datetime.datetime
  {"$double": "NaN" | "Infinity" | "-Infinity"}      non-finite floats
"""

import datetime
import decimal
import io
import json
import math
import sys
import warnings

import avro.io
import avro.schema

# Unknown logical types (local-timestamp-*) are read as their underlying
# type; Python warns about them, which is not interesting here.
warnings.simplefilter("ignore")


def from_json(x):
    """Tagged JSON (already parsed) -> the Python datum avro.io expects."""
    if isinstance(x, list):
        return [from_json(v) for v in x]
    if isinstance(x, dict):
        if len(x) == 1:
            (k, v), = x.items()
            if k == "$bytes_hex":
                return bytes.fromhex(v)
            if k == "$decimal":
                return decimal.Decimal(v)
            if k == "$date":
                return datetime.date.fromisoformat(v)
            if k == "$time":
                return datetime.time.fromisoformat(v)
            if k == "$datetime":
                return datetime.datetime.fromisoformat(v)
            if k == "$double":
                return float({"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}[v])
        return {k: from_json(v) for k, v in x.items()}
    return x


def to_json(x):
    """Python datum as avro.io returns it -> tagged JSON."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        if math.isnan(x):
            return {"$double": "NaN"}
        if math.isinf(x):
            return {"$double": "Infinity" if x > 0 else "-Infinity"}
        return x
    if isinstance(x, (bytes, bytearray)):
        return {"$bytes_hex": bytes(x).hex()}
    if isinstance(x, decimal.Decimal):
        return {"$decimal": str(x)}
    # datetime is a subclass of date: test it first.
    if isinstance(x, datetime.datetime):
        return {"$datetime": x.isoformat()}
    if isinstance(x, datetime.date):
        return {"$date": x.isoformat()}
    if isinstance(x, datetime.time):
        return {"$time": x.isoformat()}
    if isinstance(x, list):
        return [to_json(v) for v in x]
    if isinstance(x, dict):
        return {k: to_json(v) for k, v in x.items()}
    raise TypeError(f"cannot represent {type(x).__name__} {x!r}")


def parse_schema(s):
    # s is parsed JSON (a primitive type name arrives as a Python str).
    return avro.schema.parse(json.dumps(s))


def run(cmd):
    try:
        sch = parse_schema(cmd["schema"])
        if cmd["op"] == "encode":
            buf = io.BytesIO()
            avro.io.DatumWriter(sch).write(from_json(cmd["datum"]), avro.io.BinaryEncoder(buf))
            return {"hex": buf.getvalue().hex()}
        if cmd["op"] == "decode":
            data = bytes.fromhex(cmd["hex"])
            buf = io.BytesIO(data)
            datum = avro.io.DatumReader(sch).read(avro.io.BinaryDecoder(buf))
            if buf.tell() != len(data):
                return {"error": f"{len(data) - buf.tell()} bytes left after the datum"}
            return {"datum": to_json(datum)}
        return {"error": f"unknown op {cmd['op']!r}"}
    except Exception as e:  # reported to the Go test, which fails
        return {"error": f"{type(e).__name__}: {e}"}


def main():
    if len(sys.argv) > 1:
        if len(sys.argv) != 4 or sys.argv[1] not in ("encode", "decode"):
            sys.exit("usage: pyavro.py encode SCHEMA DATUM | decode SCHEMA HEX | (JSON array of commands on stdin)")
        cmd = {"op": sys.argv[1], "schema": json.loads(sys.argv[2])}
        if sys.argv[1] == "encode":
            cmd["datum"] = json.loads(sys.argv[3])
        else:
            cmd["hex"] = sys.argv[3]
        json.dump(run(cmd), sys.stdout, allow_nan=False)
    else:
        cmds = json.load(sys.stdin)
        json.dump([run(c) for c in cmds], sys.stdout, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
