package gen

import (
	"strings"
	"unicode"
)

// initialisms are the words Go writes in one case (Effective Go; the list
// golint used), so that a field "user_id" becomes UserID, not UserId.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true,
	"EOF": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IP": true, "JSON": true, "LHS": true, "MD5": true, "QPS": true, "RAM": true,
	"RHS": true, "RPC": true, "SHA": true, "SLA": true, "SMTP": true, "SQL": true,
	"SSH": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true, "UI": true,
	"UID": true, "UUID": true, "URI": true, "URL": true, "UTF8": true, "VM": true,
	"XML": true, "XMPP": true, "XSRF": true, "XSS": true,
}

// words splits an Avro name into words: at every character that is not a
// letter or digit (underscores, dollar signs, dots), where a lower-case letter or digit meets an upper-case one, and
// before the last capital of a run of capitals that a lower-case letter
// follows ("HTTPServer" is HTTP, Server).
func words(name string) []string {
	var out []string
	rs := []rune(name)
	start := 0
	flush := func(end int) {
		if end > start {
			out = append(out, string(rs[start:end]))
		}
		start = end
	}
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush(i)
			start = i + 1
		case i > start && unicode.IsUpper(r):
			prev := rs[i-1]
			if unicode.IsLower(prev) || unicode.IsDigit(prev) {
				flush(i)
			} else if unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]) {
				flush(i)
			}
		}
	}
	flush(len(rs))
	return out
}

// exported returns the exported Go identifier for an Avro name: its words
// capitalised, initialisms in upper case ("user_id" is UserID, "SPADES"
// is Spades, "httpURL" is HTTPURL). A name with no letters to start it
// gets an X in front.
func exported(name string) string { return exportedWith(name, nil) }

// exportedWith is exported with more initialisms.
func exportedWith(name string, extra map[string]bool) string {
	var b strings.Builder
	for _, w := range words(name) {
		up := strings.ToUpper(w)
		letters := strings.TrimRight(up, "0123456789")
		if initialisms[up] || extra[up] || initialisms[letters] || extra[letters] {
			b.WriteString(up)
			continue
		}
		rs := []rune(w)
		b.WriteRune(unicode.ToUpper(rs[0]))
		rest := string(rs[1:])
		if isUpper(w) {
			rest = strings.ToLower(rest)
		}
		b.WriteString(rest)
	}
	s := b.String()
	// An identifier is exported when it starts with an upper-case
	// letter; a letter of a script without case (文字列) does not.
	if s == "" || !unicode.IsUpper([]rune(s)[0]) {
		s = "X" + s
	}
	return s
}

func isUpper(s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
	}
	return true
}

// tagName returns an Avro field name in one of the styles of the -tags
// flag.
func tagName(name, style string) string {
	ws := words(name)
	lower := make([]string, len(ws))
	for i, w := range ws {
		lower[i] = strings.ToLower(w)
	}
	switch style {
	case "snake":
		return strings.Join(lower, "_")
	case "kebab":
		return strings.Join(lower, "-")
	case "camel", "upper-camel":
		var b strings.Builder
		for i, w := range lower {
			if i == 0 && style == "camel" {
				b.WriteString(w)
				continue
			}
			rs := []rune(w)
			b.WriteRune(unicode.ToUpper(rs[0]))
			b.WriteString(string(rs[1:]))
		}
		return b.String()
	}
	return name
}

// namer hands out Go identifiers of one scope, each once: a name already
// taken gets the smallest suffix 2, 3, ... that is free.
type namer struct {
	taken map[string]bool
}

func newNamer(reserved ...string) *namer {
	n := &namer{taken: map[string]bool{}}
	for _, r := range reserved {
		n.taken[r] = true
	}
	return n
}

// take returns want, or want with a number after it when want is taken.
func (n *namer) take(want string) string {
	name := want
	for i := 2; n.taken[name]; i++ {
		name = want + itoa(i)
	}
	n.taken[name] = true
	return name
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
