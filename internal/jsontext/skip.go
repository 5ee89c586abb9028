package jsontext

// Skip reads one value of any type and discards it, nesting at most depth
// levels of arrays and objects and taking numbers of at most maxNumber
// bytes (more is a Limit error). It keeps its own stack of open
// containers, so hostile nesting cannot overflow the goroutine stack.
func (r *Reader) Skip(depth, maxNumber int) {
	var s Skipper
	var closers [32]byte
	s.Init(closers[:0])
	s.Resume(r, depth, maxNumber)
}

// A Skipper skips one value over input that may arrive in pieces: when
// the input ends inside the value (a Truncated error), the caller appends
// more to Buf and calls Resume again, which goes on from the last point
// it knew the state of, the start of the innermost value or member it was
// reading or the part of a string it had scanned, rather than from the
// value's start. Reading a value in k pieces so costs its length, not k
// times it.
type Skipper struct {
	closers []byte // the closing bytes of the open containers, innermost last
	phase   uint8
	at      int // where Resume goes on: the state there is phase and closers
	// A string at offset strAt was scanned up to strFrom without an end;
	// strEsc says whether it had escapes.
	strAt, strFrom int
	strEsc         bool
	started        bool
	scanned        int // bytes of strings scanned, which the tests check
}

const (
	skipValue       = iota // a value
	skipFirstItem          // after '[': ']' or the first item
	skipFirstMember        // after '{': '}' or the first member
	skipMember             // a member's key
	skipColon              // after a member's key
	skipAfter              // after a value: ',' or the end of its container
)

// Init readies s for a new value, keeping the stack of open containers in
// buf's memory while it fits.
func (s *Skipper) Init(buf []byte) { *s = Skipper{closers: buf[:0]} }

// Resume skips the value that starts at r.Pos on the first call, and on a
// later one goes on where the last stopped (r.Pos is ignored). r.Pos is
// then the end of the value. Offsets are in r.Buf: a caller that moves
// the buffer's text calls Shift.
func (s *Skipper) Resume(r *Reader, depth, maxNumber int) {
	if s.started {
		r.Pos = s.at
		r.Fault, r.ErrMsg, r.ErrPos = NoFault, "", 0
	}
	s.started = true
	for !r.Failed() {
		s.at = r.Pos
		switch s.phase {
		case skipAfter:
			n := len(s.closers)
			if n == 0 {
				return
			}
			end := s.closers[n-1]
			switch {
			case r.More(end):
				s.phase = skipValue
				if end == '}' {
					s.phase = skipMember
				}
			case !r.Failed():
				s.closers = s.closers[:n-1]
			}
			continue
		case skipFirstItem:
			if r.Empty(']') {
				s.closers = s.closers[:len(s.closers)-1]
				s.phase = skipAfter
				continue
			}
		case skipFirstMember:
			if r.Empty('}') {
				s.closers = s.closers[:len(s.closers)-1]
				s.phase = skipAfter
				continue
			}
			fallthrough
		case skipMember:
			if s.str(r) {
				s.phase = skipColon
			}
			continue
		case skipColon:
			if r.Expect(':') {
				s.phase = skipValue
			}
			continue
		}
		s.value(r, depth, maxNumber)
	}
}

// Shift moves the Skipper's offsets by delta, for text moved in the
// buffer by that much.
func (s *Skipper) Shift(delta int) {
	s.at += delta
	s.strAt += delta
	s.strFrom += delta
}

// value reads a value, or opens the container it starts.
func (s *Skipper) value(r *Reader, depth, maxNumber int) {
	switch c := r.Peek(); c {
	case '{', '[':
		if len(s.closers) >= depth {
			r.Fail(Limit, r.Pos, "JSON nested deeper than the limit")
			return
		}
		r.Pos++
		if c == '{' {
			s.closers = append(s.closers, '}')
			s.phase = skipFirstMember
		} else {
			s.closers = append(s.closers, ']')
			s.phase = skipFirstItem
		}
		return
	case '"':
		if s.str(r) {
			s.phase = skipAfter
		}
		return
	case 't':
		r.word("true")
	case 'f':
		r.word("false")
	case 'n':
		r.word("null")
	case 'N':
		r.word("NaN")
	case 'I':
		r.word("Infinity")
	default:
		if r.Pos+1 < len(r.Buf) && r.Buf[r.Pos] == '-' && r.Buf[r.Pos+1] == 'I' {
			r.word("-Infinity")
			break
		}
		r.ReadNumber(maxNumber)
	}
	if r.Pos == len(r.Buf) && len(s.closers) > 0 && !r.Failed() {
		// Its digits or letters may go on, which would make it another
		// number or no word; its container is not closed anyway.
		r.Fail(Truncated, len(r.Buf), "unexpected end of JSON input")
	}
	if !r.Failed() {
		s.phase = skipAfter
	}
}

// str reads a string and checks its escapes, as Unquote would decode
// them, without decoding it; a string the input ends inside is scanned
// once, however many pieces it comes in. Its loop is ReadString's, which
// keeps its own: a call per string there would cost every decode.
func (s *Skipper) str(r *Reader) bool {
	if r.Peek() != '"' {
		r.unexpected("string")
		return false
	}
	start := r.Pos
	from, escaped := start+1, false
	if s.strAt == start && s.strFrom > from {
		from, escaped = s.strFrom, s.strEsc
	}
	buf := r.Buf
	i := from
	for i < len(buf) {
		if n := plainRun(buf, i); n > 0 {
			i += n
			if i >= len(buf) {
				break
			}
		}
		c := buf[i]
		if safe[c] {
			i++
			continue
		}
		switch c {
		case '"':
			s.scanned += i - from
			r.Pos = i + 1
			s.strAt, s.strFrom = 0, 0
			return !escaped || checkEscapes(r, buf[start+1:i], start+1)
		case '\\':
			if i+1 >= len(buf) {
				// Resume at the backslash: its escape is not read yet.
				s.scanned += i - from
				s.strAt, s.strFrom, s.strEsc = start, i, escaped
				r.Fail(Truncated, len(buf), "unexpected end of JSON input in string")
				return false
			}
			escaped = true
			i += 2 // the escaped byte cannot end the string
		default:
			r.Fail(Invalid, i, "invalid control character "+quoteByte(c)+" in string")
			return false
		}
	}
	s.scanned += i - from
	s.strAt, s.strFrom, s.strEsc = start, min(i, len(buf)), escaped
	r.Fail(Truncated, len(buf), "unexpected end of JSON input in string")
	return false
}

// checkEscapes checks the escapes of raw, the text of a string at offset
// start.
func checkEscapes(r *Reader, raw []byte, start int) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		switch raw[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if _, ok := hex4(raw[i+1:]); !ok {
				r.Fail(Invalid, start+i-1, "invalid \\u escape in string")
				return false
			}
			i += 4
		default:
			r.Fail(Invalid, start+i-1, "invalid escape in string")
			return false
		}
	}
	return true
}

// word reads the literal w. Input that ends inside it is Truncated, so
// that a reader of a stream reads on.
func (r *Reader) word(w string) {
	if !r.ReadWord(w) {
		r.unexpected("value")
	}
}
