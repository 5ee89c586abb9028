package varint_test

import (
	"errors"
	"fmt"

	"github.com/avrogo/avro/varint"
)

// Single values: zigzag varints, as Avro writes ints and longs.
func Example() {
	b := varint.AppendLong(nil, -3)
	b = varint.AppendLong(b, 300)
	fmt.Printf("% x\n", b)

	v, n := varint.Long(b)
	w, m := varint.Long(b[n:])
	fmt.Println(v, n, w, m)
	_, n = varint.Long([]byte{0x80}) // the value goes on past the input
	fmt.Println(n)
	// Output:
	// 05 d8 04
	// -3 1 300 2
	// 0
}

// DecodeLongs reads the items of an array block in one call, and says
// where the data went wrong.
func ExampleDecodeLongs() {
	src := varint.AppendLongs(nil, []int64{1, -1, 1 << 40})
	dst := make([]int64, 3)
	n, err := varint.DecodeLongs(dst, src)
	fmt.Println(dst, n, err)

	_, err = varint.DecodeLongs(make([]int64, 4), src)
	var de *varint.DecodeError
	fmt.Println(errors.As(err, &de), de.Index, de.Offset, errors.Is(err, varint.ErrTruncated))
	// Output:
	// [1 -1 1099511627776] 8 <nil>
	// true 3 8 true
}
