// Apache Avro (Java 1.8.2) side of the avro command's interop tests.
//   java CmdInterop tojson FILE      each record as a line of JsonEncoder's JSON,
//                                    what avro-tools tojson prints
//   java CmdInterop schemas FILE...  per file a line: the Parsing Canonical Form
//                                    TAB parsingFingerprint64 as 16 hex digits,
//                                    or "error" TAB the parser's message
import java.io.*;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

public class CmdInterop {
  public static void main(String[] args) throws Exception {
    PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
    if (args[0].equals("tojson")) {
      DataFileReader<Object> r = new DataFileReader<>(new File(args[1]), new GenericDatumReader<>());
      Schema s = r.getSchema();
      GenericDatumWriter<Object> w = new GenericDatumWriter<>(s);
      for (Object x : r) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        JsonEncoder enc = EncoderFactory.get().jsonEncoder(s, b);
        w.write(x, enc);
        enc.flush();
        out.println(new String(b.toByteArray(), StandardCharsets.UTF_8));
      }
    } else {
      for (int i = 1; i < args.length; i++) {
        try {
          Schema s = new Schema.Parser().parse(new File(args[i]));
          out.println(SchemaNormalization.toParsingForm(s) + "\t"
              + String.format("%016x", SchemaNormalization.parsingFingerprint64(s)));
        } catch (Exception e) {
          out.println("error\t" + e.toString().replace('\n', ' ').replace('\t', ' '));
        }
      }
    }
    out.flush();
  }
}
