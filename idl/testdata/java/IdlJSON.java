import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import org.apache.avro.Protocol;
import org.apache.avro.compiler.idl.Idl;

// Prints the protocol of each IDL file given as Java's Idl reads it, one
// JSON text per line, or "ERROR <message>". The first argument is the
// directory searched for imports after the importing file's, as the
// classpath.
public class IdlJSON {
  public static void main(String[] args) throws Exception {
    ClassLoader cp = new URLClassLoader(new URL[] {new File(args[0]).toURI().toURL()});
    for (int i = 1; i < args.length; i++) {
      try {
        Idl idl = new Idl(new File(args[i]), cp);
        Protocol p = idl.CompilationUnit();
        System.out.println(p.toString(false));
      } catch (Throwable e) {
        System.out.println("ERROR " + String.valueOf(e).replace('\n', ' '));
      }
    }
  }
}
