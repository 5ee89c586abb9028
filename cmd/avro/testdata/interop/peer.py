"""Apache Avro (Python) side of the avro command's interop tests.

  peer.py read FILE                print each record as JSON, one a line
  peer.py write FILE CODEC SCHEMA  write the JSON Lines of stdin as records

Records are in the peers' JSON model: unions unwrapped, bytes and fixed as
{"$bytes_hex": H}, a non-finite float or -0 as {"$float": "nan"}, and the logical
types Python converts as {"$decimal": "1.50"}, {"$date": DAYS},
{"$time_us": N} and {"$timestamp_us": N}.
"""
import datetime
import decimal
import json
import math
import sys

import avro.datafile
import avro.io
import avro.schema

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
DAY0 = datetime.date(1970, 1, 1)
US = datetime.timedelta(microseconds=1)


def out(x):
    if isinstance(x, bytes):
        return {"$bytes_hex": x.hex()}
    if isinstance(x, decimal.Decimal):
        return {"$decimal": str(x)}
    if isinstance(x, datetime.datetime):  # before date: a datetime is a date
        return {"$timestamp_us": (x - EPOCH) // US}
    if isinstance(x, datetime.date):
        return {"$date": (x - DAY0).days}
    if isinstance(x, datetime.time):
        return {"$time_us": ((x.hour * 60 + x.minute) * 60 + x.second) * 10**6 + x.microsecond}
    if isinstance(x, float) and (not math.isfinite(x) or x == 0 and math.copysign(1, x) < 0):
        return {"$float": str(x)}
    if isinstance(x, dict):
        return {k: out(v) for k, v in x.items()}
    if isinstance(x, list):
        return [out(v) for v in x]
    return x


def inp(x):
    if isinstance(x, dict):
        if "$bytes_hex" in x:
            return bytes.fromhex(x["$bytes_hex"])
        if "$float" in x:
            return float(x["$float"])
        if "$decimal" in x:
            return decimal.Decimal(x["$decimal"])
        if "$date" in x:
            return DAY0 + datetime.timedelta(days=x["$date"])
        if "$time_us" in x:
            return (datetime.datetime.min + US * x["$time_us"]).time()
        if "$timestamp_us" in x:
            return EPOCH + US * x["$timestamp_us"]
        return {k: inp(v) for k, v in x.items()}
    if isinstance(x, list):
        return [inp(v) for v in x]
    return x


if sys.argv[1] == "read":
    with open(sys.argv[2], "rb") as f:
        for rec in avro.datafile.DataFileReader(f, avro.io.DatumReader()):
            print(json.dumps(out(rec)))
else:
    path, codec = sys.argv[2], sys.argv[3]
    schema = avro.schema.parse(open(sys.argv[4]).read())
    with open(path, "wb") as f:
        w = avro.datafile.DataFileWriter(f, avro.io.DatumWriter(), schema, codec=codec)
        for i, line in enumerate(sys.stdin):
            w.append(inp(json.loads(line)))
            if i % 25 == 24:
                w.sync()  # several blocks
        w.close()
