// Command clispeed measures the avro command against the other tools
// that print container files as JSON, whole processes side by side: it
// writes files of the benchmarks' telemetry records (a large deflate and
// a large zstandard one, and small ones for the slow tools), builds the
// avro command and a Java program that reads with DataFileReader and
// writes with JsonEncoder (what avro-tools tojson runs), then runs each
// command line several times, the rows of a round one after another, and
// prints the median wall time, the throughput in megabytes of file per
// second and the peak resident memory of each as a markdown table.
//
//	cd bench && go run ./cmd/clispeed                  # 200 MB and 20 MB files, 5 rounds
//	go run ./cmd/clispeed -size 50 -small 5 -runs 3    # a quicker look
//	go run ./cmd/clispeed -dir /tmp/cli -keep          # keep the files for another run
//
// It needs /usr/bin/time (GNU time), avrocat (Debian's avro-bin), Python's avro command
// (python3-avro, at /usr/bin/avro), java, javac and the jars of
// libavro-java in /usr/share/java; a tool that is missing, or that cannot
// read a codec, gets a row that says so.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/avrogo/avro/bench"
	"github.com/avrogo/avro/ocf"
	"github.com/avrogo/avro/schema"
)

func main() {
	size := flag.Int64("size", 200, "the size of the large files, in `MB` (10^6 bytes)")
	small := flag.Int64("small", 20, "the size of the files the slow tools (Java, Python) read, in `MB`")
	runs := flag.Int("runs", 5, "rounds of every command line; the table shows medians")
	slowRuns := flag.Int("slow-runs", 3, "rounds of the slow tools' command lines")
	dir := flag.String("dir", "", "where to write the files and binaries (default: a temporary folder)")
	keep := flag.Bool("keep", false, "keep the folder, and reuse files of the right size in it")
	flag.Parse()
	if err := run(*dir, *keep, *size*1e6, *small*1e6, *runs, *slowRuns); err != nil {
		fmt.Fprintln(os.Stderr, "clispeed:", err)
		os.Exit(1)
	}
}

// A row is one command line of the table.
type row struct {
	group, name string
	// file is the file the line reads, whose size the throughput is of.
	file string
	argv []string
	// shell runs argv[0] with sh -c: a pipeline.
	shell bool
	slow  bool
	// skip says why the row is not run.
	skip string

	times []time.Duration
	rss   []int64 // bytes
	err   error
}

func run(dir string, keep bool, size, small int64, runs, slowRuns int) error {
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "clispeed-"); err != nil {
			return err
		}
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if !keep {
		defer func() { _ = os.RemoveAll(dir) }()
	}
	avroBin := filepath.Join(dir, "avro")
	step("building the avro command")
	if out, err := exec.Command("go", "build", "-C", "..", "-o", avroBin, "./cmd/avro").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	files := map[string]string{}
	for _, c := range []struct {
		codec, key string
		size       int64
	}{
		{ocf.CodecDeflate, "deflate", size},
		{ocf.CodecZstandard, "zstandard", size},
		{ocf.CodecDeflate, "deflate-small", small},
		{ocf.CodecZstandard, "zstandard-small", small},
	} {
		name := filepath.Join(dir, fmt.Sprintf("telemetry-%s-%dMB.avro", c.codec, c.size/1e6))
		files[c.key] = name
		if fi, err := os.Stat(name); keep && err == nil && fi.Size() >= c.size {
			continue
		}
		step("writing %s", name)
		if err := writeTelemetry(name, c.codec, c.size); err != nil {
			return err
		}
	}
	javaCP, javaErr := buildJava(dir)

	var rows []*row
	for _, codec := range []string{"deflate", "zstandard"} {
		big, sm := files[codec], files[codec+"-small"]
		g := "tojson, " + codec
		rows = append(rows,
			&row{group: g, name: "avro tojson -j 1", file: big, argv: []string{avroBin, "tojson", "-j", "1", big}},
			&row{group: g, name: "avro tojson", file: big, argv: []string{avroBin, "tojson", big}},
			&row{group: g, name: "avrocat", file: big, argv: []string{"avrocat", big}},
			&row{group: g, name: "avro tojson (small file)", file: sm, argv: []string{avroBin, "tojson", sm}},
			&row{group: g, name: "Java DataFileReader+JsonEncoder (small file)", file: sm, slow: true,
				argv: []string{"java", "-cp", javaCP, "ToJSON", sm}},
			&row{group: g, name: "Python avro cat --format json (small file)", file: sm, slow: true,
				argv: []string{"/usr/bin/avro", "cat", "--format", "json", sm}},
			// Python's JSON output fails on timestamp logical types; its
			// CSV output decodes the same records.
			&row{group: g, name: "Python avro cat --format csv (small file)", file: sm, slow: true,
				argv: []string{"/usr/bin/avro", "cat", "--format", "csv", sm}},
		)
		g = "count, " + codec
		rows = append(rows,
			&row{group: g, name: "avro count", file: big, argv: []string{avroBin, "count", big}},
			&row{group: g, name: "avrocat | wc -l", file: big, shell: true, argv: []string{"avrocat '" + big + "' | wc -l"}},
		)
	}
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r.name, "Java") && javaErr != nil:
			r.skip = javaErr.Error()
		case strings.HasPrefix(r.name, "Java") && strings.Contains(r.group, "zstandard"):
			r.skip = "Avro Java 1.8.2 has no zstandard codec"
		}
	}
	for _, r := range rows {
		if r.skip != "" {
			continue
		}
		// A first run checks that the tool reads the file, and warms the
		// page cache.
		if _, _, err := measure(r); err != nil {
			r.skip = err.Error()
		}
	}
	for i := range max(runs, slowRuns) {
		step("round %d", i+1)
		for _, r := range rows {
			if r.skip != "" || i >= runs && !r.slow || i >= slowRuns && r.slow {
				continue
			}
			d, rss, err := measure(r)
			if err != nil {
				r.err = err
				continue
			}
			r.times, r.rss = append(r.times, d), append(r.rss, rss)
		}
	}
	printTable(os.Stdout, rows)
	return nil
}

func step(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "clispeed: "+format+"\n", args...)
}

// writeTelemetry writes a container file of telemetry records of the
// codec, of at least size bytes, with the writer's default blocks.
func writeTelemetry(name, codec string, size int64) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	cw := &countingWriter{w: bufio.NewWriterSize(f, 1<<20)}
	w, err := ocf.NewWriter(cw, schema.MustParse(bench.TelemetrySchema), ocf.WithCodec(codec))
	if err != nil {
		return err
	}
	r := bench.NewRand(99)
	for cw.n < size {
		for range 1000 {
			s := bench.GenTelemetry(r)
			if err := w.Encode(&s); err != nil {
				return err
			}
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := cw.w.(*bufio.Writer).Flush(); err != nil {
		return err
	}
	return f.Close()
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// buildJava compiles ToJSON.java and returns the class path that runs it.
func buildJava(dir string) (string, error) {
	var jars []string
	for _, j := range []string{"avro", "avro-guava-dependencies", "jackson-core-asl", "jackson-mapper-asl",
		"paranamer", "snappy-java", "commons-compress", "xz", "slf4j-api", "slf4j-nop"} {
		jars = append(jars, "/usr/share/java/"+j+".jar")
	}
	classes := filepath.Join(dir, "java")
	if err := os.MkdirAll(classes, 0o755); err != nil {
		return "", err
	}
	cp := strings.Join(append(jars, classes), ":")
	if out, err := exec.Command("javac", "-nowarn", "-cp", cp, "-d", classes, "cmd/clispeed/ToJSON.java").CombinedOutput(); err != nil {
		return "", fmt.Errorf("javac: %v: %s", err, bytes.TrimSpace(out))
	}
	return cp, nil
}

// measure runs a row's command line once, its output thrown away, and
// returns its wall time and peak resident memory.
func measure(r *row) (time.Duration, int64, error) {
	// A child's peak resident memory is reported by /usr/bin/time: the
	// rusage of a child forked by this process starts from its own.
	rssFile := filepath.Join(os.TempDir(), fmt.Sprintf("clispeed-rss-%d", os.Getpid()))
	defer func() { _ = os.Remove(rssFile) }()
	argv := r.argv
	if r.shell {
		argv = []string{"bash", "-o", "pipefail", "-c", r.argv[0] + " >/dev/null"}
	}
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "%M", "-o", rssFile}, argv...)...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	if !r.shell {
		devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			return 0, 0, err
		}
		defer func() { _ = devnull.Close() }()
		cmd.Stdout = devnull
	}
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err == nil && stderr.Len() > 0 && !r.shell {
		// Tools that fail to read a codec do not all exit non-zero.
		err = errors.New("wrote to stderr")
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		return 0, 0, fmt.Errorf("%v: %.120s", err, msg)
	}
	text, err := os.ReadFile(rssFile)
	if err != nil {
		return 0, 0, err
	}
	kb, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	if err != nil {
		return 0, 0, fmt.Errorf("/usr/bin/time: %q", text)
	}
	return d, kb << 10, nil
}

func median[T time.Duration | int64](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func printTable(w io.Writer, rows []*row) {
	fmt.Fprintln(w, "| work | command | file | runs | median time | MB/s | vs avro | peak RSS |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|---:|")
	// vs avro compares each row's throughput with the avro row of its
	// group reading a file of the same size: the default avro tojson, or
	// avro count.
	ref := map[string]float64{}
	rate := func(r *row) float64 {
		fi, err := os.Stat(r.file)
		if err != nil || len(r.times) == 0 {
			return 0
		}
		return float64(fi.Size()) / 1e6 / median(r.times).Seconds()
	}
	key := func(r *row) string {
		fi, _ := os.Stat(r.file)
		return fmt.Sprintf("%s/%d", r.group, fi.Size())
	}
	for _, r := range rows {
		if (strings.HasPrefix(r.name, "avro tojson") && !strings.Contains(r.name, "-j")) || r.name == "avro count" {
			ref[key(r)] = rate(r)
		}
	}
	for _, r := range rows {
		fi, _ := os.Stat(r.file)
		mb := fmt.Sprintf("%.0f MB", float64(fi.Size())/1e6)
		switch {
		case r.skip != "":
			fmt.Fprintf(w, "| %s | %s | %s | – | – | – | – | not run: %s |\n", r.group, r.name, mb, oneLine(r.skip))
			continue
		case len(r.times) == 0:
			fmt.Fprintf(w, "| %s | %s | %s | 0 | – | – | – | failed: %v |\n", r.group, r.name, mb, r.err)
			continue
		}
		vs := "–"
		if ref := ref[key(r)]; ref > 0 {
			vs = fmt.Sprintf("%.1fx", ref/rate(r))
		}
		fmt.Fprintf(w, "| %s | `%s` | %s | %d | %.2f s | %.1f | %s | %.1f MiB |\n", r.group, r.name, mb, len(r.times),
			median(r.times).Seconds(), rate(r), vs, float64(median(r.rss))/(1<<20))
	}
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
