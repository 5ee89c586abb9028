import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.Encoder;
import org.apache.avro.io.EncoderFactory;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;

// Encodes datums twice with Apache Avro Java: with the BlockingBinaryEncoder,
// which gives array and map blocks their byte size (and splits long
// collections into blocks of about the configured size), and with the plain
// BinaryEncoder. Input: lines of "blockSize<TAB>schema<TAB>JSON datum";
// output: a line "sizedHex<TAB>plainHex" for each.
public class BlockSizes {
  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    for (String line; (line = in.readLine()) != null;) {
      String[] parts = line.split("\t", 3);
      Schema s = new Schema.Parser().parse(parts[1]);
      Object datum = new GenericDatumReader<Object>(s).read(null, DecoderFactory.get().jsonDecoder(s, parts[2]));
      EncoderFactory blocking = new EncoderFactory().configureBlockSize(Integer.parseInt(parts[0]));
      System.out.println(encode(s, datum, blocking, true) + "\t" + encode(s, datum, EncoderFactory.get(), false));
    }
  }

  static String encode(Schema s, Object datum, EncoderFactory f, boolean blocking) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Encoder e = blocking ? f.blockingBinaryEncoder(out, null) : f.binaryEncoder(out, null);
    new GenericDatumWriter<Object>(s).write(datum, e);
    e.flush();
    StringBuilder sb = new StringBuilder();
    for (byte b : out.toByteArray()) sb.append(String.format("%02x", b));
    return sb.toString();
  }
}
