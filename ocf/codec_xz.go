package ocf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ulikunitz/xz"
	"github.com/ulikunitz/xz/lzma"
)

// xzCodec reads .xz streams with github.com/ulikunitz/xz. It cannot write.
//
// That library allocates each block's LZMA2 dictionary, whose size the
// block header declares (up to 4 GiB), before decoding. So before handing
// it the data, xzPrecheck walks the stream's index and block headers: the
// stream must be a single .xz stream, its index must add up to no more
// than the limit of uncompressed bytes, and no dictionary may exceed
// max(limit, 8 MiB) (8 MiB is the dictionary of the default preset, which
// liblzma and Python use whatever the input size).
type xzCodec struct{}

func (xzCodec) readOnly() {}

func (xzCodec) Compress(dst, src []byte) ([]byte, error) {
	return dst, fmt.Errorf("%w: xz can be read but not written", ErrUnsupportedCodec)
}

func (xzCodec) Decompress(dst, src []byte, limit int) ([]byte, error) {
	if err := xzPrecheck(src, limit, max(limit, 8<<20)); err != nil {
		return dst, err
	}
	r, err := xz.ReaderConfig{DictCap: lzma.MinDictCap, SingleStream: true}.NewReader(bytes.NewReader(src))
	if err != nil {
		return dst, err
	}
	return readLimited(dst, r, limit)
}

var errXZ = errors.New("malformed xz stream")

// xzVarint reads the xz multibyte integer at b[*pos:].
func xzVarint(b []byte, pos *int) (uint64, error) {
	var v uint64
	for i := 0; i < 9; i++ {
		if *pos >= len(b) {
			return 0, errXZ
		}
		c := b[*pos]
		*pos++
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if c == 0 && i > 0 {
				return 0, errXZ
			}
			return v, nil
		}
	}
	return 0, errXZ
}

func xzPrecheck(src []byte, limit, dictLimit int) error {
	const headerLen, footerLen = 12, 12
	if len(src) < headerLen+footerLen || !bytes.Equal(src[:6], []byte("\xfd7zXZ\x00")) ||
		!bytes.Equal(src[len(src)-2:], []byte("YZ")) {
		return errXZ
	}
	footer := src[len(src)-footerLen:]
	backward := (int64(binary.LittleEndian.Uint32(footer[4:8])) + 1) * 4
	indexStart := int64(len(src)) - footerLen - backward
	if indexStart < headerLen || src[indexStart] != 0 {
		return fmt.Errorf("%w (single stream expected)", errXZ)
	}
	idx := src[indexStart : len(src)-footerLen]
	pos := 1
	n, err := xzVarint(idx, &pos)
	if err != nil {
		return err
	}
	if n > uint64(len(idx)) {
		return errXZ
	}
	var total uint64
	blockPos := int64(headerLen)
	for i := uint64(0); i < n; i++ {
		unpadded, err := xzVarint(idx, &pos)
		if err != nil {
			return err
		}
		size, err := xzVarint(idx, &pos)
		if err != nil {
			return err
		}
		total += size
		if size > uint64(limit) || total > uint64(limit) {
			return limitError(limit)
		}
		if unpadded > uint64(len(src)) || blockPos >= indexStart {
			return errXZ
		}
		if err := xzCheckBlockHeader(src[blockPos:indexStart], dictLimit); err != nil {
			return err
		}
		blockPos += (int64(unpadded) + 3) &^ 3
	}
	if blockPos != indexStart {
		return fmt.Errorf("%w (blocks do not match the index)", errXZ)
	}
	return nil
}

func xzCheckBlockHeader(b []byte, dictLimit int) error {
	hlen := (int(b[0]) + 1) * 4
	if b[0] == 0 || hlen > len(b) {
		return errXZ
	}
	h := b[:hlen]
	flags := h[1]
	pos := 2
	if flags&0x40 != 0 {
		if _, err := xzVarint(h, &pos); err != nil {
			return err
		}
	}
	if flags&0x80 != 0 {
		if _, err := xzVarint(h, &pos); err != nil {
			return err
		}
	}
	for f := 0; f <= int(flags&3); f++ {
		id, err := xzVarint(h, &pos)
		if err != nil {
			return err
		}
		psize, err := xzVarint(h, &pos)
		if err != nil || psize > uint64(len(h)-pos) {
			return errXZ
		}
		props := h[pos : pos+int(psize)]
		pos += int(psize)
		if id == 0x21 { // LZMA2
			if len(props) != 1 || props[0] > 40 {
				return errXZ
			}
			c := uint64(props[0])
			dict := uint64(0xffffffff)
			if c < 40 {
				dict = (2 | c&1) << (c/2 + 11)
			}
			if dict > uint64(dictLimit) {
				return fmt.Errorf("%w: xz dictionary of %d bytes exceeds %d", ErrTooLarge, dict, dictLimit)
			}
		}
	}
	return nil
}
