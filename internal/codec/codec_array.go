package codec

import (
	"math"
	"reflect"

	"github.com/modern-go/reflect2"

	"github.com/avrogo/avro/internal/skip"
	"github.com/avrogo/avro/schema"
)

// sliceDecoder decodes an array into a Go slice, reusing the slice's
// storage when it is large enough (as encoding/json does). An empty array
// decodes to an empty, non-nil slice, so that it stays distinct from null.
type sliceDecoder struct {
	typ      reflect2.SliceType
	elemSize uintptr
	minSize  int
	elem     decoder
}

func (c *sliceDecoder) decode(p pointer, d *decodeState) {
	if !d.Enter() {
		return
	}
	sh := as[sliceHeader](p)
	n := 0
	for {
		count, blk := d.ReadBlock(int64(n), c.minSize)
		if count == 0 {
			break
		}
		newLen := n + int(count)
		if !growSlice(c.typ, c.elemSize, p, n, newLen, d) {
			d.EndBlock(blk)
			return
		}
		for i := n; i < newLen; i++ {
			c.elem.decode(sh.data.add(uintptr(i)*c.elemSize), d)
			if d.Err != nil {
				d.EndBlock(blk)
				d.MoreItems(int64(i), int64(newLen), c.minSize)
				d.AddIndex(int64(i))
				return
			}
		}
		if !d.EndBlock(blk) {
			return
		}
		n = newLen
	}
	if d.Err != nil {
		return
	}
	finishSlice(p, n)
	d.Leave()
}

// growSlice makes the slice at p at least newLen long, keeping its first n
// elements. The new array is charged to the allocation limit whole, before
// it is made: the arrays it replaces were charged when they were made. (An
// array of many one-item blocks, charged only for each growth, allocated
// five times what it was charged, as 1.25x growth makes arrays again and
// again.)
func growSlice(t reflect2.SliceType, elemSize uintptr, p pointer, n, newLen int, d *decodeState) bool {
	sh := as[sliceHeader](p)
	if newLen <= sh.cap {
		sh.len = newLen
		return true
	}
	if !d.ReserveItems(int64(grownCap(sh.cap, newLen)), int64(elemSize)) {
		return false
	}
	sh.len = n
	unsafeGrow(t, p, newLen)
	return true
}

// grownCap is the capacity reflect2's UnsafeGrow gives a slice of capacity
// c grown to length n > c: n from nothing, else c doubled, then (from
// 1024) grown by a quarter, until it holds n. TestGrownCapIsReflect2s
// checks it against UnsafeGrow.
func grownCap(c, n int) int {
	if c == 0 {
		return n
	}
	for c < n {
		if c > math.MaxInt/2 {
			return math.MaxInt // past any budget: the charge fails
		}
		if c < 1024 {
			c += c
		} else {
			c += c / 4
		}
	}
	return c
}

// finishSlice sets the final length, giving an empty array a non-nil
// empty slice.
func finishSlice(p pointer, n int) {
	sh := as[sliceHeader](p)
	if n == 0 && sh.data.isNil() {
		// What make([]T, 0) returns, with no allocation: a pointer to a
		// zero-size object, which the first append replaces.
		sh.data = pointerTo(&zeroSized)
		return
	}
	sh.len = n
}

// zeroSized is the data of empty decoded slices.
var zeroSized struct{}

// sliceEncoder encodes a Go slice as one block.
type sliceEncoder struct {
	elemSize uintptr
	elem     encoder
}

func (c *sliceEncoder) encode(p pointer, e *encodeState) {
	sh := as[sliceHeader](p)
	if !e.Enter() {
		return
	}
	if sh.len > 0 {
		e.WriteLong(int64(sh.len))
		for i := 0; i < sh.len; i++ {
			c.elem.encode(sh.data.add(uintptr(i)*c.elemSize), e)
			if e.Err != nil {
				e.AddIndex(i)
				return
			}
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
}

// goArrayDecoder decodes an array into a Go array type: more items than
// the array holds is ErrRange, fewer leave the rest zero.
type goArrayDecoder struct {
	length   int
	elemSize uintptr
	minSize  int
	elem     decoder
	zero     func(p pointer, from int)
}

func (c *goArrayDecoder) decode(p pointer, d *decodeState) {
	if !d.Enter() {
		return
	}
	n := 0
	for {
		count, blk := d.ReadBlock(int64(n), c.minSize)
		if count == 0 {
			break
		}
		if count > int64(c.length-n) {
			d.EndBlock(blk)
			d.Failf(ErrRange, "more than %d items for a Go array", c.length)
			return
		}
		for i := n; i < n+int(count); i++ {
			c.elem.decode(p.add(uintptr(i)*c.elemSize), d)
			if d.Err != nil {
				d.EndBlock(blk)
				d.AddIndex(int64(i))
				return
			}
		}
		if !d.EndBlock(blk) {
			return
		}
		n += int(count)
	}
	if d.Err != nil {
		return
	}
	c.zero(p, n)
	d.Leave()
}

type goArrayEncoder struct {
	length   int
	elemSize uintptr
	elem     encoder
}

func (c *goArrayEncoder) encode(p pointer, e *encodeState) {
	if !e.Enter() {
		return
	}
	if c.length > 0 {
		e.WriteLong(int64(c.length))
		for i := 0; i < c.length; i++ {
			c.elem.encode(p.add(uintptr(i)*c.elemSize), e)
			if e.Err != nil {
				e.AddIndex(i)
				return
			}
		}
	}
	e.Buf = append(e.Buf, 0)
	e.Leave()
}

func (c *compiler) arrayDecoder(s *schema.Schema, t reflect.Type, path string) (decoder, error) {
	items := s.Items()
	switch t.Kind() {
	case reflect.Slice:
		if dec := fastSliceDecoder(items, t); dec != nil {
			return dec, nil
		}
		elem, err := c.decoderFor(items, t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		return &sliceDecoder{typ: reflect2.Type2(t).(reflect2.SliceType), elemSize: t.Elem().Size(), minSize: skip.ItemSize(items), elem: elem}, nil
	case reflect.Array:
		elem, err := c.decoderFor(items, t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		at := t
		return &goArrayDecoder{length: t.Len(), elemSize: t.Elem().Size(), minSize: skip.ItemSize(items), elem: elem,
			zero: func(p pointer, from int) {
				v := valueAt(at, p).Elem()
				for i := from; i < at.Len(); i++ {
					v.Index(i).SetZero()
				}
			}}, nil
	}
	return nil, typeErr(path, t, s, "an array maps to a slice or a Go array")
}

func (c *compiler) arrayEncoder(s *schema.Schema, t reflect.Type, path string) (encoder, error) {
	items := s.Items()
	switch t.Kind() {
	case reflect.Slice:
		if enc := fastSliceEncoder(items, t); enc != nil {
			return enc, nil
		}
		elem, err := c.encoderFor(items, t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		return &sliceEncoder{elemSize: t.Elem().Size(), elem: elem}, nil
	case reflect.Array:
		elem, err := c.encoderFor(items, t.Elem(), path+"[]")
		if err != nil {
			return nil, err
		}
		return &goArrayEncoder{length: t.Len(), elemSize: t.Elem().Size(), elem: elem}, nil
	}
	return nil, typeErr(path, t, s, "an array maps to a slice or a Go array")
}
