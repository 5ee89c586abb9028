// Apache Avro (Java 1.8.2) side of the ocf interop tests.
//   java Interop read FILE              print {"codec","meta","records"} as JSON
//   java Interop write FILE CODEC N SCHEMA   write N generated records
//   java Interop splits FILE START END...   for each split, as Hadoop's
//       AvroRecordReader reads it: "START END RECORDS FIRST-ID" (-1: none)
import java.io.File;
import java.nio.ByteBuffer;
import java.util.*;
import org.apache.avro.Schema;
import org.apache.avro.file.*;
import org.apache.avro.generic.*;

public class Interop {
  static void json(StringBuilder b, Object x) {
    if (x == null) { b.append("null"); }
    else if (x instanceof Boolean || x instanceof Integer || x instanceof Long) { b.append(x); }
    else if (x instanceof Float || x instanceof Double) { b.append(x.toString()); }
    else if (x instanceof ByteBuffer) {
      ByteBuffer bb = ((ByteBuffer) x).duplicate();
      byte[] a = new byte[bb.remaining()]; bb.get(a); hex(b, a);
    }
    else if (x instanceof GenericFixed) { hex(b, ((GenericFixed) x).bytes()); }
    else if (x instanceof CharSequence || x instanceof GenericEnumSymbol) { str(b, x.toString()); }
    else if (x instanceof List) {
      b.append('['); boolean first = true;
      for (Object e : (List<?>) x) { if (!first) b.append(','); first = false; json(b, e); }
      b.append(']');
    }
    else if (x instanceof Map) {
      b.append('{'); boolean first = true;
      for (Map.Entry<?, ?> e : ((Map<?, ?>) x).entrySet()) {
        if (!first) b.append(','); first = false;
        str(b, e.getKey().toString()); b.append(':'); json(b, e.getValue());
      }
      b.append('}');
    }
    else if (x instanceof GenericRecord) {
      GenericRecord r = (GenericRecord) x; b.append('{'); boolean first = true;
      for (Schema.Field f : r.getSchema().getFields()) {
        if (!first) b.append(','); first = false;
        str(b, f.name()); b.append(':'); json(b, r.get(f.name()));
      }
      b.append('}');
    }
    else { throw new RuntimeException("unexpected " + x.getClass()); }
  }
  static void hex(StringBuilder b, byte[] a) {
    b.append("{\"$bytes_hex\":\"");
    for (byte v : a) b.append(String.format("%02x", v & 0xff));
    b.append("\"}");
  }
  static void str(StringBuilder b, String s) {
    b.append('"');
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    b.append('"');
  }

  // Keep in step with toolRecord in interop_test.go.
  static GenericRecord gen(Schema s, int i) {
    GenericRecord r = new GenericData.Record(s);
    r.put("id", i);
    r.put("ts", 1700000000000L + i * 7919L);
    r.put("name", "name-" + i);
    r.put("score", i * 1.5 - 7.25);
    r.put("active", i % 2 == 0);
    r.put("values", Arrays.asList((long) i, (long) -i, i * 1000L, (1L << 40) + i, -(1L << 50), 0L));
    Map<String, String> tags = new HashMap<>();
    tags.put("a", Integer.toString(i));
    StringBuilder xs = new StringBuilder();
    for (int k = 0; k < i % 5; k++) xs.append('x');
    tags.put("b", xs.toString());
    r.put("tags", tags);
    r.put("note", i % 3 == 0 ? null : "note-" + i);
    byte[] raw = new byte[16];
    for (int j = 0; j < 16; j++) raw[j] = (byte) ((i * j) & 255);
    r.put("raw", ByteBuffer.wrap(raw));
    GenericRecord inner = new GenericData.Record(s.getField("inner").schema());
    inner.put("x", -i);
    inner.put("label", "L" + i);
    r.put("inner", inner);
    return r;
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("read")) {
      DataFileReader<Object> r = new DataFileReader<>(new File(args[1]), new GenericDatumReader<>());
      StringBuilder b = new StringBuilder("{\"codec\":");
      String codec = r.getMetaString("avro.codec");
      str(b, codec == null ? "null" : codec);
      b.append(",\"meta\":{");
      boolean first = true;
      for (String k : r.getMetaKeys()) {
        if (k.equals("avro.schema")) continue;
        if (!first) b.append(','); first = false;
        str(b, k); b.append(':'); str(b, new String(r.getMeta(k), "ISO-8859-1"));
      }
      b.append("},\"records\":[");
      first = true;
      for (Object x : r) { if (!first) b.append(','); first = false; json(b, x); }
      b.append("]}");
      System.out.println(b);
    } else if (args[0].equals("splits")) {
      DataFileReader<GenericRecord> r = new DataFileReader<>(new File(args[1]), new GenericDatumReader<GenericRecord>());
      for (int i = 2; i + 1 < args.length; i += 2) {
        long start = Long.parseLong(args[i]), end = Long.parseLong(args[i + 1]);
        r.sync(start);
        int n = 0, first = -1;
        while (r.hasNext() && !r.pastSync(end)) {
          GenericRecord x = r.next();
          if (n++ == 0) first = (Integer) x.get("id");
        }
        System.out.println(start + " " + end + " " + n + " " + first);
      }
    } else {
      Schema s = new Schema.Parser().parse(new File(args[4]));
      DataFileWriter<GenericRecord> w = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(s));
      String codec = args[2];
      if (codec.equals("deflate")) w.setCodec(CodecFactory.deflateCodec(6));
      else if (codec.equals("snappy")) w.setCodec(CodecFactory.snappyCodec());
      else if (codec.equals("bzip2")) w.setCodec(CodecFactory.bzip2Codec());
      else if (codec.equals("xz")) w.setCodec(CodecFactory.xzCodec(6));
      w.setMeta("user.key", "from-java");
      w.create(s, new File(args[1]));
      int n = Integer.parseInt(args[3]);
      for (int i = 0; i < n; i++) { w.append(gen(s, i)); if (i % 50 == 49) w.sync(); }
      w.close();
    }
  }
}
