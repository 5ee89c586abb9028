// Apache Avro (Java 1.8.2) side of the avrojson interop tests.
//   java JSONInterop IN OUT
// IN holds cases (see interop_test.go, all integers big-endian u32):
//   count, then per case: schema text, flags, count and JSON texts, count
//   and binary datums, each text or datum as its length and its bytes.
//   Flag 1 has the JSON decoder read the texts from a byte stream rather
//   than from a String.
// For each case OUT gets, for each JSON text, the binary datum that Java's
// JSON decoder reads from it, then, for each binary datum, the JSON text
// that Java's JSON encoder writes for it; each result as one status byte
// (0 ok, 1 error), the length and the bytes (the datum, text, or error).
import java.io.*;
import java.nio.ByteBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.*;

public class JSONInterop {
  // Keeps map entries in the order they are read: GenericDatumReader's
  // HashMap would reorder them, and Avro maps are unordered anyway, but
  // the test compares datums byte for byte.
  static class OrderedReader extends GenericDatumReader<Object> {
    OrderedReader(Schema s) { super(s); }
    @Override protected Object newMap(Object old, int size) { return new LinkedHashMap<Object, Object>(); }
  }

  static byte[] item(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }

  static void result(DataOutputStream out, byte[] ok, Exception err) throws IOException {
    if (err != null) {
      String msg = err.getClass().getName() + ": " + err.getMessage();
      ok = msg.getBytes(StandardCharsets.UTF_8);
    }
    out.writeByte(err == null ? 0 : 1);
    out.writeInt(ok.length);
    out.write(ok);
  }

  public static void main(String[] args) throws Exception {
    DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(args[0])));
    DataOutputStream out = new DataOutputStream(new BufferedOutputStream(new FileOutputStream(args[1])));
    // Reports text that is not UTF-8 rather than replacing it.
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
    int cases = in.readInt();
    for (int c = 0; c < cases; c++) {
      Schema s = new Schema.Parser().parse(new String(item(in), StandardCharsets.UTF_8));
      GenericDatumReader<Object> reader = new OrderedReader(s);
      GenericDatumWriter<Object> writer = new GenericDatumWriter<Object>(s);
      boolean stream = (in.readInt() & 1) != 0;
      int texts = in.readInt();
      for (int i = 0; i < texts; i++) {
        byte[] text = item(in);
        try {
          Decoder dec = stream
              ? DecoderFactory.get().jsonDecoder(s, new ByteArrayInputStream(text))
              : DecoderFactory.get().jsonDecoder(s, utf8.decode(ByteBuffer.wrap(text)).toString());
          Object datum = reader.read(null, dec);
          ByteArrayOutputStream bin = new ByteArrayOutputStream();
          BinaryEncoder enc = EncoderFactory.get().binaryEncoder(bin, null);
          writer.write(datum, enc);
          enc.flush();
          result(out, bin.toByteArray(), null);
        } catch (Exception e) {
          result(out, null, e);
        }
      }
      int datums = in.readInt();
      for (int i = 0; i < datums; i++) {
        byte[] data = item(in);
        try {
          BinaryDecoder dec = DecoderFactory.get().binaryDecoder(data, null);
          Object datum = reader.read(null, dec);
          if (!dec.isEnd()) throw new IOException("bytes after the datum");
          ByteArrayOutputStream text = new ByteArrayOutputStream();
          JsonEncoder enc = EncoderFactory.get().jsonEncoder(s, text);
          writer.write(datum, enc);
          enc.flush();
          result(out, text.toByteArray(), null);
        } catch (Exception e) {
          result(out, null, e);
        }
      }
    }
    out.close();
  }
}
