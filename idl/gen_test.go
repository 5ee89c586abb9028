package idl

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// genIDL prints a random protocol in IDL, using only what Java 1.8.2 reads:
// every type is declared before it is used, and there are no enum
// defaults, "type?", imports or uuid and local_timestamp_ms keywords.
func genIDL(rng *rand.Rand, n int) string {
	var b strings.Builder
	var named []string // declared types, usable as field types
	var errs []string
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	doc := func(indent string) {
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "%s/** Doc %d\n%s * on two lines. */\n", indent, rng.IntN(100), indent)
		}
	}
	fmt.Fprintf(&b, "/** Protocol %d. */\n@namespace(\"gen.p%d\")\n", n, n)
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "@version(\"%d.0\")\n", rng.IntN(5))
	}
	fmt.Fprintf(&b, "protocol P%d {\n", n)
	var typ func(depth int) (string, string) // a type and a valid default ("" for none)
	typ = func(depth int) (string, string) {
		switch k := rng.IntN(12); {
		case k < 5 || depth > 2:
			switch rng.IntN(9) {
			case 0:
				return "int", fmt.Sprint(rng.IntN(1000) - 500)
			case 1:
				return "long", fmt.Sprint(rng.Int64N(1 << 40))
			case 2:
				return "string", fmt.Sprintf("%q", pick("", "a", "héllo", "x y"))
			case 3:
				return "boolean", pick("true", "false")
			case 4:
				return "double", pick("1.5", "-2.25", "0", "1e3")
			case 5:
				return "float", "0.5"
			case 6:
				return "bytes", `"\u00ff"`
			case 7:
				return pick("date", "time_ms", "timestamp_ms"), "0"
			default:
				return fmt.Sprintf("decimal(%d,%d)", 5+rng.IntN(10), rng.IntN(5)), ""
			}
		case k < 7 && len(named) > 0:
			return named[rng.IntN(len(named))], ""
		case k < 8:
			t, _ := typ(depth + 1)
			return "array<" + t + ">", "[]"
		case k < 9:
			t, _ := typ(depth + 1)
			return "map<" + t + ">", ""
		case k < 10:
			t, _ := typ(depth + 1)
			if strings.HasPrefix(t, "union") {
				t = "string"
			}
			return "union { null, " + t + " }", "null"
		default:
			if rng.IntN(2) == 0 {
				return fmt.Sprintf("@p%d(\"v\") string", rng.IntN(3)), ""
			}
			return "@java-class(\"java.util.ArrayList\") array<int>", ""
		}
	}
	fields := func(indent string) {
		nf := rng.IntN(5)
		for i := 0; i < nf; i++ {
			doc(indent)
			t, def := typ(0)
			name := fmt.Sprintf("f%d", i)
			if rng.IntN(6) == 0 {
				name = pick("`record`", "`error`", "`enum`", "`union`")
				name = strings.Replace(name, "`", "`", 1)
				name = fmt.Sprintf("%s%d", strings.TrimSuffix(name, "`"), i) + "`"
			}
			ann := ""
			switch rng.IntN(5) {
			case 0:
				ann = `@order("descending") `
			case 1:
				ann = fmt.Sprintf(`@aliases(["old%d"]) `, i)
			case 2:
				ann = `@fprop({"k": [1, 2.5, "s", null]}) `
			}
			fmt.Fprintf(&b, "%s%s %s%s", indent, t, ann, name)
			if def != "" && rng.IntN(2) == 0 {
				fmt.Fprintf(&b, " = %s", def)
			}
			b.WriteString(";\n")
		}
	}
	nt := 1 + rng.IntN(6)
	for i := 0; i < nt; i++ {
		doc("  ")
		ns := ""
		if rng.IntN(4) == 0 {
			ns = fmt.Sprintf("gen.other%d", rng.IntN(2))
			fmt.Fprintf(&b, "  @namespace(%q)\n", ns)
		}
		if rng.IntN(4) == 0 {
			fmt.Fprintf(&b, "  @aliases([\"Old%d\"])\n", i)
		}
		// Full names, since a short one is resolved in the namespace of the
		// record that uses it.
		full := func(name string) string {
			if ns == "" {
				return fmt.Sprintf("gen.p%d.%s", n, name)
			}
			return ns + "." + name
		}
		switch rng.IntN(4) {
		case 0:
			fmt.Fprintf(&b, "  enum E%d { A, B, C }\n", i)
			named = append(named, full(fmt.Sprintf("E%d", i)))
		case 1:
			fmt.Fprintf(&b, "  fixed F%d(%d);\n", i, 1+rng.IntN(16))
			named = append(named, full(fmt.Sprintf("F%d", i)))
		case 2:
			fmt.Fprintf(&b, "  error X%d {\n", i)
			fields("    ")
			b.WriteString("  }\n")
			errs = append(errs, full(fmt.Sprintf("X%d", i)))
		default:
			fmt.Fprintf(&b, "  record R%d {\n", i)
			fields("    ")
			b.WriteString("  }\n")
			named = append(named, full(fmt.Sprintf("R%d", i)))
		}
	}
	nm := rng.IntN(4)
	for i := 0; i < nm; i++ {
		doc("  ")
		if rng.IntN(4) == 0 {
			fmt.Fprintf(&b, "  @mprop(%d)\n", i)
			fmt.Fprintf(&b, "  int m%d(", i) // Java refuses properties on a message returning a named type
		} else if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, "  void m%d(", i)
		} else {
			t, _ := typ(0)
			fmt.Fprintf(&b, "  %s m%d(", t, i)
		}
		np := rng.IntN(3)
		for j := 0; j < np; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			t, def := typ(1)
			fmt.Fprintf(&b, "%s a%d", t, j)
			if def != "" && rng.IntN(3) == 0 {
				fmt.Fprintf(&b, " = %s", def)
			}
		}
		b.WriteString(")")
		if len(errs) > 0 && rng.IntN(2) == 0 {
			b.WriteString(" throws " + strings.Join(errs, ", "))
		}
		b.WriteString(";\n")
	}
	b.WriteString("}\n")
	return b.String()
}
