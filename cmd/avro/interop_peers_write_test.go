package main

import (
	"os"
	"strings"
	"testing"

	"github.com/avrogo/avro/schema"
)

// The files that fromjson, cat, concat, recodec, random and repair write
// are read back by Python and avsc (each with the codecs it has) with the
// records avro tojson prints.
func TestInteropPeersReadCommands(t *testing.T) {
	s := schema.MustParse(richSchema)
	t.Chdir(t.TempDir())
	if err := os.WriteFile("rich.avsc", []byte(richSchema), 0o644); err != nil {
		t.Fatal(err)
	}
	avro := func(args ...string) {
		t.Helper()
		if _, errb, code := runAvro(args, nil); code != exitOK {
			t.Fatalf("avro %s: exit %d: %s", strings.Join(args, " "), code, errb)
		}
	}
	// The sources: random records, whose longs span 64 bits and whose
	// strings mix scripts, in one block each.
	avro("random", "--schema", "rich.avsc", "--count", "150", "--seed", "5", "rich.avro")
	avro("random", "--schema", "rich.avsc", "--count", "90", "--seed", "6", "--codec", "deflate", "rich-deflate.avro")
	text, errb, code := runAvro([]string{"tojson", "rich.avro"}, nil)
	if code != exitOK {
		t.Fatalf("avro tojson rich.avro: exit %d: %s", code, errb)
	}
	if err := os.WriteFile("rich.json", text, 0o644); err != nil {
		t.Fatal(err)
	}
	// damaged.avro: three blocks, the sync marker after the second one
	// changed, so that repair loses a block.
	avro("concat", "rich.avro", "rich.avro", "rich.avro", "blocks.avro")
	blocks, err := os.ReadFile("blocks.avro")
	if err != nil {
		t.Fatal(err)
	}
	offs := blockOffsets(t, blocks)
	if len(offs) != 3 {
		t.Fatalf("blocks.avro has %d blocks, want 3", len(offs))
	}
	blocks[offs[2]-1] ^= 0xff
	if err := os.WriteFile("damaged.avro", blocks, 0o644); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		codec string // of the file written
		args  []string
	}{
		{"null", []string{"fromjson", "--schema", "rich.avsc", "rich.json", "fromjson.avro"}},
		{"deflate", []string{"fromjson", "--schema", "rich.avsc", "--codec", "deflate", "--level", "9", "rich.json", "fromjson-deflate.avro"}},
		{"snappy", []string{"fromjson", "--schema", "rich.avsc", "--codec", "snappy", "rich.json", "fromjson-snappy.avro"}},
		{"null", []string{"cat", "rich.avro", "rich-deflate.avro", "cat.avro"}},
		{"deflate", []string{"cat", "--offset", "7", "--limit", "100", "--codec", "deflate", "rich.avro", "rich-deflate.avro", "cat-deflate.avro"}},
		{"deflate", []string{"cat", "rich-deflate.avro", "rich.avro", "cat-first.avro"}},
		{"null", []string{"cat", "--samplerate", "0.5", "rich.avro", "rich-deflate.avro", "cat-sampled.avro"}},
		{"null", []string{"concat", "rich.avro", "rich-deflate.avro", "concat.avro"}},
		{"deflate", []string{"concat", "rich-deflate.avro", "rich-deflate.avro", "concat-deflate.avro"}},
		{"deflate", []string{"recodec", "--codec", "deflate", "rich.avro", "recodec-deflate.avro"}},
		{"null", []string{"recodec", "--codec", "null", "rich-deflate.avro", "recodec-null.avro"}},
		{"zstandard", []string{"recodec", "--codec", "zstandard", "rich-deflate.avro", "recodec-zstandard.avro"}},
		{"snappy", []string{"recodec", "--codec", "snappy", "rich.avro", "recodec-snappy.avro"}},
		{"deflate", []string{"random", "--schema", "rich.avsc", "--count", "200", "--seed", "9", "--codec", "deflate", "random.avro"}},
		{"null", []string{"random", "--schema", "rich.avsc", "--count", "200", "--seed", "10", "random-null.avro"}},
		{"null", []string{"repair", "damaged.avro", "repair.avro"}},
	} {
		file := tc.args[len(tc.args)-1]
		t.Run(strings.TrimSuffix(file, ".avro"), func(t *testing.T) {
			// repair exits 1 when it found damage, as it does here.
			if _, errb, code := runAvro(tc.args, nil); code != exitOK && (tc.args[0] != "repair" || code != exitFail) {
				t.Fatalf("avro %s: exit %d: %s", strings.Join(tc.args, " "), code, errb)
			}
			if meta, _, _ := runAvro([]string{"getmeta", "--key", "avro.codec", file}, nil); strings.TrimSpace(string(meta)) != tc.codec {
				t.Fatalf("%s: codec %q, want %s", file, meta, tc.codec)
			}
			ours := tojson(t, file)
			if len(ours) < 50 {
				t.Fatalf("%s: %d records", file, len(ours))
			}
			read := 0
			for _, p := range peers {
				if !p.canRead(tc.codec) {
					continue
				}
				p.need(t)
				sameValues(t, s, file, "avro tojson", ours, specJSON, p.name, p.read(t, file), p.style)
				read++
			}
			if read == 0 {
				t.Fatalf("no peer reads %s", tc.codec)
			}
		})
	}
}
