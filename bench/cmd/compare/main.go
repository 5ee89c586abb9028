// Command compare runs the benchmark suite of github.com/avrogo/avro/bench
// and prints one table: for each row (a benchmark name without its lib=
// part), our median time, each peer's, the ratio of ours to the fastest
// peer's, and allocations. It exits with status 1 when a row is slower than
// its fastest peer (by a significant margin, unless -strict), 2 on errors.
//
// Run it inside bench/:
//
//	go run ./cmd/compare                      # the whole suite, 6 rounds
//	go run ./cmd/compare -bench Varint -count 10 -benchtime 500ms
//	go run ./cmd/compare -in old.txt          # tabulate saved output
//
// The samples of a row are taken in rounds: the suite runs count times,
// each row once a round, so that the machine's drift over the run falls on
// every library alike (-interleave=false runs go test -count instead).
//
// Medians, confidence intervals and the significance test (Mann-Whitney U,
// alpha 0.05) come from golang.org/x/perf/benchmath, as in benchstat.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

const ours = "avrogo"

// peerOrder is the column order; libraries not listed follow, sorted.
// Reference libraries are shown but are not peers: a row is not "slower"
// because of them. (avrogen is this library's codec on the types
// cmd/avrogen generates, beside the hand-written structs.)
var (
	peerOrder = []string{"hamba", "twmb", "goavro", "gogen"}
	reference = map[string]bool{"stdlib": true, "copy": true, "plain": true, "avrogen": true}
)

func main() {
	var (
		bench     = flag.String("bench", ".", "benchmarks to run (go test -bench)")
		count     = flag.Int("count", 6, "runs of each benchmark; at least 6 for a meaningful comparison")
		interl    = flag.Bool("interleave", true, "run the suite count times, each row once a round, instead of go test -count")
		benchtime = flag.String("benchtime", "250ms", "time or iterations per run (go test -benchtime)")
		in        = flag.String("in", "", "tabulate this saved go test output instead of running the suite")
		out       = flag.String("o", "", "also save the raw go test output to this file")
		strict    = flag.Bool("strict", false, "fail on any row whose median is above the fastest peer's, significant or not")
		alpha     = flag.Float64("alpha", 0.05, "significance level of the comparison")
		quiet     = flag.Bool("q", false, "do not echo go test's output while it runs")
	)
	flag.Parse()

	var raw []byte
	if *in != "" {
		var err error
		if raw, err = os.ReadFile(*in); err != nil {
			fatal(err)
		}
	} else {
		if *count < 6 {
			fmt.Fprintf(os.Stderr, "compare: warning: -count %d is below 6; medians and significance are weak\n", *count)
		}
		var save io.Writer
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				fatal(err)
			}
			defer f.Close()
			save = f
		}
		var err error
		if raw, err = runSuite(*bench, *count, *benchtime, *interl, *quiet, save); err != nil {
			fatal(err)
		}
	}

	rows, libs, err := parse(raw)
	if err != nil {
		fatal(err)
	}
	if len(rows) == 0 {
		fatal(fmt.Errorf("no benchmark results"))
	}
	slower := printTable(os.Stdout, rows, libs, *alpha, *strict)
	if len(slower) > 0 {
		fmt.Printf("\n%d row(s) slower than the fastest peer:\n", len(slower))
		for _, s := range slower {
			fmt.Println("  " + s)
		}
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "compare:", err)
	os.Exit(2)
}

// runSuite runs the suite in the current directory (the bench module) and
// returns its output; the output is echoed to stderr (unless quiet) and
// written to save (if not nil) as it comes.
//
// With interleave, the test binary is built once and run count times with
// -test.count 1: each round runs every row once, for every library in turn.
// go test -count N instead runs each benchmark N times back to back, so a
// slow minute of the machine lands on one library's samples of a row and
// not on its peers', and shows as a difference between them.
func runSuite(bench string, count int, benchtime string, interleave, quiet bool, save io.Writer) ([]byte, error) {
	var buf bytes.Buffer
	ws := []io.Writer{&buf}
	if !quiet {
		ws = append(ws, os.Stderr)
	}
	if save != nil {
		ws = append(ws, save)
	}
	w := io.MultiWriter(ws...)
	run := func(name string, args ...string) error {
		fmt.Fprintf(os.Stderr, "compare: %s %s\n", name, strings.Join(args, " "))
		cmd := exec.Command(name, args...)
		cmd.Stdout = w
		cmd.Stderr = w
		if err := cmd.Run(); err != nil {
			if quiet {
				os.Stderr.Write(buf.Bytes())
			}
			return fmt.Errorf("%s: %v", name, err)
		}
		return nil
	}
	start := time.Now()
	if !interleave {
		if err := run("go", "test", "-run", "^$", "-bench", bench, "-count", fmt.Sprint(count),
			"-benchtime", benchtime, "-timeout", "0", "."); err != nil {
			return nil, err
		}
	} else {
		dir, err := os.MkdirTemp("", "compare")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		bin := filepath.Join(dir, "bench.test")
		build := exec.Command("go", "test", "-c", "-o", bin, ".")
		build.Stdout, build.Stderr = os.Stderr, os.Stderr
		if err := build.Run(); err != nil {
			return nil, fmt.Errorf("go test -c: %v", err)
		}
		for i := 1; i <= count; i++ {
			fmt.Fprintf(os.Stderr, "compare: round %d of %d\n", i, count)
			if err := run(bin, "-test.run", "^$", "-test.bench", bench, "-test.count", "1",
				"-test.benchtime", benchtime, "-test.timeout", "0"); err != nil {
				return nil, err
			}
		}
	}
	fmt.Fprintf(os.Stderr, "compare: suite ran in %s\n", time.Since(start).Round(time.Second))
	return buf.Bytes(), nil
}

// A row is one benchmark name without its lib= part.
type row struct {
	name  string
	order int
	libs  map[string]*libResult
}

type libResult struct {
	times  []float64 // sec/value if the row reports it, else sec/op
	allocs []float64
	bytes  []float64
	perVal bool
}

func parse(raw []byte) ([]*row, []string, error) {
	byName := map[string]*row{}
	var rows []*row
	libSet := map[string]bool{}
	r := benchfmt.NewReader(bytes.NewReader(raw), "go test output")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue // a syntax error or unit metadata: go test prints other lines too
		}
		base, parts := res.Name.Parts()
		var lib string
		key := []string{string(base)}
		for _, p := range parts {
			s := strings.TrimPrefix(string(p), "/")
			if strings.HasPrefix(s, "lib=") {
				lib = strings.TrimPrefix(s, "lib=")
				continue
			}
			if strings.HasPrefix(string(p), "-") { // the GOMAXPROCS suffix
				continue
			}
			key = append(key, s)
		}
		if lib == "" {
			continue // not a comparison row
		}
		name := strings.TrimPrefix(strings.Join(key, "/"), "Benchmark")
		rw := byName[name]
		if rw == nil {
			rw = &row{name: name, order: len(rows), libs: map[string]*libResult{}}
			byName[name] = rw
			rows = append(rows, rw)
		}
		lr := rw.libs[lib]
		if lr == nil {
			lr = &libResult{}
			rw.libs[lib] = lr
		}
		libSet[lib] = true
		if v, ok := res.Value("sec/value"); ok {
			lr.times = append(lr.times, v)
			lr.perVal = true
		} else if v, ok := res.Value("sec/op"); ok {
			lr.times = append(lr.times, v)
		}
		if v, ok := res.Value("allocs/op"); ok {
			lr.allocs = append(lr.allocs, v)
		}
		if v, ok := res.Value("B/op"); ok {
			lr.bytes = append(lr.bytes, v)
		}
	}
	if err := r.Err(); err != nil {
		return nil, nil, err
	}
	var libs []string
	if libSet[ours] {
		libs = append(libs, ours)
	}
	for _, l := range peerOrder {
		if libSet[l] {
			libs = append(libs, l)
		}
	}
	var rest []string
	for l := range libSet {
		if l != ours && !slices.Contains(peerOrder, l) {
			rest = append(rest, l)
		}
	}
	slices.Sort(rest)
	return rows, append(libs, rest...), nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := benchmath.NewSample(slices.Clone(xs), &benchmath.DefaultThresholds)
	return benchmath.AssumeNothing.Summary(s, 0.95).Center
}

func printTable(w io.Writer, rows []*row, libs []string, alpha float64, strict bool) []string {
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, "| row |")
	for _, l := range libs {
		fmt.Fprintf(bw, " %s |", l)
	}
	fmt.Fprintf(bw, " ours / fastest peer | allocs/op ours (fastest peer) | B/op ours (fastest peer) | |\n|---|")
	for range libs {
		fmt.Fprintf(bw, "---:|")
	}
	fmt.Fprintf(bw, "---:|---:|---:|---|\n")

	var slower []string
	for _, rw := range rows {
		name := rw.name
		if o := rw.libs[ours]; o != nil && o.perVal {
			name += " (per value)"
		}
		fmt.Fprintf(bw, "| %s |", name)
		for _, l := range libs {
			lr := rw.libs[l]
			if lr == nil || len(lr.times) == 0 {
				fmt.Fprintf(bw, " – |")
				continue
			}
			fmt.Fprintf(bw, " %s |", fmtTime(median(lr.times)))
		}
		// The fastest peer.
		best := ""
		bestT := math.Inf(1)
		for l, lr := range rw.libs {
			if l == ours || reference[l] || len(lr.times) == 0 {
				continue
			}
			if m := median(lr.times); m < bestT || (m == bestT && l < best) {
				best, bestT = l, m
			}
		}
		o := rw.libs[ours]
		if o == nil || len(o.times) == 0 || best == "" {
			fmt.Fprintf(bw, " (no peer) | %s | %s | |\n", fmtCount(o, func(r *libResult) []float64 { return r.allocs }, nil),
				fmtCount(o, func(r *libResult) []float64 { return r.bytes }, nil))
			continue
		}
		ratio := median(o.times) / bestT
		verdict := "faster"
		cmp := benchmath.AssumeNothing.Compare(
			benchmath.NewSample(slices.Clone(o.times), &benchmath.Thresholds{CompareAlpha: alpha}),
			benchmath.NewSample(slices.Clone(rw.libs[best].times), &benchmath.Thresholds{CompareAlpha: alpha}))
		significant := cmp.P < alpha
		switch {
		case ratio > 1 && (significant || strict):
			verdict = "**SLOWER**"
			slower = append(slower, fmt.Sprintf("%s: %.2fx %s (%s vs %s, %s)", rw.name, ratio, best,
				fmtTime(median(o.times)), fmtTime(bestT), cmp))
		case ratio > 1:
			verdict = "~ (not significant, " + cmp.String() + ")"
		case !significant:
			verdict = "~ (" + cmp.String() + ")"
		}
		bl := rw.libs[best]
		fmt.Fprintf(bw, " %.2fx %s | %s | %s | %s |\n", ratio, best,
			fmtCount(o, func(r *libResult) []float64 { return r.allocs }, bl),
			fmtCount(o, func(r *libResult) []float64 { return r.bytes }, bl), verdict)
	}
	return slower
}

func fmtCount(o *libResult, f func(*libResult) []float64, peer *libResult) string {
	if o == nil || len(f(o)) == 0 {
		return "–"
	}
	s := fmt.Sprintf("%.0f", median(f(o)))
	if peer != nil && len(f(peer)) > 0 {
		s += fmt.Sprintf(" (%.0f)", median(f(peer)))
	}
	return s
}

func fmtTime(sec float64) string {
	ns := sec * 1e9
	switch {
	case math.IsNaN(ns):
		return "?"
	case ns < 10:
		return fmt.Sprintf("%.2fns", ns)
	case ns < 1000:
		return fmt.Sprintf("%.0fns", ns)
	case ns < 1e6:
		return fmt.Sprintf("%.1fµs", ns/1e3)
	case ns < 1e9:
		return fmt.Sprintf("%.1fms", ns/1e6)
	}
	return fmt.Sprintf("%.2fs", ns/1e9)
}
