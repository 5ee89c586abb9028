package bench

import (
	"bytes"
	"reflect"
	"unsafe"
)

// The floors (lib=copy rows of decode-new) build record i of a workload
// the way a decoder of its bytes into a new struct must at least: they
// allocate the struct, one array for each Go slice or map the record
// holds (one for all the items of one kind, where a decoder, which learns
// the lengths as it reads, needs one an array), one for the pointees of
// each type, and one copy of the record's encoding, which its strings
// point into (at places found when the workload is built). They parse
// nothing: the scalars are copied from the source record. A floor is
// what a decoder pays before it decodes anything, not a strict bound: a
// decoder that copies only the strings' bytes allocates less, and where
// the collector's work is most of the time it can be as fast.

// span is where a string lies in a record's encoding.
type span [2]int32

// spanFinder finds the strings of one encoding in the order the encoding
// holds them, so that two equal strings get their own places.
type spanFinder struct {
	enc   []byte
	at    int
	spans []span
}

func (f *spanFinder) add(s string) {
	j := bytes.Index(f.enc[f.at:], []byte(s))
	if j < 0 {
		panic("floor: string not in its encoding")
	}
	j += f.at
	f.at = j + len(s)
	f.spans = append(f.spans, span{int32(j), int32(j + len(s))})
}

// strCursor hands out a record's strings, in the order of the spans a
// spanFinder found, from one copy of the record's encoding. (A slab of
// the strings' bytes alone, each copied on its own, was measured too: it
// allocates fewer bytes but is slower; rec10's floor took about 720 ns
// that way and 450 ns this way, in separate runs of its rows.)
type strCursor struct {
	slab  []byte
	spans []span
}

func newStrCursor(spans []span, enc []byte) strCursor {
	slab := make([]byte, len(enc))
	copy(slab, enc)
	return strCursor{slab: slab, spans: spans}
}

func (c *strCursor) bytes() []byte {
	o := c.spans[0]
	c.spans = c.spans[1:]
	return c.slab[o[0]:o[1]:o[1]]
}

func (c *strCursor) next() string {
	o := c.spans[0]
	c.spans = c.spans[1:]
	if o[0] == o[1] {
		return ""
	}
	return unsafe.String(&c.slab[o[0]], o[1]-o[0])
}

// floorRec10 is the floor of a rec10 decode: the struct, the map and its
// entries, the note's *string, the counts and the strings' slab.
func floorRec10(w *workload[Rec10]) func(i int) *Rec10 {
	spans := make([][]span, len(w.recs))
	for i := range w.recs {
		r := &w.recs[i]
		// The strings are not in the encoding's order (the map's keys
		// are written in any), so each is looked for from the start.
		f := spanFinder{enc: w.enc[i]}
		at := func(s string) { f.at = 0; f.add(s) }
		at(r.Name)
		at(string(r.Digest))
		at(r.Inner.Label)
		if r.Note != nil {
			at(*r.Note)
		}
		for k, v := range r.Attrs {
			at(k)
			at(v)
		}
		spans[i] = f.spans
	}
	return func(i int) *Rec10 {
		src, c := &w.recs[i], newStrCursor(spans[i], w.enc[i])
		v := &Rec10{ID: src.ID, TS: src.TS, Score: src.Score, Active: src.Active}
		v.Name, v.Digest = c.next(), c.bytes()
		v.Inner = Inner{Seq: src.Inner.Seq, Label: c.next()}
		if src.Note != nil {
			note := c.next()
			v.Note = &note
		}
		v.Counts = make([]int64, len(src.Counts))
		copy(v.Counts, src.Counts)
		v.Attrs = make(map[string]string, len(src.Attrs))
		for range len(src.Attrs) {
			k := c.next()
			v.Attrs[k] = c.next()
		}
		return v
	}
}

// floorWide is the floor of a wide decode: the struct, the strings of
// its non-null ["null","string"] fields and the slab.
func floorWide(w *workload[Wide]) func(i int) *Wide {
	type field struct {
		off uintptr
		ptr bool
	}
	var fields []field
	rt := reflect.TypeFor[Wide]()
	for j := range rt.NumField() {
		f := rt.Field(j)
		switch f.Type {
		case reflect.TypeFor[string]():
			fields = append(fields, field{f.Offset, false})
		case reflect.TypeFor[*string]():
			fields = append(fields, field{f.Offset, true})
		}
	}
	spans := make([][]span, len(w.recs))
	pointees := make([]int, len(w.recs))
	for i := range w.recs {
		f := spanFinder{enc: w.enc[i]}
		base := unsafe.Pointer(&w.recs[i])
		for _, fd := range fields {
			p := unsafe.Add(base, fd.off)
			switch {
			case !fd.ptr:
				f.add(*(*string)(p))
			case *(**string)(p) != nil:
				f.add(**(**string)(p))
				pointees[i]++
			}
		}
		spans[i] = f.spans
	}
	return func(i int) *Wide {
		c := newStrCursor(spans[i], w.enc[i])
		v := new(Wide)
		*v = w.recs[i]
		base := unsafe.Pointer(v)
		strs := make([]string, pointees[i])
		for _, fd := range fields {
			p := unsafe.Add(base, fd.off)
			switch {
			case !fd.ptr:
				*(*string)(p) = c.next()
			case *(**string)(p) != nil:
				strs[0] = c.next()
				*(**string)(p) = &strs[0]
				strs = strs[1:]
			}
		}
		return v
	}
}

// floorDeep is the floor of a deep decode: the struct, the lines, the
// discounts of all its lines, the shipping address, the notes and the
// slab.
func floorDeep(w *workload[Order]) func(i int) *Order {
	spans := make([][]span, len(w.recs))
	discounts := make([]int, len(w.recs))
	for i := range w.recs {
		r, f := &w.recs[i], spanFinder{enc: w.enc[i]}
		addr := func(a *Address) { f.add(a.Street); f.add(a.City); f.add(a.Zip); f.add(a.Country) }
		f.add(r.Customer.Name)
		f.add(r.Customer.Email)
		addr(&r.Customer.Address)
		for _, l := range r.Lines {
			f.add(l.SKU)
			for _, d := range l.Discounts {
				f.add(d.Code)
			}
			discounts[i] += len(l.Discounts)
		}
		if r.Shipping != nil {
			addr(r.Shipping)
		}
		for _, n := range r.Notes {
			f.add(n)
		}
		spans[i] = f.spans
	}
	return func(i int) *Order {
		src, c := &w.recs[i], newStrCursor(spans[i], w.enc[i])
		addr := func(a *Address) { a.Street, a.City, a.Zip, a.Country = c.next(), c.next(), c.next(), c.next() }
		v := &Order{ID: src.ID, Created: src.Created}
		v.Customer.ID = src.Customer.ID
		v.Customer.Name, v.Customer.Email = c.next(), c.next()
		addr(&v.Customer.Address)
		// An empty array is an empty slice, not nil, as decoders make
		// it (a zero-length make allocates nothing).
		v.Lines = make([]Line, len(src.Lines))
		ds := make([]Discount, discounts[i])
		for j := range src.Lines {
			s, l := &src.Lines[j], &v.Lines[j]
			l.SKU, l.Qty, l.Price = c.next(), s.Qty, s.Price
			n := len(s.Discounts)
			l.Discounts, ds = ds[:n:n], ds[n:]
			for k := range s.Discounts {
				l.Discounts[k] = Discount{Code: c.next(), Amount: s.Discounts[k].Amount}
			}
		}
		if src.Shipping != nil {
			v.Shipping = new(Address)
			addr(v.Shipping)
		}
		v.Notes = make([]string, len(src.Notes))
		for j := range v.Notes {
			v.Notes[j] = c.next()
		}
		return v
	}
}
