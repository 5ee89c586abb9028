import java.io.BufferedOutputStream;
import java.io.File;
import java.io.OutputStream;

import org.apache.avro.Schema;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

// ToJSON prints the records of a container file as JSON, one a line, as
// avro-tools tojson does: a DataFileReader and a JsonEncoder.
public class ToJSON {
  public static void main(String[] args) throws Exception {
    GenericDatumReader<Object> reader = new GenericDatumReader<>();
    try (DataFileReader<Object> in = new DataFileReader<>(new File(args[0]), reader)) {
      Schema schema = in.getSchema();
      OutputStream out = new BufferedOutputStream(System.out, 1 << 16);
      GenericDatumWriter<Object> writer = new GenericDatumWriter<>(schema);
      JsonEncoder enc = EncoderFactory.get().jsonEncoder(schema, out);
      Object datum = null;
      while (in.hasNext()) {
        datum = in.next(datum);
        writer.write(datum, enc);
      }
      enc.flush();
      out.flush();
    }
  }
}
