package schema

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
)

// setLogical attaches the logical type that o's "logicalType" attribute
// names, if it is valid for s, and returns the attributes it consumed.
//
// Policy (spec "Logical Types"): a logicalType that is unknown, or invalid
// for its node (wrong underlying type, missing or out-of-range precision,
// scale above precision, uuid on a fixed that is not 16 bytes, ...) is not
// an error. The node stays a plain node of its underlying type, and
// logicalType, precision and scale stay on it as props, so String writes
// them back and the schema round-trips unchanged.
func setLogical(s *Schema, o *object) map[string]bool {
	lv, ok := o.get("logicalType")
	if !ok {
		return nil
	}
	name, ok := lv.(string)
	if !ok {
		return nil
	}
	var l Logical
	switch name {
	case "decimal":
		if (s.kind != Bytes && s.kind != Fixed) || !setDecimal(s, o) {
			return nil
		}
		return decimalAttrs
	case "big-decimal":
		// Precision and scale travel with each value; a schema that
		// declares them is malformed (the C++ parser rejects it).
		_, hasP := o.get("precision")
		_, hasS := o.get("scale")
		if s.kind != Bytes || hasP || hasS {
			return nil
		}
		l = BigDecimal
	case "uuid":
		if s.kind != String && (s.kind != Fixed || s.nm().size != 16) {
			return nil
		}
		l = UUID
	case "date", "time-millis":
		if s.kind != Int {
			return nil
		}
		l = Date
		if name == "time-millis" {
			l = TimeMillis
		}
	case "time-micros", "timestamp-millis", "timestamp-micros", "timestamp-nanos",
		"local-timestamp-millis", "local-timestamp-micros", "local-timestamp-nanos":
		if s.kind != Long {
			return nil
		}
		l = logicalByName[name]
	case "duration":
		if s.kind != Fixed || s.nm().size != 12 {
			return nil
		}
		l = Duration
	default:
		return nil
	}
	s.logical = l
	return logicalTypeAttr
}

var (
	logicalTypeAttr = map[string]bool{"logicalType": true}
	decimalAttrs    = map[string]bool{"logicalType": true, "precision": true, "scale": true}
	logicalByName   = func() map[string]Logical {
		m := map[string]Logical{}
		for l, n := range logicalNames {
			m[n] = Logical(l)
		}
		return m
	}()
)

// setDecimal checks the decimal attributes: precision is required and
// positive, scale is optional (0) with 0 <= scale <= precision, and on a
// fixed(n) the precision cannot exceed what n bytes of two's complement
// hold, floor(log10(2^(8n-1) - 1)).
func setDecimal(s *Schema, o *object) bool {
	pv, ok := o.get("precision")
	if !ok {
		return false
	}
	precision, ok := smallInt(pv)
	if !ok || precision <= 0 {
		return false
	}
	scale := 0
	if sv, ok := o.get("scale"); ok {
		if scale, ok = smallInt(sv); !ok || scale < 0 || scale > precision {
			return false
		}
	}
	if s.kind == Fixed && precision > MaxDecimalPrecision(s.nm().size) {
		return false
	}
	s.logical, s.more().precision, s.more().scale = Decimal, int32(precision), int32(scale)
	return true
}

// smallInt returns a JSON integer that fits in an int32.
func smallInt(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseInt(string(n), 10, 32)
	if err != nil {
		return 0, false
	}
	return int(x), true
}

// MaxDecimalPrecision returns the largest decimal precision a fixed of
// size bytes can hold: floor(log10(2^(8*size-1) - 1)), so 8 -> 18,
// 16 -> 38, 129 -> 310, and 0 for size 0.
func MaxDecimalPrecision(size int) int {
	if size <= 0 {
		return 0
	}
	bits := 8*int64(size) - 1
	if bits <= 8*1024 {
		// Exact: the number of decimal digits of 2^bits - 1, minus one.
		v := new(big.Int).Lsh(big.NewInt(1), uint(bits))
		v.Sub(v, big.NewInt(1))
		return len(v.String()) - 1
	}
	// 2^bits - 1 is never a power of ten, so this is floor(bits*log10(2))
	// up to float rounding, which only matters for precisions no real
	// decimal uses.
	p := math.Floor(float64(bits) * math.Log10(2))
	if p > math.MaxInt32 {
		return math.MaxInt32
	}
	return int(p)
}
