package main

import (
	"context"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"time"

	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

var randomCmd = &command{
	name:  "random",
	args:  "OUT|-",
	short: "write a container file of random records of a schema",
	long: `Random writes --count random records of the schema --schema to the
container file OUT (- for standard output), as avro-tools random does.
Every type is covered: strings of mixed scripts, bytes, NaN-free numbers
of every size, enums, fixed, unions of any branches, arrays and maps of
up to 5 items, and logical types within their ranges (dates and
timestamps in the years 1900 to 2099, times of day within a day,
decimals within their precision, uuids of version 4, durations).
Recursive schemas end: below depth 8, arrays and maps are empty and
unions take the branch that ends soonest. With --seed the output is the
same at every run, its sync marker included.`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		schemaArg := fs.String("schema", "", "the schema `S` of the records (required)")
		count := fs.Int64("count", -1, "the number `N` of records (required)")
		seed := fs.Uint64("seed", 0, "the `seed` of the generator (default: a random one)")
		quiet := fs.Bool("quiet", false, "draw no progress line")
		var wf writeFlags
		wf.declare(fs, ocf.CodecNull)
		return func(ctx context.Context, args []string) error {
			switch {
			case *schemaArg == "":
				return usagef("--schema is required")
			case *count < 0:
				return usagef("--count is required, and may not be negative")
			case len(args) != 1:
				return usagef("want one output, got %d arguments", len(args))
			}
			opts, err := wf.options(fs, "")
			if err != nil {
				return err
			}
			s, err := e.loadSchema(*schemaArg)
			if err != nil {
				return err
			}
			g, err := newGenerator(s)
			if err != nil {
				return err
			}
			s1 := *seed
			if !flagSet(fs, "seed") {
				s1 = rand.Uint64()
			}
			rng := rand.New(rand.NewPCG(s1, 0x61767230))
			var sync [ocf.SyncSize]byte
			binary.LittleEndian.PutUint64(sync[:], rng.Uint64())
			binary.LittleEndian.PutUint64(sync[8:], rng.Uint64())
			out, err := e.createOutput(args[0])
			if err != nil {
				return err
			}
			p := e.startProgress(*quiet, args[0] == "-", -1)
			defer p.stop()
			w, err := newWriter(out, s, append(opts, ocf.WithSyncMarker(sync))...)
			if err == nil {
				var datum []byte
				for i := int64(0); i < *count && err == nil; i++ {
					if i&1023 == 0 {
						if err = ctx.Err(); err != nil {
							break
						}
					}
					datum = g.datum(datum[:0], rng)
					err = w.EncodeRaw(datum)
					p.addRecords(1)
				}
			}
			return finishWriter(w, out, err)
		}
	},
}

// maxRandomDepth is the depth below which collections are empty and
// unions take the branch that ends soonest.
const maxRandomDepth = 8

// A generator writes random binary datums of a schema.
type generator struct {
	root *schema.Schema
	// height is, for each node, how many levels of nesting the smallest
	// datum of it takes (0 for a leaf), or -1 while unknown; a node that
	// stays unknown has no finite datum.
	height map[*schema.Schema]int
}

func newGenerator(s *schema.Schema) (*generator, error) {
	g := &generator{root: s, height: map[*schema.Schema]int{}}
	var nodes []*schema.Schema
	var collect func(*schema.Schema)
	collect = func(n *schema.Schema) {
		if _, ok := g.height[n]; ok {
			return
		}
		g.height[n] = -1
		nodes = append(nodes, n)
		switch n.Kind() {
		case schema.Record:
			for _, f := range n.Fields() {
				collect(f.Type())
			}
		case schema.Array:
			collect(n.Items())
		case schema.Map:
			collect(n.Values())
		case schema.Union:
			for _, b := range n.Branches() {
				collect(b)
			}
		}
	}
	collect(s)
	// Heights by fixed point: each round settles at least one node, or
	// none can be settled.
	for changed := true; changed; {
		changed = false
		for _, n := range nodes {
			if h := g.settle(n); h >= 0 && g.height[n] != h {
				g.height[n], changed = h, true
			}
		}
	}
	if g.height[s] < 0 {
		return nil, fmt.Errorf("the schema has no finite datum: a record holds itself in every branch")
	}
	return g, nil
}

// settle computes the height of n from what is known of its children.
func (g *generator) settle(n *schema.Schema) int {
	switch n.Kind() {
	case schema.Record:
		h := 0
		for _, f := range n.Fields() {
			fh := g.height[f.Type()]
			if fh < 0 {
				return -1
			}
			h = max(h, fh+1)
		}
		return h
	case schema.Union:
		best := -1
		for _, b := range n.Branches() {
			if bh := g.height[b]; bh >= 0 && (best < 0 || bh < best) {
				best = bh
			}
		}
		return best
	}
	// Leaves, and collections, which may be empty.
	return 0
}

func (g *generator) datum(dst []byte, r *rand.Rand) []byte { return g.value(dst, g.root, r, 0) }

func (g *generator) value(dst []byte, s *schema.Schema, r *rand.Rand, depth int) []byte {
	switch s.Kind() {
	case schema.Null:
		return dst
	case schema.Boolean:
		return append(dst, byte(r.IntN(2)))
	case schema.Int:
		return binary.AppendVarint(dst, int64(randomInt(s, r)))
	case schema.Long:
		return binary.AppendVarint(dst, randomLong(s, r))
	case schema.Float:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(randomFloat(r))))
	case schema.Double:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(randomFloat(r)))
	case schema.String:
		var b []byte
		if s.Logical() == schema.UUID {
			b = []byte(randomUUID(r).String())
		} else {
			b = randomText(r)
		}
		return append(binary.AppendVarint(dst, int64(len(b))), b...)
	case schema.Bytes:
		var b []byte
		switch s.Logical() {
		case schema.Decimal:
			b = twos(randomUnscaled(r, s.Precision(), 0))
		case schema.BigDecimal:
			// Its payload is the unscaled value as Avro bytes, then the
			// scale as an Avro int.
			u := twos(randomUnscaled(r, 1+r.IntN(20), 0))
			b = append(binary.AppendVarint(nil, int64(len(u))), u...)
			b = binary.AppendVarint(b, int64(r.IntN(10)))
		default:
			b = randomBytes(r, r.IntN(17))
		}
		return append(binary.AppendVarint(dst, int64(len(b))), b...)
	case schema.Fixed:
		switch s.Logical() {
		case schema.Decimal:
			return append(dst, fixedTwos(randomUnscaled(r, s.Precision(), s.Size()), s.Size())...)
		case schema.UUID:
			u := randomUUID(r)
			return append(dst, u[:]...)
		case schema.Duration:
			for range 3 {
				dst = binary.LittleEndian.AppendUint32(dst, uint32(r.IntN(1000)))
			}
			return dst
		}
		return append(dst, randomBytes(r, s.Size())...)
	case schema.Enum:
		return binary.AppendVarint(dst, int64(r.IntN(len(s.Symbols()))))
	case schema.Array, schema.Map:
		n := 0
		if depth < maxRandomDepth {
			n = r.IntN(6)
		}
		if n == 0 {
			return append(dst, 0)
		}
		dst = binary.AppendVarint(dst, int64(n))
		seen := map[string]bool{}
		for range n {
			if s.Kind() == schema.Map {
				key := randomText(r)
				for seen[string(key)] {
					key = append(key, 'a'+byte(r.IntN(26)))
				}
				seen[string(key)] = true
				dst = append(binary.AppendVarint(dst, int64(len(key))), key...)
				dst = g.value(dst, s.Values(), r, depth+1)
			} else {
				dst = g.value(dst, s.Items(), r, depth+1)
			}
		}
		return append(dst, 0)
	case schema.Union:
		branches := s.Branches()
		i := r.IntN(len(branches))
		if depth >= maxRandomDepth || g.height[branches[i]] < 0 {
			i = g.soonest(s)
		}
		return g.value(binary.AppendVarint(dst, int64(i)), branches[i], r, depth+1)
	case schema.Record:
		for _, f := range s.Fields() {
			dst = g.value(dst, f.Type(), r, depth+1)
		}
		return dst
	}
	return dst
}

// soonest returns the branch of a union whose smallest datum is the least
// deep, the first of them.
func (g *generator) soonest(s *schema.Schema) int {
	best := -1
	for i, b := range s.Branches() {
		if h := g.height[b]; h >= 0 && (best < 0 || h < g.height[s.Branches()[best]]) {
			best = i
		}
	}
	return best
}

// The range of dates and timestamps: the years 1900 to 2099.
var (
	randomFrom  = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
	randomUntil = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
)

func randomInt(s *schema.Schema, r *rand.Rand) int32 {
	switch s.Logical() {
	case schema.Date:
		from, until := randomFrom.Unix()/86400, randomUntil.Unix()/86400
		return int32(from + r.Int64N(until-from))
	case schema.TimeMillis:
		return r.Int32N(86_400_000)
	}
	return int32(randomLongBits(r, 32))
}

func randomLong(s *schema.Schema, r *rand.Rand) int64 {
	var unit int64
	switch s.Logical() {
	case schema.TimeMicros:
		return r.Int64N(86_400_000_000)
	case schema.TimestampMillis, schema.LocalTimestampMillis:
		unit = 1e6
	case schema.TimestampMicros, schema.LocalTimestampMicros:
		unit = 1e3
	case schema.TimestampNanos, schema.LocalTimestampNanos:
		unit = 1
	default:
		return randomLongBits(r, 64)
	}
	from, until := randomFrom.UnixNano()/unit, randomUntil.UnixNano()/unit
	return from + r.Int64N(until-from)
}

// randomLongBits returns a number of a random width up to bits, so that
// varints of every length occur.
func randomLongBits(r *rand.Rand, bits int) int64 {
	w := 1 + r.IntN(bits)
	v := int64(r.Uint64() >> (64 - w))
	if w == 64 || r.IntN(2) == 0 {
		return v
	}
	return -v
}

func randomFloat(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return 0
	case 1:
		return float64(r.IntN(1000))
	}
	return r.NormFloat64() * math.Pow(10, float64(r.IntN(12)-4))
}

// randomAlphabet mixes one-, two-, three- and four-byte UTF-8.
var randomAlphabet = []rune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _-.éüßøçжπ日本語😀")

func randomText(r *rand.Rand) []byte {
	n := r.IntN(16)
	b := make([]byte, 0, n)
	for range n {
		b = append(b, string(randomAlphabet[r.IntN(len(randomAlphabet))])...)
	}
	return b
}

func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

type uuid [16]byte

func randomUUID(r *rand.Rand) uuid {
	var u uuid
	binary.LittleEndian.PutUint64(u[:], r.Uint64())
	binary.LittleEndian.PutUint64(u[8:], r.Uint64())
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // the RFC 4122 variant
	return u
}

func (u uuid) String() string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

// randomUnscaled returns an unscaled decimal of at most precision digits
// that fits in size bytes of two's complement (any size when 0).
func randomUnscaled(r *rand.Rand, precision, size int) *big.Int {
	digits := 1 + r.IntN(max(precision, 1))
	limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	if size > 0 {
		if fit := new(big.Int).Lsh(big.NewInt(1), uint(8*size-1)); fit.Cmp(limit) < 0 {
			limit = fit
		}
	}
	// Eight bytes more than the limit takes make the bias of the modulo
	// negligible.
	u := new(big.Int).SetBytes(randomBytes(r, (limit.BitLen()+7)/8+8))
	u.Mod(u, limit)
	if r.IntN(2) == 0 {
		u.Neg(u)
	}
	return u
}

// twos returns the shortest big-endian two's complement of u.
func twos(u *big.Int) []byte {
	n := 1
	for ; ; n++ {
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)))
		hi := new(big.Int).Lsh(big.NewInt(1), uint(8*n-1))
		if u.Cmp(lo) >= 0 && u.Cmp(hi) < 0 {
			break
		}
	}
	return fixedTwos(u, n)
}

// fixedTwos returns u in n bytes of big-endian two's complement.
func fixedTwos(u *big.Int, n int) []byte {
	v := new(big.Int).Set(u)
	if v.Sign() < 0 {
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	return v.FillBytes(make([]byte, n))
}
