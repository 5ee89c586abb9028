"""Writes java_blocking.json: datums encoded by Apache Avro Java 1.8.2
(libavro-java) with its BlockingBinaryEncoder, whose array and map blocks
carry their byte size, and with its plain BinaryEncoder, for
block_size_test.go. Each datum is field "a" of a record whose field "b"
follows it, so that readers can also skip "a". Run `python3 gen.py` in
this folder (it needs javac and /usr/share/java/avro.jar) and commit
both files."""
import json, os, subprocess, tempfile

P = {"type": "record", "name": "P", "fields": [{"name": "x", "type": "int"}, {"name": "s", "type": "string"}]}
cases = [
    # (name, block size in bytes, schema of "a", datum of "a")
    ("array of long", 64, {"type": "array", "items": "long"}, [1, 2, 300]),
    ("array of long, many blocks", 32, {"type": "array", "items": "long"}, list(range(-100, 400, 7))),
    ("array of int", 32, {"type": "array", "items": "int"}, list(range(0, 3000, 37))),
    ("array of double", 32, {"type": "array", "items": "double"}, [0.5 * i for i in range(20)]),
    ("array of float", 32, {"type": "array", "items": "float"}, [0.25 * i for i in range(20)]),
    ("array of boolean", 32, {"type": "array", "items": "boolean"}, [i % 3 == 0 for i in range(50)]),
    ("array of string", 64, {"type": "array", "items": "string"}, ["a" * 20, "b" * 32, "c" * 32, "d", ""]),
    ("array of bytes", 32, {"type": "array", "items": "bytes"}, ["\u0001\u0002", "", "\u00ff" * 30]),
    ("array of enum", 32, {"type": "array", "items": {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}}, ["A", "C", "B"] * 10),
    ("array of fixed", 32, {"type": "array", "items": {"type": "fixed", "name": "F", "size": 3}}, ["abc", "def"] * 10),
    ("array of records", 32, {"type": "array", "items": P}, [{"x": i, "s": "s" * i} for i in range(12)]),
    ("array of unions", 32, {"type": "array", "items": ["null", P]}, [None, {"P": {"x": 1, "s": "one"}}, None, {"P": {"x": 2, "s": ""}}] * 5),
    ("nested arrays", 32, {"type": "array", "items": {"type": "array", "items": "long"}}, [[1, 2], [], [3], list(range(40)), list(range(40, 45))]),
    ("map of long", 32, {"type": "map", "values": "long"}, {"k%d" % i: i * 1000 for i in range(20)}),
    ("map of string", 32, {"type": "map", "values": "string"}, {"k%d" % i: "v" * i for i in range(20)}),
    ("map of records", 32, {"type": "map", "values": P}, {"k%d" % i: {"x": i, "s": "p"} for i in range(10)}),
    ("map of maps", 32, {"type": "map", "values": {"type": "map", "values": "string"}}, {"m%d" % i: {"k%d" % j: "v" for j in range(i)} for i in range(8)}),
    ("map of arrays", 32, {"type": "map", "values": {"type": "array", "items": "int"}}, {"m%d" % i: list(range(i * 3)) for i in range(8)}),
    ("empty array", 32, {"type": "array", "items": "long"}, []),
]

here = os.path.dirname(os.path.abspath(__file__))
jars = ["avro", "jackson-core-asl", "jackson-mapper-asl", "paranamer", "snappy-java", "commons-compress", "xz", "slf4j-api", "slf4j-nop"]
cp = ":".join("/usr/share/java/%s.jar" % j for j in jars)
lines, schemas = [], []
for name, size, a, datum in cases:
    s = {"type": "record", "name": "R", "fields": [{"name": "a", "type": a}, {"name": "b", "type": "string"}]}
    schemas.append(s)
    lines.append("%d\t%s\t%s" % (size, json.dumps(s), json.dumps({"a": datum, "b": "end"})))
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run(["javac", "-nowarn", "-cp", cp, "-d", tmp, os.path.join(here, "BlockSizes.java")], check=True)
    out = subprocess.run(["java", "-cp", cp + ":" + tmp, "BlockSizes"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.split("\n")
vectors = []
for (name, size, a, datum), s, line in zip(cases, schemas, out):
    sized, plain = line.split("\t")
    vectors.append({"name": name, "schema": s, "sized": sized, "plain": plain})
with open(os.path.join(here, "java_blocking.json"), "w") as f:
    comment = ("Datums of records {a, b}, encoded by Apache Avro Java 1.8.2 with its BlockingBinaryEncoder "
               "(sized: array and map blocks with byte sizes) and its BinaryEncoder (plain). Written by gen.py.")
    f.write('{\n "comment": ' + json.dumps(comment) + ',\n "vectors": [\n')
    f.write(",\n".join("  " + json.dumps(v) for v in vectors))
    f.write("\n ]\n}\n")
print(len(vectors))
