package ocf

import (
	"errors"

	"github.com/avrogo/avro"
)

// ocfError is a sentinel error with its own message that also matches a
// root package sentinel (avro.ErrInvalid, avro.ErrLimit, ...) with
// errors.Is.
type ocfError struct {
	msg  string
	base error
}

func (e *ocfError) Error() string { return e.msg }
func (e *ocfError) Unwrap() error { return e.base }

// sentinel returns a sentinel error with message msg that also matches
// base. It is a function call, not a composite literal, so that go doc
// shows the sentinels as values rather than as an unexported type.
func sentinel(msg string, base error) error { return &ocfError{msg, base} }

// Sentinel errors. The Reader and Writer wrap them with detail (the block
// number and file offset), so test for them with errors.Is. Each also
// matches the root package sentinel named in its comment, so code that only
// distinguishes bad data (avro.ErrInvalid), exceeded limits (avro.ErrLimit)
// and truncation (avro.ErrTruncated, io.ErrUnexpectedEOF) needs nothing
// from this package.
var (
	// ErrBadMagic means the input does not start with the container magic
	// "Obj\x01". It matches avro.ErrInvalid.
	ErrBadMagic = sentinel("ocf: not an Avro object container file (bad magic)", avro.ErrInvalid)
	// ErrLegacyFormat means the input starts with "Obj\x00", the container
	// format of Avro 1.2 and older, which the specification no longer
	// describes and this package does not read. It matches avro.ErrInvalid.
	ErrLegacyFormat = sentinel(`ocf: legacy pre-1.3 Avro container (magic "Obj\x00") is not supported`, avro.ErrInvalid)
	// ErrInvalidHeader means the file metadata is malformed: a negative
	// length, a duplicate key, no avro.schema, a schema that does not
	// parse. It matches avro.ErrInvalid.
	ErrInvalidHeader = sentinel("ocf: invalid file header", avro.ErrInvalid)
	// ErrUnsupportedCodec means the file names a codec that is not
	// registered, or that the codec cannot write (bzip2, xz). It matches
	// errors.ErrUnsupported.
	ErrUnsupportedCodec = sentinel("ocf: unsupported codec", errors.ErrUnsupported)
	// ErrInvalidBlock means a block header or its records are malformed: a
	// negative record count or byte size, more records than the block's
	// bytes can hold, bytes left after the last record. It matches
	// avro.ErrInvalid.
	ErrInvalidBlock = sentinel("ocf: invalid block", avro.ErrInvalid)
	// ErrCorruptBlock means a block does not decompress (corrupt
	// compressed data, a snappy CRC mismatch). It matches avro.ErrInvalid.
	ErrCorruptBlock = sentinel("ocf: corrupt compressed block", avro.ErrInvalid)
	// ErrSyncMismatch means the 16 bytes after a block are not the file's
	// sync marker: the file is corrupt or not framed as its header says.
	// It matches avro.ErrInvalid.
	ErrSyncMismatch = sentinel("ocf: sync marker mismatch", avro.ErrInvalid)
	// ErrTooLarge means the header, its schema or a block (compressed, or
	// once decompressed) is larger than the Reader's limits, or a record is
	// larger than the Writer's maximum block size. It matches avro.ErrLimit.
	ErrTooLarge = sentinel("ocf: size exceeds limit", avro.ErrLimit)
	// ErrTrailingData means bytes follow the last block that do not form a
	// block. The Reader reports it after the last record unless
	// WithStrictTrailing(false); NewAppender refuses to append after them.
	// It matches avro.ErrInvalid.
	ErrTrailingData = sentinel("ocf: data after the last block", avro.ErrInvalid)
	// ErrTruncated means the input ends inside the header or a block. It
	// is avro.ErrTruncated (which matches io.ErrUnexpectedEOF).
	ErrTruncated = avro.ErrTruncated
	// ErrClosed is returned by a Writer's methods after Close, and by a
	// Reader's reads after Close.
	ErrClosed = errors.New("ocf: closed")
)
