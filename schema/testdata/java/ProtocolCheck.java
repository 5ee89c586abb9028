import java.io.File;
import org.apache.avro.Protocol;

// Parses each protocol file named on the command line with Java's
// Protocol.parse and prints, for each, a line: "ok" and the protocol's
// JSON, or "error" and the message.
public class ProtocolCheck {
  public static void main(String[] args) throws Exception {
    for (String path : args) {
      try {
        Protocol p = Protocol.parse(new File(path));
        System.out.println("ok\t" + p.toString().replace("\n", " "));
      } catch (Exception e) {
        System.out.println("error\t" + String.valueOf(e.getMessage()).replace("\n", " "));
      }
    }
  }
}
