package gen

import "testing"

func TestExported(t *testing.T) {
	for in, want := range map[string]string{
		"user_id":    "UserID",
		"userId":     "UserID",
		"SPADES":     "Spades",
		"FOO_BAR":    "FooBar",
		"httpURL":    "HTTPURL",
		"HTTPServer": "HTTPServer",
		"url":        "URL",
		"md5":        "MD5",
		"type":       "Type",
		"_private":   "Private",
		"_":          "X",
		"a1b":        "A1b",
		"field2Name": "Field2Name",
		"Ünïcode":    "Ünïcode",
		"x$y":        "XY",
		"UUID16":     "UUID16",
		"文字列":        "X文字列",
		"строка":     "Строка",
		"sha256":     "SHA256",
		"ids":        "Ids",
	} {
		if got := exported(in); got != want {
			t.Errorf("exported(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestTagName(t *testing.T) {
	for _, c := range []struct{ in, style, want string }{
		{"userId", "snake", "user_id"},
		{"user_id", "camel", "userId"},
		{"user_id", "upper-camel", "UserId"},
		{"UserID", "kebab", "user-id"},
		{"User_ID", "original", "User_ID"},
	} {
		if got := tagName(c.in, c.style); got != c.want {
			t.Errorf("tagName(%q, %q) = %q; want %q", c.in, c.style, got, c.want)
		}
	}
}

func TestNamerSuffixes(t *testing.T) {
	n := newNamer("Schema")
	for _, want := range []string{"Schema2", "Schema3", "A", "A2"} {
		in := want[:len(want)-1]
		if want == "A" {
			in = "A"
		}
		if got := n.take(in); got != want {
			t.Errorf("take(%q) = %q; want %q", in, got, want)
		}
	}
}
