package schema

import (
	"strings"
	"unicode"
)

// primitiveKinds maps the primitive type names to their kinds. These names
// can be neither defined nor shadowed (spec "Names": "Primitive type names
// have no namespace and their names may not be defined in any namespace").
var primitiveKinds = map[string]Kind{
	"null": Null, "boolean": Boolean, "int": Int, "long": Long,
	"float": Float, "double": Double, "bytes": Bytes, "string": String,
}

// validName reports whether s is a valid name part, field name or enum
// symbol: [A-Za-z_][A-Za-z0-9_]* (spec "Names").
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
			continue
		}
		if i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

// validName is the package's validName, or with UnicodeNames Java's rule.
func (st *parseState) validName(s string) bool {
	if st.unicodeNames {
		return javaName(s, false)
	}
	return validName(s)
}

func (st *parseState) validNamespace(s string) bool {
	if st.unicodeNames {
		if s == "" {
			return true
		}
		for part := range strings.SplitSeq(s, ".") {
			if !javaName(part, true) {
				return false
			}
		}
		return true
	}
	return validNamespace(s)
}

// javaName reports whether s is a name as Java's parser takes it: a
// letter or underscore (or, in a namespace, a dollar sign) and then
// letters, digits, underscores, in any script.
func javaName(s string, namespace bool) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r == '_' || unicode.IsLetter(r) || namespace && r == '$' || i > 0 && unicode.IsDigit(r) {
			continue
		}
		return false
	}
	return true
}

// validNamespace reports whether s is "" or dot-separated components.
// A component follows the name rule, except that '$' is also accepted:
// schemas generated from Java classes name nested classes "Outer$Inner",
// and the Java and C++ reference parsers accept such namespaces (the C++
// suite has "a.b$" among its valid schemas). Type names themselves are
// held to the strict rule.
func validNamespace(s string) bool {
	if s == "" {
		return true
	}
	for part := range strings.SplitSeq(s, ".") {
		if part == "" {
			return false
		}
		for i := 0; i < len(part); i++ {
			c := part[i]
			if c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') {
				continue
			}
			if i > 0 && c >= '0' && c <= '9' {
				continue
			}
			return false
		}
	}
	return true
}

// splitFullName splits "a.b.C" into "a.b" and "C".
func splitFullName(full string) (namespace, name string) {
	if i := strings.LastIndexByte(full, '.'); i >= 0 {
		return full[:i], full[i+1:]
	}
	return "", full
}

// qualify returns the full name of name written in namespace ns: a dotted
// name is already full (spec N3, N4).
func qualify(name, ns string) string {
	if ns == "" || strings.IndexByte(name, '.') >= 0 {
		return name
	}
	return ns + "." + name
}
