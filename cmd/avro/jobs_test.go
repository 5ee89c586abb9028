package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/avrogo/avro/ocf"
)

// TestJobsSameOutput checks that -j 4 prints what -j 1 prints, byte for
// byte, with the same errors and exit status, on intact and damaged files.
func TestJobsSameOutput(t *testing.T) {
	dir := workDir(t)
	t.Chdir(dir)
	// A file of many blocks, so that several are in flight, and the same
	// with a block in its middle garbled.
	many := writeReadings(t, 2000, ocf.CodecDeflate)
	if err := os.WriteFile(filepath.Join(dir, "many.avro"), many, 0o644); err != nil {
		t.Fatal(err)
	}
	offs := blockOffsets(t, many)
	bad := bytes.Clone(many)
	for i := offs[150] + 4; i < offs[150]+12; i++ {
		bad[i] ^= 0x5a
	}
	if err := os.WriteFile(filepath.Join(dir, "many-corrupt.avro"), bad, 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"readings.avro", "readings-deflate.avro", "weather-zstd.avro", "weather-snappy.avro",
		"many.avro", "many-corrupt.avro", "damaged.avro", "corrupt.avro", "cut.avro", "badrecord.avro"}
	for _, f := range files {
		for _, args := range [][]string{{"tojson", f}, {"tojson", "--plain", f}, {"tojson", "--head", "25", f},
			{"validate", f}, {"count", f}} {
			out1, err1, code1 := runAvro(append([]string{args[0], "-j", "1"}, args[1:]...), nil)
			out4, err4, code4 := runAvro(append([]string{args[0], "-j", "4"}, args[1:]...), nil)
			if !bytes.Equal(out1, out4) || !bytes.Equal(err1, err4) || code1 != code4 {
				t.Errorf("avro %v: -j 4 differs from -j 1:\nexit %d, stderr %q\nexit %d, stderr %q", args, code4, err4, code1, err1)
			}
			if len(out1) == 0 && code1 == 0 {
				t.Errorf("avro %v printed nothing", args)
			}
		}
	}
	// The corrupt block is reported, after the records before it.
	out, errb, code := runAvro([]string{"tojson", "-j", "4", "many-corrupt.avro"}, nil)
	if code != exitFail || !bytes.Contains(errb, []byte("block 150")) || bytes.Count(out, []byte("\n")) != 1500 {
		t.Errorf("many-corrupt.avro: exit %d, %d lines, stderr %q", code, bytes.Count(out, []byte("\n")), errb)
	}
}
