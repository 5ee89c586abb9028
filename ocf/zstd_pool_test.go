package ocf

import (
	"runtime"
	"testing"
)

// A zstd frame without a content size makes the streaming decoder keep a
// history of the window the frame declares: 64 MiB for 11 bytes here. A
// decoder that had read such a frame went back to the pool, so every
// Reader that met one held 64 MiB for good. The check of the frame's
// window that followed read the first frame only, and a small frame
// before the large one got past it. Pooled decoders now refuse windows
// over 4 MiB, and such a frame is read by a decoder of its own, closed
// after.
func TestZstdLargeWindowDecoderNotPooled(t *testing.T) {
	// Magic, no content size and not single-segment, a window descriptor,
	// one raw last block of 2 bytes.
	frame := func(window byte) []byte {
		return []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, window, 2<<3 | 1, 0, 0, 0x02, 'a'}
	}
	small, large := frame(0x00), frame(0x80) // 1 KiB and 64 MiB windows
	const limit = 128<<20 + 12345            // a limit no other test uses: its own pool
	for src, want := range map[string]string{string(large): "\x02a", string(small) + string(large): "\x02a\x02a"} {
		if out, err := newZstdCodec(0).Decompress(nil, []byte(src), limit); string(out) != want || err != nil {
			t.Fatalf("Decompress: %q, %v; want %q", out, err, want)
		}
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.HeapAlloc > 32<<20 {
		t.Errorf("%d MiB in use after decoding frames of a 64 MiB window: a decoder kept its history", m.HeapAlloc>>20)
	}
}
