package ocf

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/avrogo/avro"
)

// Each sentinel matches itself and the root sentinel its doc names, also
// once wrapped with detail, and no other: the sentinels are built by a
// helper so that go doc shows them as values, which must not change what
// errors.Is sees.
func TestSentinelsMatchTheirRootSentinel(t *testing.T) {
	roots := []error{avro.ErrInvalid, avro.ErrLimit, avro.ErrTruncated, avro.ErrRange, errors.ErrUnsupported}
	for _, tc := range []struct {
		err, root error
	}{
		{ErrBadMagic, avro.ErrInvalid},
		{ErrLegacyFormat, avro.ErrInvalid},
		{ErrInvalidHeader, avro.ErrInvalid},
		{ErrUnsupportedCodec, errors.ErrUnsupported},
		{ErrInvalidBlock, avro.ErrInvalid},
		{ErrCorruptBlock, avro.ErrInvalid},
		{ErrSyncMismatch, avro.ErrInvalid},
		{ErrTooLarge, avro.ErrLimit},
		{ErrTrailingData, avro.ErrInvalid},
		{ErrTruncated, io.ErrUnexpectedEOF},
	} {
		wrapped := fmt.Errorf("block 3 at offset 100: %w", tc.err)
		for _, e := range []error{tc.err, wrapped} {
			if !errors.Is(e, tc.err) || !errors.Is(e, tc.root) {
				t.Errorf("%v: errors.Is(itself) %v, errors.Is(%v) %v", e, errors.Is(e, tc.err), tc.root, errors.Is(e, tc.root))
			}
			for _, r := range roots {
				if r != tc.root && r != tc.err && errors.Is(e, r) {
					t.Errorf("%v matches %v too", e, r)
				}
			}
		}
		if !strings.HasPrefix(tc.err.Error(), "ocf: ") && tc.err != ErrTruncated {
			t.Errorf("%q does not start with ocf:", tc.err)
		}
	}
	if errors.Is(ErrInvalidBlock, ErrCorruptBlock) || errors.Is(ErrSyncMismatch, ErrInvalidBlock) {
		t.Error("distinct sentinels match each other")
	}
}
