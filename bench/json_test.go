package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/avrojson"
	"github.com/avrogo/avro/schema"
	"github.com/avrogo/avro/value"
	twmb "github.com/twmb/avro"
)

// The JSON rows: the Avro specification's JSON encoding of the record
// workloads, against twmb/avro's EncodeJSON / DecodeJSON and goavro's
// TextualFromNative / NativeFromTextual.

// jsonTexts holds our JSON of every record of a workload's pool, made once:
// the inputs of the decode rows, ASCII only (see asciiJSON).
type jsonTexts struct {
	tagged [][]byte // the specification's encoding (tagged unions)
	bare   [][]byte // bare unions
}

var bareUnions = avrojson.Options{Unions: avrojson.BareUnions}

func newJSONTexts[T any](tb testing.TB, w *workload[T]) *jsonTexts {
	t := &jsonTexts{tagged: make([][]byte, poolSize), bare: make([][]byte, poolSize)}
	for i := range w.recs {
		var err error
		if t.tagged[i], err = avrojson.Marshal(w.ours, &w.recs[i]); err != nil {
			tb.Fatalf("%s: avrojson marshal: %v", w.name, err)
		}
		if t.bare[i], err = bareUnions.Marshal(w.ours, &w.recs[i]); err != nil {
			tb.Fatalf("%s: avrojson marshal bare: %v", w.name, err)
		}
		t.tagged[i], t.bare[i] = asciiJSON(t.tagged[i]), asciiJSON(t.bare[i])
	}
	return t
}

// asciiJSON returns the JSON text with every rune outside ASCII written as
// a \u escape (a surrogate pair above U+FFFF): the same JSON value, the
// form twmb and goavro write. The rows read this form because goavro
// misreads the other: for bytes and fixed it keeps the UTF-8 bytes of each
// code point (U+00FC gives c3 bc, not fc) unless the code point is
// escaped (checked by TestJSONGoavroRawCodePoints). Only rec10's digest
// holds such runes; the other workloads' texts are ASCII already.
func asciiJSON(text []byte) []byte {
	out := make([]byte, 0, len(text)+len(text)/4)
	for _, r := range string(text) {
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, "\\u%04x\\u%04x", r1, r2)
		default:
			out = fmt.Appendf(out, "\\u%04x", r)
		}
	}
	return out
}

// TestJSONGoavroRawCodePoints checks that goavro still misreads bytes
// written as unescaped code points, the reason the decode rows read
// escaped text; when it reads them right, the rows can read our own text.
func TestJSONGoavroRawCodePoints(t *testing.T) {
	w := wlRec10(t)
	for i := range w.recs {
		raw, err := avrojson.Marshal(w.ours, &w.recs[i])
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(raw, asciiJSON(raw)) {
			continue
		}
		x, _, err := w.goavro.NativeFromTextual(raw)
		if err != nil {
			t.Fatalf("rec %d: goavro: %v", i, err)
		}
		got := x.(map[string]any)["digest"].([]byte)
		if !bytes.Equal(got, w.recs[i].Digest) {
			t.Logf("known: goavro reads the digest % x as % x (rec %d)", w.recs[i].Digest, got, i)
			return
		}
		t.Fatalf("rec %d: goavro reads a digest of unescaped code points right: let the decode rows read our own text", i)
	}
	t.Fatal("no rec10 text holds a rune outside ASCII")
}

// twmb's options, made once as a caller that cares about speed would.
var twmbTagged = []twmb.Opt{twmb.TaggedUnions()}

// jsonOps are the operations of every JSON row of one workload, shared by
// the benchmarks and the parity tests, so that the tests check the very
// calls that are timed. Each op takes record i of the pool.
type jsonOps[T any] struct {
	// enc: op -> lib -> append the op's output for record i to dst
	// (JSON text, or binary for json-to-binary). The marshal ops ignore
	// dst and return new memory.
	enc map[string]map[string]func(dst []byte, i int) ([]byte, error)
	// dec: op -> lib -> decode text into a new *T (decode, bare-decode).
	dec map[string]map[string]func(text []byte, v *T) error
	// gdec: op -> lib -> decode text to the library's generic model
	// (decode-any; goavro's decode, which has no structs).
	gdec map[string]map[string]func(text []byte) (any, error)
}

// newJSONOps returns the operations; transcoding peers that reuse a struct
// get their own in each call, so each benchmark and test has its own.
func newJSONOps[T any](w *workload[T], p *genericPools, tx *jsonTexts) *jsonOps[T] {
	type encFn = func(dst []byte, i int) ([]byte, error)
	o := &jsonOps[T]{
		enc:  map[string]map[string]encFn{},
		dec:  map[string]map[string]func([]byte, *T) error{},
		gdec: map[string]map[string]func([]byte) (any, error){},
	}
	enc := func(op, lib string, f encFn) {
		if o.enc[op] == nil {
			o.enc[op] = map[string]encFn{}
		}
		o.enc[op][lib] = f
	}
	dec := func(op, lib string, f func([]byte, *T) error) {
		if o.dec[op] == nil {
			o.dec[op] = map[string]func([]byte, *T) error{}
		}
		o.dec[op][lib] = f
	}
	gdec := func(op, lib string, f func([]byte) (any, error)) {
		if o.gdec[op] == nil {
			o.gdec[op] = map[string]func([]byte) (any, error){}
		}
		o.gdec[op][lib] = f
	}

	// Struct (goavro: its native form) to the specification's JSON.
	enc("encode", libOurs, func(dst []byte, i int) ([]byte, error) { return avrojson.Append(dst, w.ours, &w.recs[i]) })
	enc("encode", libTwmb, func(dst []byte, i int) ([]byte, error) {
		return w.twmb.AppendEncodeJSON(dst, &w.recs[i], twmbTagged...)
	})
	enc("encode", libGoavro, func(dst []byte, i int) ([]byte, error) { return w.goavro.TextualFromNative(dst, w.native[i]) })
	enc("marshal", libOurs, func(_ []byte, i int) ([]byte, error) { return avrojson.Marshal(w.ours, &w.recs[i]) })
	enc("marshal", libTwmb, func(_ []byte, i int) ([]byte, error) { return w.twmb.EncodeJSON(&w.recs[i], twmbTagged...) })
	enc("marshal", libGoavro, func(_ []byte, i int) ([]byte, error) { return w.goavro.TextualFromNative(nil, w.native[i]) })

	// The specification's JSON to a new struct (goavro: its native form).
	dec("decode", libOurs, func(text []byte, v *T) error { return avrojson.Unmarshal(w.ours, text, v) })
	dec("decode", libTwmb, func(text []byte, v *T) error { return w.twmb.DecodeJSON(text, v) })
	gdec("decode", libGoavro, goavroFromText(w))

	// Generic models. Ours and twmb's any hold a union's value bare (twmb
	// without TaggedUnions, which would wrap it in one more map); goavro's
	// natives wrap it. Each encodes the form its own binary decoder made.
	enc("encode-any", libOurs, func(dst []byte, i int) ([]byte, error) { return avrojson.Append(dst, w.ours, p.ours[i]) })
	enc("encode-any", libTwmb, func(dst []byte, i int) ([]byte, error) {
		return w.twmb.AppendEncodeJSON(dst, p.twmb[i], twmbTagged...)
	})
	enc("encode-any", libGoavro, func(dst []byte, i int) ([]byte, error) { return w.goavro.TextualFromNative(dst, p.goavro[i]) })
	gdec("decode-any", libOurs, func(text []byte) (any, error) {
		var x any
		err := avrojson.Unmarshal(w.ours, text, &x)
		return x, err
	})
	gdec("decode-any", libTwmb, func(text []byte) (any, error) {
		var x any
		err := w.twmb.DecodeJSON(text, &x)
		return x, err
	})
	gdec("decode-any", libGoavro, goavroFromText(w))
	enc("encode-value", libOurs, func(dst []byte, i int) ([]byte, error) { return avrojson.Append(dst, w.ours, &p.values[i]) })
	// decode-value has no peer and no shared function: its benchmark
	// keeps the value.Value out of an interface (see sinkValue), and the
	// parity test makes the same call.

	// Bare unions: twmb's default. goavro's JSON codec has no bare mode.
	enc("bare-encode", libOurs, func(dst []byte, i int) ([]byte, error) { return bareUnions.Append(dst, w.ours, &w.recs[i]) })
	enc("bare-encode", libTwmb, func(dst []byte, i int) ([]byte, error) { return w.twmb.AppendEncodeJSON(dst, &w.recs[i]) })
	dec("bare-decode", libOurs, func(text []byte, v *T) error { return bareUnions.Unmarshal(w.ours, text, v) })
	dec("bare-decode", libTwmb, func(text []byte, v *T) error { return w.twmb.DecodeJSON(text, v) })

	// Transcoding. The peers have no transcoder: they decode to their
	// model and encode that. twmb decodes into one struct reused for
	// every op (its fastest path; the parity tests check it against the
	// record), goavro to its native form.
	enc("binary-to-json", libOurs, func(dst []byte, i int) ([]byte, error) { return avrojson.BinaryToJSON(dst, w.ours, w.enc[i]) })
	tv1 := new(T)
	enc("binary-to-json", libTwmb, func(dst []byte, i int) ([]byte, error) {
		if w.reset != nil {
			w.reset(tv1)
		}
		if _, err := w.twmb.Decode(w.enc[i], tv1); err != nil {
			return dst, err
		}
		return w.twmb.AppendEncodeJSON(dst, tv1, twmbTagged...)
	})
	enc("binary-to-json", libGoavro, func(dst []byte, i int) ([]byte, error) {
		x, _, err := w.goavro.NativeFromBinary(w.enc[i])
		if err != nil {
			return dst, err
		}
		return w.goavro.TextualFromNative(dst, x)
	})
	enc("json-to-binary", libOurs, func(dst []byte, i int) ([]byte, error) {
		return avrojson.JSONToBinary(dst, w.ours, tx.tagged[i])
	})
	tv2 := new(T)
	enc("json-to-binary", libTwmb, func(dst []byte, i int) ([]byte, error) {
		if w.reset != nil {
			w.reset(tv2)
		}
		if err := w.twmb.DecodeJSON(tx.tagged[i], tv2); err != nil {
			return dst, err
		}
		return w.twmb.AppendEncode(dst, tv2)
	})
	enc("json-to-binary", libGoavro, func(dst []byte, i int) ([]byte, error) {
		x, _, err := w.goavro.NativeFromTextual(tx.tagged[i])
		if err != nil {
			return dst, err
		}
		return w.goavro.BinaryFromNative(dst, x)
	})
	return o
}

// goavroFromText is goavro's JSON decoder: text to its native form, the
// whole text consumed.
func goavroFromText[T any](w *workload[T]) func([]byte) (any, error) {
	return func(text []byte) (any, error) {
		x, rest, err := w.goavro.NativeFromTextual(text)
		if err == nil && len(bytes.TrimSpace(rest)) != 0 {
			err = fmt.Errorf("%d bytes left", len(rest))
		}
		return x, err
	}
}

// The order of the rows in the table.
var (
	jsonEncOps = []string{"encode", "marshal", "encode-any", "encode-value", "bare-encode", "binary-to-json", "json-to-binary"}
	jsonLibs   = []string{libOurs, libTwmb, libGoavro}
)

// benchJSON runs the JSON rows of one workload:
//
//	op=encode         struct (goavro: native) to JSON, into a reused buffer
//	op=marshal        the same into new memory
//	op=decode         the specification's JSON to a new struct (goavro: native)
//	op=encode-any     each library's generic form, as its own binary decoder
//	                  made it, to JSON in a reused buffer; lib=stdlib is
//	                  the reference: our form's map lookups alone
//	op=decode-any     JSON to the generic model (our and twmb's any, goavro's native)
//	op=encode-value   our value.Value to JSON (no peer)
//	op=decode-value   JSON to our value.Value (no peer)
//	op=bare-encode    struct to JSON with bare unions (goavro has no such mode)
//	op=bare-decode    JSON with bare unions to a new struct
//	op=binary-to-json our BinaryToJSON; the peers decode the binary and encode JSON
//	op=json-to-binary our JSONToBinary; the peers decode the JSON and encode binary
//
// Every op takes the next record of the pool of 4,096.
func benchJSON[T any](b *testing.B, prefix string, wl func(testing.TB) *workload[T]) {
	releaseWorkloads()
	w := wl(b)
	p := newGenericPools(b, w)
	tx := newJSONTexts(b, w)
	const mask = poolSize - 1
	run := newRowRunner(b, prefix)
	runEnc := func(op string) {
		for _, lib := range jsonLibs {
			// A new set of ops for each row: a transcoder's reused struct
			// is its own.
			f := newJSONOps(w, p, tx).enc[op][lib]
			if f == nil {
				continue
			}
			run(op, lib, func(b *testing.B) {
				buf := make([]byte, 0, 64<<10)
				var err error
				for i := 0; i < b.N; i++ {
					if buf, err = f(buf[:0], i&mask); err != nil {
						b.Fatal(err)
					}
				}
				sinkBytes = buf
			})
		}
	}
	runDec := func(op string, texts [][]byte) {
		ops := newJSONOps(w, p, tx)
		for _, lib := range jsonLibs {
			if f := ops.dec[op][lib]; f != nil {
				run(op, lib, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						v := new(T)
						if err := f(texts[i&mask], v); err != nil {
							b.Fatal(err)
						}
						sinkAny = v
					}
				})
			}
			if f := ops.gdec[op][lib]; f != nil {
				run(op, lib, func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						x, err := f(texts[i&mask])
						if err != nil {
							b.Fatal(err)
						}
						sinkAny = x
					}
				})
			}
		}
	}

	runEnc("encode")
	runEnc("marshal")
	runDec("decode", tx.tagged)
	runEnc("encode-any")
	lw := newLookupWalk(w.ours, map[*schema.Schema]*lookupWalk{})
	run("encode-any", libStd, func(b *testing.B) {
		var sum uint64
		for i := 0; i < b.N; i++ {
			s, _ := lw.walk(p.ours[i&mask])
			sum += s
		}
		sinkInt = int64(sum)
	})
	runDec("decode-any", tx.tagged)
	runEnc("encode-value")
	run("decode-value", libOurs, func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var v value.Value
			if err := avrojson.Unmarshal(w.ours, tx.tagged[i&mask], &v); err != nil {
				b.Fatal(err)
			}
			sinkValue = v
		}
	})
	runEnc("bare-encode")
	runDec("bare-decode", tx.bare)
	runEnc("binary-to-json")
	runEnc("json-to-binary")
}

// BenchmarkJSON: the records of BenchmarkRecord in the Avro JSON encoding.
func BenchmarkJSON(b *testing.B) {
	benchJSON(b, "rec=rec10", wlRec10)
	benchJSON(b, "rec=wide", wlWide)
	benchJSON(b, "rec=deep", wlDeep)
	benchJSON(b, "rec=telemetry", wlTelemetry)
}

// ---------------------------------------------------------------------------
// Parity: every row of a JSON group does the same work.

// TestJSONParityEncode checks that every encoding row writes the same JSON
// as ours (equal as JSON values, guided by the schema), whatever each
// library's formatting, and that ours is the specification's encoding of
// the record (it reads back as the record).
func TestJSONParityEncode(t *testing.T) {
	checkJSONEncode(t, wlRec10)
	checkJSONEncode(t, wlWide)
	checkJSONEncode(t, wlDeep)
	checkJSONEncode(t, wlTelemetry)
}

func checkJSONEncode[T any](t *testing.T, wl func(testing.TB) *workload[T]) {
	w := wl(t)
	t.Run(w.name, func(t *testing.T) {
		p := newGenericPools(t, w)
		tx := newJSONTexts(t, w)
		ops := newJSONOps(w, p, tx)
		for _, op := range jsonEncOps {
			if op == "json-to-binary" {
				continue // binary out: TestJSONParityDecode
			}
			bare := op == "bare-encode"
			want, reader := tx.tagged, avrojson.Options{}
			if bare {
				want, reader = tx.bare, bareUnions
			}
			var unionsDiffer bool
			for i := 0; i < parityN; i++ {
				// Our text is the record in the specification's encoding
				// (or with bare unions): it reads back as the record.
				got := new(T)
				if err := reader.Unmarshal(w.ours, want[i], got); err != nil {
					t.Fatalf("rec %d: reading back our %s text: %v", i, op, err)
				}
				if d := diff(w.recs[i], *got); d != "" {
					t.Fatalf("rec %d: our %s text reads back (-want +got):\n%s", i, op, d)
				}
				if bare && !bytes.Equal(tx.bare[i], tx.tagged[i]) {
					unionsDiffer = true
				}
				for _, lib := range jsonLibs {
					f := ops.enc[op][lib]
					if f == nil {
						continue
					}
					// Append to a non-empty buffer: the rows reuse one.
					out, err := f([]byte("x"), i)
					if err != nil {
						t.Fatalf("rec %d: %s %s: %v", i, lib, op, err)
					}
					if op != "marshal" {
						if len(out) == 0 || out[0] != 'x' {
							t.Fatalf("rec %d: %s %s does not append", i, lib, op)
						}
						out = out[1:]
					}
					if err := sameJSON(w.ours, want[i], out, bare); err != nil {
						t.Fatalf("rec %d: %s %s: %v\nours: %s\nits:  %s", i, lib, op, err, want[i], out)
					}
				}
			}
			// The workloads with a union field set in some record write it
			// differently in the two modes (telemetry has no union).
			if bare && w.name != "telemetry" && !unionsDiffer {
				t.Fatalf("%s: bare and tagged texts are the same", op)
			}
		}
	})
}

// TestJSONParityDecode checks that every decoding row reads our text to the
// record: structs compared with the record, generic models after the
// normalisation of the Generic parity tests, goavro's natives and every
// json-to-binary output through a binary encoding that we decode.
func TestJSONParityDecode(t *testing.T) {
	checkJSONDecode(t, wlRec10)
	checkJSONDecode(t, wlWide)
	checkJSONDecode(t, wlDeep)
	checkJSONDecode(t, wlTelemetry)
}

func checkJSONDecode[T any](t *testing.T, wl func(testing.TB) *workload[T]) {
	w := wl(t)
	t.Run(w.name, func(t *testing.T) {
		p := newGenericPools(t, w)
		tx := newJSONTexts(t, w)
		ops := newJSONOps(w, p, tx)
		fromBinary := func(data []byte) (*T, error) {
			v := new(T)
			return v, avro.Unmarshal(w.ours, data, v)
		}
		for i := 0; i < parityN; i++ {
			want := w.recs[i]
			wantN, err := normalize(w.ours, w.native[i])
			if err != nil {
				t.Fatal(err)
			}
			for op, texts := range map[string][][]byte{"decode": tx.tagged, "bare-decode": tx.bare} {
				for lib, f := range ops.dec[op] {
					v := new(T)
					if err := f(texts[i], v); err != nil {
						t.Fatalf("rec %d: %s %s: %v", i, lib, op, err)
					}
					if d := diff(want, *v); d != "" {
						t.Fatalf("rec %d: %s %s (-want +got):\n%s", i, lib, op, d)
					}
					// And through bytes, as the other decoders are checked.
					data, err := avro.Marshal(w.ours, v)
					if err != nil {
						t.Fatal(err)
					}
					back, err := fromBinary(data)
					if err != nil {
						t.Fatal(err)
					}
					if d := diff(want, *back); d != "" {
						t.Fatalf("rec %d: %s %s, re-encoded (-want +got):\n%s", i, lib, op, d)
					}
				}
			}
			for op, m := range ops.gdec {
				for lib, f := range m {
					x, err := f(tx.tagged[i])
					if err != nil {
						t.Fatalf("rec %d: %s %s: %v", i, lib, op, err)
					}
					got, err := normalize(w.ours, x)
					if err != nil {
						t.Fatalf("rec %d: %s %s: %v", i, lib, op, err)
					}
					if d := diff(wantN, got); d != "" {
						t.Fatalf("rec %d: %s %s (-want +got):\n%s", i, lib, op, d)
					}
					// Through the binary encoding of the library that made it.
					var data []byte
					switch lib {
					case libOurs:
						data, err = avro.Marshal(w.ours, x)
					case libTwmb:
						data, err = w.twmb.Encode(x)
					case libGoavro:
						data, err = w.goavro.BinaryFromNative(nil, x)
					}
					if err != nil {
						t.Fatalf("rec %d: %s re-encoding its %s: %v", i, lib, op, err)
					}
					back, err := fromBinary(data)
					if err != nil {
						t.Fatalf("rec %d: %s's re-encoded %s: %v", i, lib, op, err)
					}
					if d := diff(want, *back); d != "" {
						t.Fatalf("rec %d: %s %s, re-encoded (-want +got):\n%s", i, lib, op, d)
					}
				}
			}
			var v value.Value
			if err := avrojson.Unmarshal(w.ours, tx.tagged[i], &v); err != nil {
				t.Fatalf("rec %d: decode-value: %v", i, err)
			}
			if got, err := normalize(w.ours, v); err != nil {
				t.Fatalf("rec %d: decode-value: %v", i, err)
			} else if d := diff(wantN, got); d != "" {
				t.Fatalf("rec %d: decode-value (-want +got):\n%s", i, d)
			}
			for lib, f := range ops.enc["json-to-binary"] {
				data, err := f([]byte("x"), i)
				if err != nil {
					t.Fatalf("rec %d: %s json-to-binary: %v", i, lib, err)
				}
				if len(data) == 0 || data[0] != 'x' {
					t.Fatalf("rec %d: %s json-to-binary does not append", i, lib)
				}
				back, err := fromBinary(data[1:])
				if err != nil {
					t.Fatalf("rec %d: %s json-to-binary: %v", i, lib, err)
				}
				if d := diff(want, *back); d != "" {
					t.Fatalf("rec %d: %s json-to-binary (-want +got):\n%s", i, lib, d)
				}
			}
		}
	})
}

// TestJSONSameJSON checks that the comparison of the parity tests tells
// texts apart where they differ as Avro values and only there.
func TestJSONSameJSON(t *testing.T) {
	s, err := schema.Parse(`{"type":"record","name":"R","fields":[
	 {"name":"l","type":"long"},{"name":"d","type":"double"},{"name":"f","type":"float"},
	 {"name":"b","type":"bytes"},{"name":"u","type":["null","string","long"]},
	 {"name":"m","type":{"type":"map","values":"int"}},{"name":"a","type":{"type":"array","items":"boolean"}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	const base = `{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1},"a":[true]}`
	same := []string{
		base,
		`{"a":[true],"m":{"k":1},"u":{"long":2},"b":"ÿ","f":5e-1,"d":1E-1,"l":1}`,
		` {"l":1, "d":0.10000000000000000555, "f":0.5, "b":"\u00FF", "u":{"long":2}, "m":{"k":1}, "a":[true]}`,
	}
	differ := []string{
		`{"l":1.0,"d":0.1,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1},"a":[true]}`,
		`{"l":1,"d":0.1000001,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1},"a":[true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00fe","u":{"long":2},"m":{"k":1},"a":[true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":{"string":"2"},"m":{"k":1},"a":[true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":2,"m":{"k":1},"a":[true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":null,"m":{"k":1},"a":[true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1,"j":1},"a":[true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1},"a":[true,true]}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1}}`,
		`{"l":1,"d":0.1,"f":0.5,"b":"\u00ff","u":{"long":2},"m":{"k":1},"a":[true],"x":1}`,
		base + ` {}`,
	}
	for _, s2 := range same {
		if err := sameJSON(s, []byte(base), []byte(s2), false); err != nil {
			t.Errorf("%s: %v", s2, err)
		}
	}
	for _, s2 := range differ {
		if sameJSON(s, []byte(base), []byte(s2), false) == nil {
			t.Errorf("%s: equal to %s", s2, base)
		}
	}
	// Bare unions: the value alone; goavro's null for NaN.
	if err := sameJSON(s, []byte(`{"l":1,"d":"NaN","f":0.5,"b":"","u":2,"m":{},"a":[]}`),
		[]byte(`{"l":1,"d":null,"f":0.5,"b":"","u":2,"m":{},"a":[]}`), true); err != nil {
		t.Error(err)
	}
	if sameJSON(s, []byte(`{"l":1,"d":1,"f":0.5,"b":"","u":2,"m":{},"a":[]}`),
		[]byte(`{"l":1,"d":1,"f":0.5,"b":"","u":"2","m":{},"a":[]}`), true) == nil {
		t.Error("bare 2 and \"2\" are equal")
	}
}

// sameJSON reports whether two JSON texts of a datum of schema s are the
// same Avro value, given the specification's encoding (tagged unions) or
// bare unions. The libraries format differently without writing other
// values, and this is what it forgives:
//   - member order (goavro writes a record's fields in map order) and
//     white space;
//   - how a number is spelled, for floats and doubles only: they compare
//     as the float they parse to (the libraries all write the shortest
//     form today, but 1e21 and 1E+21 are the same double). Ints and longs
//     must be the same digits;
//   - string escapes: bytes are code points U+0000 to U+00FF, which twmb
//     and goavro write as \u00XX escapes and we as UTF-8; they compare as
//     the decoded string;
//   - NaN and the infinities as the strings "NaN", "Infinity",
//     "-Infinity" (Java's form; ours and twmb's) or NaN as null (goavro's).
//     The workloads hold none.
//
// A union member must name the same branch.
func sameJSON(s *schema.Schema, a, b []byte, bare bool) error {
	x, err := decodeJSONNumbers(a)
	if err != nil {
		return fmt.Errorf("first text: %v", err)
	}
	y, err := decodeJSONNumbers(b)
	if err != nil {
		return fmt.Errorf("second text: %v", err)
	}
	return sameJSONValue(s, x, y, bare, "")
}

func decodeJSONNumbers(text []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("text after the value")
	}
	return x, nil
}

func sameJSONValue(s *schema.Schema, x, y any, bare bool, path string) error {
	at := path
	if at == "" {
		at = "."
	}
	mismatch := func() error { return fmt.Errorf("%s: %v and %v differ (%s)", at, x, y, s.Kind()) }
	switch s.Kind() {
	case schema.Null:
		if x != nil || y != nil {
			return mismatch()
		}
	case schema.Boolean:
		a, ok1 := x.(bool)
		b, ok2 := y.(bool)
		if !ok1 || !ok2 || a != b {
			return mismatch()
		}
	case schema.Int, schema.Long:
		a, ok1 := x.(json.Number)
		b, ok2 := y.(json.Number)
		if !ok1 || !ok2 || a != b {
			return mismatch()
		}
		if _, err := strconv.ParseInt(string(a), 10, 64); err != nil {
			return fmt.Errorf("%s: %v", at, err)
		}
	case schema.Float, schema.Double:
		bits := 64
		if s.Kind() == schema.Float {
			bits = 32
		}
		a, err1 := jsonFloat(x, bits)
		b, err2 := jsonFloat(y, bits)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("%s: %v, %v", at, err1, err2)
		}
		if a != b && !(math.IsNaN(a) && math.IsNaN(b)) {
			return mismatch()
		}
	case schema.String, schema.Enum, schema.Bytes, schema.Fixed:
		a, ok1 := x.(string)
		b, ok2 := y.(string)
		if !ok1 || !ok2 || a != b {
			return mismatch()
		}
	case schema.Array:
		a, ok1 := x.([]any)
		b, ok2 := y.([]any)
		if !ok1 || !ok2 || len(a) != len(b) {
			return mismatch()
		}
		for i := range a {
			if err := sameJSONValue(s.Items(), a[i], b[i], bare, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case schema.Map, schema.Record:
		a, ok1 := x.(map[string]any)
		b, ok2 := y.(map[string]any)
		if !ok1 || !ok2 || len(a) != len(b) {
			return mismatch()
		}
		if s.Kind() == schema.Record && len(a) != len(s.Fields()) {
			return fmt.Errorf("%s: %d members for %d fields", at, len(a), len(s.Fields()))
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok {
				return fmt.Errorf("%s: member %q missing", at, k)
			}
			t := s.Values()
			if s.Kind() == schema.Record {
				f := s.Field(k)
				if f == nil {
					return fmt.Errorf("%s: no field %q", at, k)
				}
				t = f.Type()
			}
			if err := sameJSONValue(t, av, bv, bare, path+"."+k); err != nil {
				return err
			}
		}
	case schema.Union:
		if x == nil || y == nil {
			if x != nil || y != nil {
				return mismatch()
			}
			return nil
		}
		if bare {
			// The value alone: it is the same value of some non-null
			// branch (the workloads' unions have one).
			var first error
			for _, br := range s.Branches() {
				if br.Kind() == schema.Null {
					continue
				}
				err := sameJSONValue(br, x, y, bare, path)
				if err == nil {
					return nil
				}
				if first == nil {
					first = err
				}
			}
			return first
		}
		a, ok1 := x.(map[string]any)
		b, ok2 := y.(map[string]any)
		if !ok1 || !ok2 || len(a) != 1 || len(b) != 1 {
			return fmt.Errorf("%s: %v and %v are not both tagged", at, x, y)
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok {
				return fmt.Errorf("%s: tags differ: %v and %v", at, x, y)
			}
			for _, br := range s.Branches() {
				if branchName(br) == k {
					return sameJSONValue(br, av, bv, bare, path+"."+k)
				}
			}
			return fmt.Errorf("%s: tag %q names no branch", at, k)
		}
	default:
		return fmt.Errorf("%s: unsupported schema %s", at, s.Kind())
	}
	return nil
}

// jsonFloat is the float of a JSON float or double: a number, one of the
// strings of NaN and the infinities, or null for NaN (goavro).
func jsonFloat(x any, bits int) (float64, error) {
	switch v := x.(type) {
	case json.Number:
		return strconv.ParseFloat(string(v), bits)
	case string:
		switch v {
		case "NaN":
			return math.NaN(), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
	case nil:
		return math.NaN(), nil
	}
	return 0, fmt.Errorf("%v (%T) is not a float", x, x)
}
