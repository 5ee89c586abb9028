"""Writes cases.json, the manifest of the hostile corpus run by
hostile_test.go (root package) and used as fuzzing seeds by the fuzz
targets. Edit the cases here, run `python3 gen_cases.py` in this folder,
and commit both files."""
import json, os
def zz(v):
    u = ((v << 1) ^ (v >> 63)) & 0xFFFFFFFFFFFFFFFF
    out = b''
    while u >= 0x80:
        out += bytes([(u & 0x7f) | 0x80]); u >>= 7
    return (out + bytes([u])).hex()
MinInt64 = -(1<<63); MaxInt64 = (1<<63)-1
D = ["struct","value","any","decoder","next","resolve","ocf","single"]
cases = []
def c(name, schema, inp, err, entries=D, **kw):
    if isinstance(inp, str): inp = [[inp, 1]]
    d = {"name": name, "schema": schema, "input": inp, "err": err, "entries": entries}
    d.update(kw); cases.append(d)
# --- block counts
for label, n in [("2^31", 1<<31), ("2^40", 1<<40), ("MaxInt64", MaxInt64)]:
    c("array count "+label, "array_long", zz(n), "limit", note="more items than MaxItems (2^30): refused before anything is read")
    c("array count "+label+" unlimited", "array_long", zz(n), "truncated", opts={"MaxItems": MaxInt64}, note="with no item limit, the bytes left bound the count")
    c("map count "+label, "map_string", zz(n), "limit")
    c("map count "+label+" unlimited", "map_string", zz(n)+"00", "truncated", opts={"MaxItems": MaxInt64})
c("array count MinInt64", "array_long", zz(MinInt64), "invalid")
c("map count MinInt64", "map_string", zz(MinInt64), "invalid")
c("array count -2^31 with size", "array_long", zz(-(1<<31))+zz(4), "limit")
c("array count -2^20 with size", "array_long", zz(-(1<<20))+zz(4)+"0000", "invalid", note="2^20 items cannot fit in the 4 bytes the block declares, whatever follows")
c("array negative block size", "array_long", zz(-1)+zz(-5)+"00", "invalid")
c("array block size MinInt64", "array_long", zz(-1)+zz(MinInt64)+"00", "invalid")
c("array count 2^20 in 5 bytes", "array_long", zz(1<<20)+"0202", "truncated")
c("array running sum overflows", "array_long", zz(1)+"02"+zz(MaxInt64), "limit", opts={"MaxItems": MaxInt64}, note="block 2 declares MaxInt64 after 1 item: the sum would overflow")
c("array running sum past MaxItems", "array_long", zz(3)+"020406"+zz((1<<30)-2), "limit")
c("map running sum overflows", "map_string", zz(1)+"0000"+zz(MaxInt64), "limit", opts={"MaxItems": MaxInt64})
c("nested array counts", "array_array_long", zz(2)+zz(1<<20)+"00", "truncated")
# --- lengths
for label, n in [("2^31", 1<<31), ("2^40", 1<<40), ("MaxInt64", MaxInt64)]:
    c("string length "+label, "string", zz(n)+"61", "limit" if n > (1<<30) else "truncated")
    c("bytes length "+label, "bytes", zz(n)+"61", "limit" if n > (1<<30) else "truncated")
c("string length 2^20", "string", zz(1<<20)+"6162", "truncated")
c("bytes length 2^20", "bytes", zz(1<<20)+"6162", "truncated")
c("string length -1", "string", zz(-1), "invalid")
c("string length MinInt64", "string", zz(MinInt64), "invalid")
c("bytes length -5", "bytes", zz(-5)+"0000", "invalid")
c("map key length -1", "map_string", zz(1)+zz(-1)+"0000", "invalid", path='[0]')
c("map key length 2^40", "map_string", zz(1)+zz(1<<40), "limit", path='[0]')
c("string in record length 2^30", "record", "02"+zz(1<<30)+"6162", "truncated", path="name")
# --- varints
c("overlong varint 11 bytes", "long", "ff"*10+"01", "invalid")
c("overlong varint 10th byte 0x7f", "long", "ff"*9+"7f", "invalid")
c("overlong int varint", "int", "ff"*5+"01", "invalid")
c("int varint beyond 32 bits", "int", "ffffffff1f", "invalid")
c("truncated varint", "long", "8080", "truncated")
c("truncated varint 9 bytes", "long", "ff"*9, "truncated")
c("truncated count varint", "array_long", "80", "truncated")
c("empty input", "long", "", "truncated", ocf_err="invalidblock", entries=["struct","value","any","next","resolve","ocf","single"])
# --- unions, enums, fixed, floats
c("union index out of range", "union", zz(2)+"00", "invalid")
c("union index 2^40", "union", zz(1<<40), "invalid")
c("union index negative", "union", zz(-1), "invalid")
c("union index MinInt64", "union", zz(MinInt64), "invalid")
c("enum index out of range", "enum", zz(3), "invalid")
c("enum index negative", "enum", zz(-1), "invalid")
c("enum index 2^40", "enum", zz(1<<40), "invalid")
c("enum without symbols", "enum_empty", zz(0), "invalid", entries=["struct","value","any","decoder","next","ocf","single"], note="found by FuzzParse: value.Value panicked on any index of an enum without symbols")
c("fixed runs past the input", "fixed4", "0102", "truncated", ocf_err="invalidblock", note="ocf: the block is refused as too short for one record before it is decoded")
c("fixed in array runs past", "array_fixed4", zz(3)+"01020304"+"0506", "truncated", path="", note="caught at the block count: 3 items of 4 bytes cannot fit in 6 bytes")
c("string in array runs past", "array_string", zz(3)+zz(1)+"61"+zz(5)+"6263", "truncated", path="[1]")
c("float cut short", "float", "0000c0", "truncated", ocf_err="invalidblock")
c("double cut short", "double", "000000000000f0", "truncated", ocf_err="invalidblock")
c("double in array cut short", "array_double", zz(2)+"00"*12, "truncated", path="", note="caught at the block count")
c("boolean byte 2", "record", "02"+"00"+"02", "invalid", path="ok")
# --- zero-size items
c("array<null> 2^30 items", "array_null", zz(1<<30)+"00", "limit", note="zero-size items draw from MaxZeroSizeItems (2^20)")
c("array<null> 2^20 items", "array_null", zz(1<<20)+"00", "limit", entries=["value","any","decoder","next","resolve","ocf","single"], note="within the zero-size budget, but 2^20 generic items exceed the allocation limit of a 4-byte input")
c("array<null> 2^20 items into []any", "array_null", zz(1<<20)+"00", "limit", entries=["struct"])
c("array<null> blocks of 2^19 repeated", "array_null", [[zz((1<<19)), 8], ["00", 1]], "limit")
c("array of empty records 2^30", "array_empty", zz(1<<30)+"00", "limit")
c("array of empty records blocks repeated", "array_empty", [[zz(-(1<<19))+"00", 8], ["00", 1]], "limit")
c("array of fixed(0) 2^30", "array_fixed0", zz(1<<30)+"00", "limit")
c("array of fixed(0) repeated blocks", "array_fixed0", [[zz(1<<19), 8], ["00",1]], "limit")
c("map<null> 2^20 empty keys", "map_null", [[zz(1<<20), 1], ["00", 1<<20], ["00", 1]], "", entries=["struct","value","any","decoder","next","resolve","ocf","single"], note="legitimate: a million empty keys (one distinct key); bounded by the bytes")
c("map<null> 2^24 empty keys declared, 2^20 present", "map_null", [[zz(1<<24), 1], ["00", 1<<20]], "truncated", entries=["struct","value","any","next","resolve","single"])
c("nested empty arrays", "array_array_null", [[zz(1<<18), 1], ["00", 1<<18], ["00",1]], "", note="2^18 empty inner arrays: one byte each")
# --- depth
c("recursive list 100000 levels", "list", [["0002", 100000], ["0000", 1]], "limit", note="a record through a nullable union: 2 bytes a level")
c("recursive tree 100000 levels", "tree", [["0002", 100000], ["0000", 1]], "limit", note="a record through an array: 2 bytes and 2 depth levels a step")
c("nested arrays 100000 levels", "deep_array", [["02", 100000], ["00", 100001]], "limit")
c("nested maps 100000 levels", "deep_map", [["020261", 100000], ["00", 100001]], "limit")
# --- strings
c("invalid UTF-8 passes by default", "string", zz(3)+"61fffe", "")
c("invalid UTF-8 with ValidateUTF8", "string", zz(3)+"61fffe", "invalid", opts={"ValidateUTF8": True})
c("invalid UTF-8 map key with ValidateUTF8", "map_string", zz(1)+zz(2)+"c328"+zz(0)+"00", "invalid", opts={"ValidateUTF8": True}, path='[0]')
c("overlong UTF-8 NUL with ValidateUTF8", "string", zz(2)+"c080", "invalid", opts={"ValidateUTF8": True})
c("surrogate in UTF-8 with ValidateUTF8", "string", zz(3)+"eda080", "invalid", opts={"ValidateUTF8": True})
# --- decimals
c("big-decimal scale 2^31-1", "big_decimal", zz(7)+zz(1)+"01"+zz((1<<31)-1), "limit", entries=["struct","any","single"], note="value.Value keeps the raw bytes: only the *big.Rat targets read the scale")
c("big-decimal scale -2^31", "big_decimal", zz(7)+zz(1)+"01"+zz(-(1<<31)), "limit", entries=["struct","any","single"], note="value.Value keeps the raw bytes: only the *big.Rat targets read the scale")
c("big-decimal payload overruns its length", "big_decimal", zz(2)+zz(4)+"01", "invalid", entries=["struct","any","single"], note="the payload is all there: a part past its end is invalid, not truncated")
c("decimal schema scale 10^9", "huge_scale_decimal", zz(1)+"01", "limit", entries=["struct","any","single"], note="value.Value keeps the raw bytes and is not affected; the schema declares scale 1e9: 10^scale is never computed")
c("decimal schema precision 2*10^9 small value", "huge_precision_decimal", zz(1)+"01", "", entries=["struct","any","value","decoder","next","ocf","single"], note="a precision of 2e9 costs nothing")
# --- trailing
c("trailing bytes", "long", "0200", "invalid", entries=["struct","value","any","resolve","single"])

containers = []
def k(name, inp, err, **kw):
    if isinstance(inp, str): inp = [[inp, 1]]
    d = {"name": name, "input": inp, "err": err}; d.update(kw); containers.append(d)
hdr = "4f626a01" + "02" + zz(11) + b"avro.schema".hex() + zz(6) + b'"long"'.hex() + "00" + "00"*16
k("bad magic Obj\\x02", "4f626a02", "badmagic")
k("bad magic XXXX", "58585858", "badmagic")
k("legacy magic Obj\\x00", "4f626a00", "legacy")
k("header cut in the magic", "4f62", "truncated")
k("metadata count 2^40", "4f626a01"+zz(1<<40), "toolarge")
k("metadata count MinInt64", "4f626a01"+zz(MinInt64), "invalidheader")
k("metadata key length 2^40", "4f626a01"+zz(1)+zz(1<<40), "toolarge")
k("metadata value length 2^62", "4f626a01"+zz(1)+zz(1)+"61"+zz(1<<62), "toolarge")
k("metadata key length -1", "4f626a01"+zz(1)+zz(-1), "invalidheader")
k("metadata block size -1", "4f626a01"+zz(-1)+zz(-1), "invalidheader")
k("metadata 2^20 entries declared, 3 present", "4f626a01"+zz(1<<20)+"026100"+"026200"+"026300", "truncated")
k("no avro.schema", "4f626a01"+"00"+"00"*16, "invalidheader")
k("block size -5", hdr+zz(1)+zz(-5), "invalidblock")
k("block size 2^40", hdr+zz(1)+zz(1<<40), "toolarge")
k("block size MaxInt64", hdr+zz(1)+zz(MaxInt64), "toolarge")
k("block count -1", hdr+zz(-1)+zz(1)+"00", "invalidblock")
k("block count 2^40 in 2 bytes", hdr+zz(1<<40)+zz(2)+"0000"+"00"*16, "invalidblock")
k("block count MaxInt64", hdr+zz(MaxInt64)+zz(2)+"0000"+"00"*16, "invalidblock")
k("block size past the input", hdr+zz(1)+zz(1<<20)+"00", "truncated")
k("wrong sync marker", hdr+zz(1)+zz(1)+"02"+"ff"*16, "sync")
k("block with bytes after its records", hdr+zz(1)+zz(2)+"0202"+"00"*16, "invalidblock")
k("zero-size records 2^40 in a block", "4f626a01"+"02"+zz(11)+b"avro.schema".hex()+zz(6)+b'"null"'.hex()+"00"+"00"*16+zz(1<<40)+"00"+"00"*16, "invalidblock")
k("overlong varint in a block header", hdr+"ff"*10+"01", "invalidblock")
k("avro-1237 bad union discriminant", "file:avro-1237-bad-union-discriminant.avro", "invalid", note="upstream: union index 4 of a 2-branch union")
k("avro-1238 truncated", "file:avro-1238-truncated.avro", "truncated", note="upstream: the file ends inside a sync marker")
k("deflate bomb 4 GiB", "gen:deflate-bomb", "toolarge", note="generated: 4 GiB of zeros in about 4 MB")
k("zstd bomb 4 GiB of RLE blocks", "gen:zstd-rle-bomb", "toolarge", note="generated: 32768 RLE blocks of 128 KiB")
k("zstd bomb declaring 16 GiB", "gen:zstd-fcs-bomb", "toolarge", note="generated: frame content size 16 GiB, single segment")
k("snappy block declaring 2^32-1 bytes", "gen:snappy-bomb", "toolarge")
k("snappy block declaring 2^32 bytes", "gen:snappy-bomb-4g", "corrupt", note="beyond what snappy can declare")
doc = {
 "comment": "Hostile inputs for every decoding entry point. Run by hostile_test.go. input: [hex, repeat] segments, or file:NAME in this folder, or gen:NAME (built by the test). err: the sentinel expected (\"\" = decodes). entries: struct, value, any, decoder (also with a one-byte reader), next (UnmarshalNext), resolve (through schema.Resolve(writer, reader) with the schema's reader), ocf (the datum as the only record of a container block), single (single-object encoding and the Kafka wire format). ocf_err: the error of the ocf entry when it differs (a block too short for one record is refused before it is decoded). path: the *avro.Error path expected. containers: whole container files, read by the ocf Reader with its default limits.",
 "cases": cases, "containers": containers}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.json"), "w") as out:
    out.write('{\n "comment": ' + json.dumps(doc["comment"]) + ',\n')
    for key in ("cases", "containers"):
        out.write(' "%s": [\n' % key)
        out.write(',\n'.join('  ' + json.dumps(c) for c in doc[key]))
        out.write('\n ]' + (',' if key == "cases" else '') + '\n')
    out.write('}\n')
print(len(cases), len(containers))
