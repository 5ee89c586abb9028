package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/avrogo/avro"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/value"
)

var repairCmd = &command{
	name:  "repair",
	args:  "IN [OUT|-]",
	short: "copy the intact records of a damaged container file",
	long: `Repair reads the damaged container file IN block by block and writes the
records that read to OUT (- for standard output), as avro-tools repair
(DataFileRepairTool) does. Where a block is bad (its sync marker does not
follow it, its data does not decompress, its count or size is wrong, or a
record does not decode), the records of that block before the bad one
are kept, and reading goes on at the next sync marker found after the
block's start, as a distributed reader resynchronises a split. It then
reports what was lost and where, on standard error.

--mode chooses what is written: all (the records before and after every
damaged part, the default), prior (the records before the first damaged
part), after (the records after it), or report (nothing written: only the
report, on standard output, and OUT is not needed). --report is
--mode report. The output has the input's schema, codec and user
metadata. The exit status is 0 when the file had no damage, 1 when it
had some (whatever was recovered).`,
	flags: func(fs *flag.FlagSet, e *env) func(context.Context, []string) error {
		mode := fs.String("mode", "all", "what to write: all, prior, after or report")
		report := fs.Bool("report", false, "only report the damage (--mode report)")
		quiet := fs.Bool("quiet", false, "draw no progress line")
		return func(ctx context.Context, args []string) error {
			if *report {
				*mode = "report"
			}
			switch *mode {
			case "all", "prior", "after", "report":
			default:
				return usagef("unknown --mode %q: want all, prior, after or report", *mode)
			}
			want := 2
			if *mode == "report" {
				want = 1
			}
			if len(args) != want {
				if want == 1 {
					return usagef("want the input file only with --mode report")
				}
				return usagef("want an input file and an output")
			}
			if args[0] == "-" {
				return usagef("repair reads a file: it goes back to look for sync markers, which standard input cannot")
			}
			f, err := os.Open(args[0])
			if err != nil {
				return err
			}
			defer func() { _ = f.Close() }()
			fi, err := f.Stat()
			if err != nil {
				return err
			}
			rp := &repairer{name: args[0], f: f, size: fi.Size(), mode: *mode}
			var out *output
			if *mode != "report" {
				if out, err = e.createOutput(args[1], args[0]); err != nil {
					return err
				}
			}
			p := e.startProgress(*quiet, *mode == "report" || args[1] == "-", fi.Size())
			err = rp.run(ctx, p, out)
			p.stop()
			var w *ocf.Writer
			if rp.w != nil {
				w = rp.w
			}
			if err = finishWriter(w, out, err); err != nil {
				return inFile(args[0], err)
			}
			where := e.stderr
			if *mode == "report" {
				where = e.stdout
			}
			say(where, "%s", rp.summary())
			if len(rp.damage) > 0 {
				return errSilent
			}
			return nil
		}
	},
}

// A repairer walks a damaged file, resynchronising on its sync marker.
type repairer struct {
	name string
	f    io.ReaderAt
	size int64
	mode string

	header []byte // the file's header, magic to sync marker
	sync   [ocf.SyncSize]byte
	w      *ocf.Writer

	blocks, records int64 // intact blocks, and the records that read
	written         int64 // records written, as the mode says
	damage          []damage
}

// damage is one damaged part of the file: from the start of a bad block
// to where reading went on.
type damage struct {
	offset, resumed int64 // resumed is the size of the file when nothing follows
	records         int64 // records of the bad block that were kept
	lost            int64 // records the bad block's header counted and were not kept, when known
	reason          string
}

func (rp *repairer) run(ctx context.Context, p *progress, out *output) error {
	r, err := ocf.NewReader(io.NewSectionReader(rp.f, 0, rp.size))
	if err != nil {
		return fmt.Errorf("the header is damaged, so nothing can be read: %w", err)
	}
	hlen := r.Offset()
	rp.header = make([]byte, hlen)
	if _, err := rp.f.ReadAt(rp.header, 0); err != nil {
		return err
	}
	rp.sync = r.SyncMarker()
	if out != nil {
		h := headerOf(r)
		opts := append(h.writerOptions(), ocf.WithCodec(h.codec), ocf.WithSyncMarker(rp.sync))
		if rp.w, err = ocf.NewWriter(out, h.s, opts...); err != nil {
			return err
		}
	}
	start := hlen
	for start < rp.size {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.setBytes(start)
		next, err := rp.section(start, hlen)
		if err != nil {
			return err
		}
		start = next
	}
	return nil
}

// keep reports whether records read before (or after) the first damage
// are written.
func (rp *repairer) keep() bool {
	switch rp.mode {
	case "prior":
		return len(rp.damage) == 0
	case "after":
		return len(rp.damage) > 0
	}
	return rp.mode == "all"
}

// section reads the blocks from offset start on, through a Reader that
// sees the file's header followed by the file from start, until a bad
// block or the end. It returns where to go on: the end of the file, or
// the first byte after a sync marker past the bad block's start.
func (rp *repairer) section(start, hlen int64) (int64, error) {
	src := io.MultiReader(bytes.NewReader(rp.header), io.NewSectionReader(rp.f, start, rp.size-start))
	r, err := ocf.NewReader(src)
	if err != nil {
		return 0, err
	}
	// The Reader's offsets count the header, which the file has once,
	// before start.
	at := func(off int64) int64 { return off - hlen + start }
	var v value.Value
	for {
		before := at(r.Offset())
		b, err := r.ReadBlock()
		if err == io.EOF {
			return rp.size, nil
		}
		if err != nil {
			d := damage{offset: before, reason: why(err)}
			switch {
			case errors.Is(err, ocf.ErrTruncated), errors.Is(err, ocf.ErrTrailingData):
				// Nothing follows the bad part but its own bytes.
				d.resumed = rp.size
			case errors.Is(err, ocf.ErrSyncMismatch):
				// The block's data ended where its header says, and the
				// 16 bytes after it are not the marker: if they were
				// garbled in place, the next block starts right after
				// them. If not, that block is bad too, and the search
				// below takes over from there.
				d.resumed = at(r.Offset())
			default:
				d.resumed = rp.findSync(before + 1)
			}
			rp.damage = append(rp.damage, d)
			return d.resumed, nil
		}
		kept, n, err := rp.decodable(b, r, &v)
		if kept > 0 && rp.keep() {
			if werr := rp.w.WriteBlock(ocf.Block{BlockInfo: ocf.BlockInfo{Count: kept}, Data: b.Data[:n]}); werr != nil {
				return 0, werr
			}
			rp.written += kept
		}
		rp.records += kept
		if err != nil {
			resume := rp.findSync(at(b.Offset) + 1)
			rp.damage = append(rp.damage, damage{offset: at(b.Offset), resumed: resume, records: kept, lost: b.Count - kept, reason: why(err)})
			return resume, nil
		}
		rp.blocks++
	}
}

// decodable decodes the records of a block into v one by one, and returns
// how many decode before the first that does not (or before bytes that
// no record accounts for), the length of their data, and what stopped
// them.
func (rp *repairer) decodable(b ocf.Block, r *ocf.Reader, v *value.Value) (kept int64, n int, err error) {
	rest := b.Data
	for kept < b.Count {
		next, err := avro.UnmarshalNext(r.Schema(), rest, v)
		if err != nil {
			return kept, n, fmt.Errorf("record %d of the block: %w", kept, err)
		}
		n += len(rest) - len(next)
		rest = next
		kept++
	}
	if len(rest) > 0 {
		return kept, n, fmt.Errorf("%d bytes after the block's %d records", len(rest), b.Count)
	}
	return kept, n, nil
}

// why says what is wrong with a block, without the offsets and block
// numbers of the Reader's messages, which count from where reading went
// on rather than from the start of the file.
func why(err error) string {
	for _, sentinel := range []error{ocf.ErrSyncMismatch, ocf.ErrCorruptBlock, ocf.ErrInvalidBlock, ocf.ErrTooLarge, ocf.ErrTrailingData} {
		if errors.Is(err, sentinel) {
			return strings.TrimPrefix(sentinel.Error(), "ocf: ")
		}
	}
	if errors.Is(err, ocf.ErrTruncated) {
		return "the file ends inside the block"
	}
	return err.Error()
}

// findSync returns the offset just after the first sync marker that
// starts at or after from, or the size of the file when there is none.
// It reads the file in pieces, so memory does not grow with the distance.
func (rp *repairer) findSync(from int64) int64 {
	const piece = 64 << 10
	buf := make([]byte, piece+ocf.SyncSize-1)
	for off := from; off < rp.size; off += piece {
		n, _ := rp.f.ReadAt(buf[:min(int64(len(buf)), rp.size-off)], off)
		if i := bytes.Index(buf[:n], rp.sync[:]); i >= 0 {
			return off + int64(i) + ocf.SyncSize
		}
	}
	return rp.size
}

func (rp *repairer) summary() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s: %s read, in %s", rp.name, plural(rp.records, "record"), plural(rp.blocks, "intact block"))
	if rp.mode != "report" {
		fmt.Fprintf(&b, "; %d written", rp.written)
	}
	if len(rp.damage) == 0 {
		b.WriteString("; no damage found\n")
		return b.String()
	}
	fmt.Fprintf(&b, "; %s:\n", plural(int64(len(rp.damage)), "damaged part"))
	for _, d := range rp.damage {
		fmt.Fprintf(&b, "  bytes %d to %d: %s", d.offset, d.resumed, d.reason)
		if d.records > 0 {
			fmt.Fprintf(&b, " (%s of the block read)", plural(d.records, "record"))
		}
		if d.lost > 0 {
			fmt.Fprintf(&b, "; %s lost", plural(d.lost, "record"))
		}
		b.WriteByte('\n')
	}
	return b.String()
}
