package ocf

import "testing"

// A zstd frame without a content size makes the streaming decoder keep a
// history of the window the frame declares: 64 MiB for 11 bytes here. The
// decoder was pooled because its output was small, so every reader that
// met such a block held 64 MiB for good; now it is closed.
func TestZstdLargeWindowDecoderNotPooled(t *testing.T) {
	// Magic, no content size and not single-segment, window descriptor
	// 0x80 (2^26), one raw last block of 2 bytes.
	frame := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x80, 2<<3 | 1, 0, 0, 0x02, 'a'}
	if w := zstdWindow(frame); w != 64<<20 {
		t.Fatalf("window %d, want 64 MiB", w)
	}
	const limit = 128<<20 + 12345 // a limit no other test uses: its own pool
	out, err := newZstdCodec(0).Decompress(nil, frame, limit)
	if err != nil || string(out) != "\x02a" {
		t.Fatalf("Decompress: %q, %v", out, err)
	}
	if d := zstdPool(limit).Get(); d != nil {
		t.Error("the decoder of a 64 MiB window was pooled")
	}
	small := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 2<<3 | 1, 0, 0, 0x02, 'a'} // 1 KiB window
	if w := zstdWindow(small); w != 1<<10 {
		t.Errorf("window %d, want 1 KiB", w)
	}
	if w := zstdWindow([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x80}); w != 0 {
		t.Errorf("single-segment frame: window %d, want 0", w)
	}
}
