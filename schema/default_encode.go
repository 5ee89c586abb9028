package schema

// EncodeDefault checks a default value, given as JSON text, against s
// exactly as Parse checks a record field's default of type s, within the
// default limits of ParseOptions, and returns its Avro binary encoding.
// Errors are *Error values, as Parse returns.
func (s *Schema) EncodeDefault(jsonText string) ([]byte, error) {
	v, nests, err := decodeJSON(jsonText)
	if err != nil {
		return nil, err
	}
	var o ParseOptions
	st := &parseState{
		paths:    make([]path, 0, min(nests.nests+2, maxSlabChunk)),
		maxSteps: o.maxDefaultSteps(len(jsonText)), maxDefSize: o.maxDefaultSize(len(jsonText)),
	}
	_, _, enc, err := st.defaultValue(s, v, make([]byte, 0, 8), st.key(nil, ""))
	if err != nil {
		return nil, err
	}
	if int64(len(enc))+st.values > st.maxDefSize {
		return nil, st.tooLarge(st.key(nil, ""))
	}
	return enc[:len(enc):len(enc)], nil
}
