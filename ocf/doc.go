// Package ocf reads and writes Avro object container files: a header
// (magic "Obj\x01", metadata with the schema and codec, a 16-byte sync
// marker) followed by blocks of records, each compressed by the file's
// codec and followed by the sync marker.
//
//	w, err := ocf.NewWriter(f, s, ocf.WithCodec(ocf.CodecZstandard))
//	for _, rec := range records {
//		if err := w.Encode(&rec); err != nil { ... }
//	}
//	err = w.Close() // flushes; does not close f
//
//	r, err := ocf.NewReader(f)
//	for r.Next() {
//		var rec Record
//		if err := r.Decode(&rec); err != nil { ... }
//	}
//	err = r.Err()
//
// Records are encoded and decoded by the root package (avro.Append,
// avro.UnmarshalNext), so every Go type it maps works here, value.Value
// and any included. The Reader decodes with the writer's schema, taken
// from the file, or, with WithReaderSchema, reads the records into the
// shape of a reader schema through schema resolution.
//
// # Codecs
//
// null, deflate (raw RFC 1951, klauspost/compress/flate), snappy (a
// snappy block and the big-endian CRC-32 of the uncompressed data, which
// is checked) and zstandard (klauspost/compress/zstd) read and write.
// bzip2 (compress/bzip2) and xz (github.com/ulikunitz/xz) are read only.
// Other codecs can be added with RegisterCodec.
//
// # Memory and hostile input
//
// The Reader holds one block at a time: the block as stored, its
// decompressed form, and a 64 KiB read buffer, so a file of any size
// reads in memory proportional to its largest block. Every size is
// checked before anything is allocated for it:
//
//   - the header may not exceed WithMaxHeaderSize (16 MiB), and metadata
//     lengths and counts are checked against what is left of it;
//   - a block's record count and byte size must not be negative, its size
//     may not exceed WithMaxBlockSize (64 MiB; stored and compressed, a
//     sixth and 1 KiB more, for data that does not compress), and its
//     count must fit in
//     its bytes: each record takes at least the schema's minimum encoded
//     size (schema.MinEncodedSize), and a schema whose records can take
//     zero bytes allows at most DecodeOptions.MaxZeroSizeItems (2^20)
//     records in a block, and in the file that many plus 64 a byte (the
//     Writer makes blocks of at most 1,024 such records, which always
//     read; other writers put all of them in one block);
//   - data is read in pieces as it arrives, so a size declared by a short
//     input does not allocate the declared amount;
//   - decompression stops with an error once the output passes the block
//     size limit (a deflate or zstd "bomb" never inflates past it), and
//     xz dictionaries are checked before the decoder allocates them;
//   - each record is decoded with the avro.DecodeOptions limits
//     (WithDecodeOptions).
//
// Errors wrap this package's sentinels (ErrBadMagic, ErrInvalidBlock,
// ErrSyncMismatch, ErrTooLarge, ...), which in turn match avro.ErrInvalid,
// avro.ErrLimit or avro.ErrTruncated, and name the block and its offset.
//
// # Policies for damaged files
//
//   - Sync markers are verified after every block. A block whose marker
//     does not match is an ErrSyncMismatch and none of its records are
//     returned.
//   - A file cut inside a block's data returns the records of the blocks
//     before it, then ErrTruncated. A file cut inside a block's sync
//     marker, after complete data, returns that block's records too,
//     provided the bytes of the marker that are there match, then
//     ErrTruncated (Avro's avro-1238-truncated.avro reads its 2 records,
//     then fails, as the C reader does).
//   - Bytes after the last block that are too short to be a block header
//     (the stray newline that ends Avro's person-10.no-codec.avro, or the
//     start of an append that was cut short) are an ErrTrailingData
//     reported after the last record, with their offset, as the Java,
//     Python and C readers fail on them; WithStrictTrailing(false) ignores
//     them, as avsc does. A complete block header followed by too little
//     data is always ErrTruncated.
//   - A block whose records do not use all its bytes is ErrInvalidBlock,
//     reported when the block is finished (its records were returned).
//   - A record that fails to decode stops the Reader: without it the
//     position of the next record is unknown.
//   - The legacy Avro 1.2 format (magic "Obj\x00") is rejected with
//     ErrLegacyFormat.
//   - An empty avro.codec value means "null", as an absent key does; a
//     duplicate metadata key is ErrInvalidHeader.
//
// # Writing
//
// Blocks are flushed when their uncompressed records reach the block size
// (WithBlockSize, 64 KiB by default) or the record count (WithBlockCount),
// and written with three Write calls each (its header, its data, the
// sync marker), so that the data is never copied to be framed. A Writer
// never makes a block larger than WithBlockLimit before compression (64
// MiB, the Reader's default limit, which allows for what compression
// adds). The header lists avro.schema (the schema's full JSON), avro.codec
// and the user metadata (WithMetadata). NewAppender continues an existing
// file.
//
// # Records and blocks without Go values
//
// Reader.Raw hands out the next record as its binary datum, for
// avrojson.BinaryToJSON or another file; Reader.ReadBlock a block's
// records decompressed, and Reader.ReadRawBlock a block as stored. On the
// writing side, Writer.EncodeRaw adds a datum, Writer.WriteBlock a block
// of datums (compressed with the Writer's codec) and Writer.WriteRawBlock a
// block compressed already, which is how files of one schema and codec
// are concatenated without recompressing. Datums given to a Writer are
// framed with its schema (their lengths, counts, union indexes and enum
// symbols checked), so that a file written from them reads; raw blocks
// are checked for their size and count only.
//
// # Large files: every core, splits, random access
//
// WithWorkers(n) decompresses a Reader's blocks, or compresses a Writer's,
// on n goroutines (0: every core), while records go in and come out in
// file order, with at most n+1 blocks in memory; Records decodes on the
// workers too. A parallel read gives the records and errors of a
// sequential one, and a parallel write is byte for byte the sequential
// one.
//
// NewSplitReader reads one byte range of a file, as a distributed engine's
// worker does: the blocks whose preceding sync marker starts in the range,
// which is Java's DataFileReader.sync and pastSync, and Hadoop's
// AvroRecordReader. The splits of any partition of a file read every
// record once; PlanSplits makes such a partition for n workers. Outside
// its range a split reads the header and the rest of its last block.
//
// Reader.Blocks lists a file's blocks without decoding them,
// Reader.SeekBlock moves to one by its offset, Reader.SeekLastBlock reads
// the last one without the rest, and WithFollow reads a file as it grows,
// as tail -f does. These need an io.Seeker.
package ocf
