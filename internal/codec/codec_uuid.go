package codec

// UUID logical type.
//
// uuid on string holds the RFC 4122 text form, 8-4-4-4-12 hexadecimal
// digits. It maps to a Go string (encoding checks the text, decoding keeps it), or to any
// array type of 16 bytes (such as [16]byte or a user's type UUID
// [16]byte): encoding writes lowercase text, decoding accepts either case
// and fails with ErrInvalid on anything else (braces, "urn:uuid:",
// missing hyphens, ...).
//
// uuid on fixed(16) holds the 16 bytes. It maps to a 16-byte array as a
// plain fixed, or to a Go string holding the text form: decoding formats
// it lowercase, encoding parses it (ErrRange when the string is not a
// UUID).

const uuidLen = 36

// uuidBad is the value of a non-hex character in uuidHexVal.
const uuidBad = 0xff

var uuidHexVal = func() (t [256]byte) {
	for i := range t {
		t[i] = uuidBad
	}
	for i := byte(0); i < 10; i++ {
		t['0'+i] = i
	}
	for i := byte(0); i < 6; i++ {
		t['a'+i] = 10 + i
		t['A'+i] = 10 + i
	}
	return t
}()

// uuidGroups are the offsets in the text of the 16 byte pairs.
var uuidGroups = [16]uint8{0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34}

// parseUUID parses the RFC 4122 text form, in either case.
func parseUUID[T string | []byte](s T) (u [16]byte, ok bool) {
	if len(s) != uuidLen || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return u, false
	}
	for i, off := range uuidGroups {
		hi, lo := uuidHexVal[s[off]], uuidHexVal[s[off+1]]
		if hi == uuidBad || lo == uuidBad {
			return u, false
		}
		u[i] = hi<<4 | lo
	}
	return u, true
}

// appendUUID appends the lowercase text form of u.
func appendUUID(dst []byte, u *[16]byte) []byte {
	const hex = "0123456789abcdef"
	var b [uuidLen]byte
	for i, off := range uuidGroups {
		b[off], b[off+1] = hex[u[i]>>4], hex[u[i]&0xf]
	}
	b[8], b[13], b[18], b[23] = '-', '-', '-', '-'
	return append(dst, b[:]...)
}

// uuidTextCodec maps uuid on string to a 16-byte array.
type uuidTextCodec struct{}

func (uuidTextCodec) decode(p pointer, d *decodeState) {
	text := d.ReadStringBytes()
	if d.Err != nil {
		return
	}
	u, ok := parseUUID(text)
	if !ok {
		d.Failf(ErrInvalid, "%q is not a UUID", truncateText(text))
		return
	}
	*as[[16]byte](p) = u
}

func (uuidTextCodec) encode(p pointer, e *encodeState) {
	e.WriteLong(uuidLen)
	e.Buf = appendUUID(e.Buf, as[[16]byte](p))
}

// uuidFixedStringCodec maps uuid on fixed(16) to a Go string of text.
type uuidFixedStringCodec struct{}

func (uuidFixedStringCodec) decode(p pointer, d *decodeState) {
	if s, ok := decodeUUIDFixedText(d); ok {
		*as[string](p) = s
	}
}

func decodeUUIDFixedText(d *decodeState) (string, bool) {
	raw := d.ReadRaw(16)
	if d.Err != nil || !d.Reserve(uuidLen) {
		return "", false
	}
	var buf [uuidLen]byte
	return string(appendUUID(buf[:0], (*[16]byte)(raw))), true
}

func (uuidFixedStringCodec) encode(p pointer, e *encodeState) {
	encodeUUIDFixedText(*as[string](p), e)
}

func encodeUUIDFixedText(s string, e *encodeState) {
	u, ok := parseUUID(s)
	if !ok {
		e.Failf(ErrRange, "%q is not a UUID", truncateText(s))
		return
	}
	e.Buf = append(e.Buf, u[:]...)
}

// truncateText shortens text quoted in an error message.
func truncateText[T string | []byte](s T) string {
	const maxLen = 64
	if len(s) > maxLen {
		return string(s[:maxLen]) + "..."
	}
	return string(s)
}
