package idl

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tString
	tInt
	tFloat
	tPunct
)

// token is one lexical token. For an identifier, text is the raw text
// (backticks included) and val the text without backticks; for a string, val
// is the unescaped value; for a number, text is the literal.
type token struct {
	kind      tokKind
	text, val string
	line, col int
	// doc is the text of the documentation comment right before the token,
	// when there is one: Java attaches a doc comment to the construct whose
	// first token follows it.
	doc    string
	hasDoc bool
	// docs are all the doc comments between the previous token and this
	// one; those Java does not use give warnings.
	docs []docComment
}

type docComment struct {
	line, col int
}

func (t *token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tString:
		return "string " + t.text
	default:
		return strconv.Quote(t.text)
	}
}

type lexer struct {
	file      string
	src       string
	pos       int
	line, col int
}

func (lx *lexer) errAt(line, col int, format string, args ...any) *Error {
	return newError(lx.file, line, col, format, args...)
}

func (lx *lexer) peekRune(off int) rune {
	p := lx.pos
	for i := 0; i < off && p < len(lx.src); i++ {
		_, n := utf8.DecodeRuneInString(lx.src[p:])
		p += n
	}
	if p >= len(lx.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(lx.src[p:])
	return r
}

func (lx *lexer) advance() rune {
	r, n := utf8.DecodeRuneInString(lx.src[lx.pos:])
	lx.pos += n
	if r == '\n' {
		lx.line++
		lx.col = 1
	} else {
		lx.col++
	}
	return r
}

func isIdentStart(r rune) bool {
	return unicode.IsLetter(r) || unicode.Is(unicode.Nl, r)
}

func isIdentPart(r rune) bool {
	return isIdentStart(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) ||
		unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)
}

// tokenize splits src into tokens, the last one tEOF.
func tokenize(file, src string, maxTokens int) ([]token, error) {
	lx := &lexer{file: file, src: src, line: 1, col: 1}
	var toks []token
	var doc string
	hasDoc := false
	var docs []docComment
	for {
		if len(toks) >= maxTokens {
			return nil, &Error{File: file, Line: lx.line, Column: lx.col, Msg: "too many tokens", Err: ErrLimit}
		}
		// Skip blanks and comments, remembering the last doc comment.
		for lx.pos < len(lx.src) {
			c := lx.src[lx.pos]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
				lx.advance()
				continue
			}
			if strings.HasPrefix(lx.src[lx.pos:], "//") {
				for lx.pos < len(lx.src) && lx.src[lx.pos] != '\n' && lx.src[lx.pos] != '\r' {
					lx.advance()
				}
				continue
			}
			if strings.HasPrefix(lx.src[lx.pos:], "/*") {
				line, col := lx.line, lx.col
				// A doc comment is "/**" then the shortest text up to "*/";
				// "/**/" is an empty plain comment.
				isDoc := strings.HasPrefix(lx.src[lx.pos:], "/**") && !strings.HasPrefix(lx.src[lx.pos:], "/**/")
				from := lx.pos + 2
				if isDoc {
					from++
				}
				end := strings.Index(lx.src[from:], "*/")
				if end < 0 {
					return nil, lx.errAt(line, col, "unterminated comment")
				}
				if isDoc {
					doc, hasDoc = lx.src[from:from+end], true
					docs = append(docs, docComment{line, col})
				}
				for stop := from + end + 2; lx.pos < stop; {
					lx.advance()
				}
				continue
			}
			break
		}
		tok := token{line: lx.line, col: lx.col, doc: doc, hasDoc: hasDoc, docs: docs}
		doc, hasDoc, docs = "", false, nil
		if lx.pos >= len(lx.src) || lx.src[lx.pos] == 0x1a {
			tok.kind = tEOF
			toks = append(toks, tok)
			return toks, nil
		}
		start := lx.pos
		r := lx.peekRune(0)
		switch {
		case r == '"':
			val, err := lx.lexString()
			if err != nil {
				return nil, err
			}
			tok.kind, tok.val = tString, val
		case r == '`' || isIdentStart(r):
			if err := lx.lexIdent(); err != nil {
				return nil, err
			}
			tok.kind = tIdent
		case r >= '0' && r <= '9' || r == '.' && isDigit(lx.peekRune(1)) ||
			(r == '-' || r == '+') && (isDigit(lx.peekRune(1)) || lx.peekRune(1) == '.' ||
				strings.HasPrefix(lx.src[lx.pos+1:], "NaN") || strings.HasPrefix(lx.src[lx.pos+1:], "Infinity")):
			kind, err := lx.lexNumber()
			if err != nil {
				return nil, err
			}
			tok.kind = kind
		case strings.HasPrefix(lx.src[lx.pos:], "NaN") || strings.HasPrefix(lx.src[lx.pos:], "Infinity"):
			kind, err := lx.lexNumber()
			if err != nil {
				return nil, err
			}
			tok.kind = kind
		case strings.ContainsRune("(){}[]:;,@=.-?<>", r):
			lx.advance()
			tok.kind = tPunct
		default:
			return nil, lx.errAt(tok.line, tok.col, "unexpected character %q", r)
		}
		tok.text = lx.src[start:lx.pos]
		if tok.kind == tIdent {
			tok.val = strings.ReplaceAll(tok.text, "`", "")
			if tok.text == "NaN" || tok.text == "Infinity" {
				tok.kind = tFloat // the literal rule comes first in Java's grammar
			}
		}
		toks = append(toks, tok)
	}
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func (lx *lexer) lexIdent() error {
	for {
		line, col := lx.line, lx.col
		if lx.peekRune(0) == '`' {
			lx.advance()
			if !isIdentStart(lx.peekRune(0)) {
				return lx.errAt(line, col, "expected an identifier after '`'")
			}
			for isIdentPart(lx.peekRune(0)) {
				lx.advance()
			}
			if lx.peekRune(0) != '`' {
				return lx.errAt(line, col, "expected '`' to close the identifier")
			}
			lx.advance()
		} else {
			for isIdentPart(lx.peekRune(0)) {
				lx.advance()
			}
		}
		r, next := lx.peekRune(0), lx.peekRune(1)
		if (r == '.' || r == '-') && (next == '`' || isIdentStart(next)) {
			lx.advance()
			continue
		}
		return nil
	}
}

func (lx *lexer) lexNumber() (tokKind, error) {
	line, col := lx.line, lx.col
	start := lx.pos
	if r := lx.peekRune(0); r == '-' || r == '+' {
		lx.advance()
	}
	rest := lx.src[lx.pos:]
	for _, w := range []string{"NaN", "Infinity"} {
		if strings.HasPrefix(rest, w) {
			for range w {
				lx.advance()
			}
			return tFloat, nil
		}
	}
	isFloat := false
	if strings.HasPrefix(rest, "0x") || strings.HasPrefix(rest, "0X") {
		lx.advance()
		lx.advance()
		for isHex(lx.peekRune(0)) || lx.peekRune(0) == '.' {
			if lx.advance() == '.' {
				isFloat = true
			}
		}
		if r := lx.peekRune(0); r == 'p' || r == 'P' {
			isFloat = true
			lx.advance()
			lx.lexExponentDigits()
		}
	} else {
		for isDigit(lx.peekRune(0)) || lx.peekRune(0) == '.' {
			if lx.advance() == '.' {
				isFloat = true
			}
		}
		if r := lx.peekRune(0); r == 'e' || r == 'E' {
			isFloat = true
			lx.advance()
			lx.lexExponentDigits()
		}
	}
	if r := lx.peekRune(0); r == 'f' || r == 'F' || r == 'd' || r == 'D' {
		isFloat = true
		lx.advance()
	} else if !isFloat && (r == 'l' || r == 'L') {
		lx.advance()
	}
	text := lx.src[start:lx.pos]
	if isIdentPart(lx.peekRune(0)) {
		return 0, lx.errAt(line, col, "malformed number %q", text+string(lx.peekRune(0)))
	}
	if isFloat {
		if _, ok := parseJavaDouble(text); !ok {
			return 0, lx.errAt(line, col, "malformed number %q", text)
		}
		return tFloat, nil
	}
	if _, ok := parseJavaLong(text); !ok {
		return 0, lx.errAt(line, col, "malformed or too large integer %q", text)
	}
	return tInt, nil
}

func (lx *lexer) lexExponentDigits() {
	if r := lx.peekRune(0); r == '+' || r == '-' {
		lx.advance()
	}
	for isDigit(lx.peekRune(0)) {
		lx.advance()
	}
}

func isHex(r rune) bool {
	return isDigit(r) || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

// lexString reads a string literal, unescaping it as Java's
// StringEscapeUtils.unescapeJava does.
func (lx *lexer) lexString() (string, error) {
	line, col := lx.line, lx.col
	lx.advance()
	var b strings.Builder
	for {
		if lx.pos >= len(lx.src) {
			return "", lx.errAt(line, col, "unterminated string")
		}
		r := lx.advance()
		switch r {
		case '"':
			return b.String(), nil
		case '\n', '\r', '\b', '\f', '\t':
			return "", lx.errAt(line, col, "unterminated string (control character in it)")
		case '\\':
			e := lx.peekRune(0)
			switch e {
			case 'n', 'r', 'b', 'f', 't', '\\', '\'', '"':
				lx.advance()
				b.WriteByte(map[rune]byte{'n': '\n', 'r': '\r', 'b': '\b', 'f': '\f', 't': '\t', '\\': '\\', '\'': '\'', '"': '"'}[e])
			case 'u':
				lx.advance()
				for lx.peekRune(0) == 'u' {
					lx.advance()
				}
				if lx.pos+4 > len(lx.src) {
					return "", lx.errAt(lx.line, lx.col, "malformed \\u escape")
				}
				v, err := strconv.ParseUint(lx.src[lx.pos:lx.pos+4], 16, 16)
				if err != nil {
					return "", lx.errAt(lx.line, lx.col, "malformed \\u escape")
				}
				for range 4 {
					lx.advance()
				}
				r := rune(v)
				if utf16.IsSurrogate(r) && strings.HasPrefix(lx.src[lx.pos:], "\\u") && lx.pos+6 <= len(lx.src) {
					// Java strings are UTF-16: a pair of escapes is one
					// character.
					if lo, err := strconv.ParseUint(lx.src[lx.pos+2:lx.pos+6], 16, 16); err == nil {
						if c := utf16.DecodeRune(r, rune(lo)); c != utf8.RuneError {
							for range 6 {
								lx.advance()
							}
							r = c
						}
					}
				}
				b.WriteRune(r)
			default:
				if e >= '0' && e <= '7' {
					v := 0
					n := 0
					maxDigits := 2
					if e <= '3' {
						maxDigits = 3
					}
					for n < maxDigits && lx.peekRune(0) >= '0' && lx.peekRune(0) <= '7' {
						v = v*8 + int(lx.advance()-'0')
						n++
					}
					b.WriteRune(rune(v))
				} else {
					return "", lx.errAt(lx.line, lx.col, "invalid escape '\\%c'", e)
				}
			}
		default:
			b.WriteRune(r)
		}
	}
}

// parseJavaLong parses an integer literal as Java's Long.decode does after
// the IDL drops a trailing 'l' or 'L': decimal, 0x hexadecimal or 0 octal.
func parseJavaLong(text string) (int64, bool) {
	t := strings.TrimRight(text, "lL")
	neg := false
	if strings.HasPrefix(t, "-") {
		neg, t = true, t[1:]
	}
	base := 10
	switch {
	case strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X"):
		base, t = 16, t[2:]
	case len(t) > 1 && t[0] == '0':
		base, t = 8, t[1:]
	}
	if neg {
		t = "-" + t
	}
	v, err := strconv.ParseInt(t, base, 64)
	return v, err == nil
}

// parseJavaDouble parses a floating point literal as Double.parseDouble.
func parseJavaDouble(text string) (float64, bool) {
	t := strings.TrimRight(text, "fFdD")
	if strings.HasSuffix(t, "NaN") || strings.HasSuffix(t, "Infinity") {
		t = text
	}
	if strings.Contains(t, "0x") || strings.Contains(t, "0X") {
		if !strings.ContainsAny(t, "pP") {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return v, true
		}
		return 0, false
	}
	return v, true
}
