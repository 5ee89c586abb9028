package idl

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestUpstreamCommentWarnings checks the warnings for the doc comments of
// comments.avdl that document nothing. Java's TestIdlReader expects 24, on
// these lines; its copy of the file is indented by two spaces where this
// one has four, so the columns here are those of this copy (the ones the
// compiler's TestIdl gives for the comments it reports).
func TestUpstreamCommentWarnings(t *testing.T) {
	f, err := ParseFile(filepath.Join(compilerIDL, "input", "comments.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{21, 10}, {21, 47}, {22, 9}, {23, 9}, {24, 9}, {25, 5}, {26, 5}, {27, 5}, {28, 5},
		{33, 5}, {34, 5}, {35, 5}, {36, 5}, {37, 5}, {42, 5}, {43, 5}, {46, 5}, {47, 5},
		{54, 5}, {55, 5}, {58, 5}, {59, 5}, {60, 5}, {61, 5}}
	var wantText []string
	for _, p := range want {
		wantText = append(wantText, fmt.Sprintf("Line %d, char %d: Ignoring out-of-place documentation comment.\n"+
			"Did you mean to use a multiline comment ( /* ... */ ) instead?", p[0], p[1]))
	}
	if got := strings.Join(f.Warnings(), "\n"); got != strings.Join(wantText, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", got, strings.Join(wantText, "\n"))
	}
}

// TestWarningsOfImports checks that an imported file's warnings name it,
// and that a used doc comment gives none.
func TestWarningsOfImports(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"main.avdl":       "/** The protocol. */ protocol P {\n  /** stray */ import idl \"sub/sub.avdl\";\n  /** stray */\n}",
		"sub/sub.avdl":    "protocol Q {\n  record /** stray */ R {}\n  /** used */ record S {}\n  import idl \"subsub.avdl\";\n}",
		"sub/subsub.avdl": "/** stray */ /** the doc */ protocol Q {}",
	})
	f, err := ParseFile(filepath.Join(dir, "main.avdl"))
	if err != nil {
		t.Fatal(err)
	}
	const ignoring = ": Ignoring out-of-place documentation comment.\nDid you mean to use a multiline comment ( /* ... */ ) instead?"
	want := []string{
		"sub/sub.avdl line 2, char 10" + ignoring,
		"sub/sub.avdl subsub.avdl line 1, char 1" + ignoring,
	}
	if got := f.Warnings(); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

// TestStripIndents checks the doc comment text Java keeps: stars and the
// shared indentation removed.
func TestStripIndents(t *testing.T) {
	tests := []struct{ in, want string }{
		{"single line", "single line"},
		{"* one\n   * two\n   *   three", "one\ntwo\n  three"},
		{"** one\n  ** two", "one\ntwo"},
		{"* one\n  two", "* one\ntwo"},
		{"first\n    second\n      third\n    fourth", "first\nsecond\n  third\nfourth"},
		{"first\n    second\n  third", "first\n  second\nthird"},
		{"first\nsecond", "first\nsecond"},
		{"first\n\u3000\u3000a\n\u3000b", "first\n\u3000a\nb"},
		{"first\n\u3000a\n\u2000b", "first\n\u3000a\n\u2000b"},
	}
	for _, tc := range tests {
		if got := stripIndents(tc.in); got != tc.want {
			t.Errorf("stripIndents(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
