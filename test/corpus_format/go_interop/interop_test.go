package gointerop

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The tests below are driven by cfuzz's C++ test suite (test/corpus_format/go_interop_test.cc),
// which copies this module to a temporary directory, prepares inputs, runs `go test`
// there and checks the outputs. Each test does nothing unless its environment variable
// is set, so a plain `go test` here passes trivially.

// readManifest reads lines "NAME DESCRIPTION..." into a map.
func readManifest(t testing.TB, path string) map[string]string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if line == "" {
			continue
		}
		name, desc, _ := strings.Cut(line, " ")
		m[name] = desc
	}
	return m
}

// FuzzX checks files written by cfuzz (cfuzz -> Go). The C++ side writes entries of all
// fifteen types into testdata/fuzz/FuzzX and a manifest of the values it meant to write;
// `go test -run FuzzX` then runs each file as a seed through Go's real loader. Each value
// must arrive bit for bit, and Go's encoder must reproduce the file byte for byte.
func FuzzX(f *testing.F) {
	manifestPath := os.Getenv("CFUZZ_MANIFEST")
	if manifestPath == "" {
		f.Skip("CFUZZ_MANIFEST not set")
	}
	want := readManifest(f, manifestPath)
	seen := map[string]bool{}
	f.Fuzz(func(t *testing.T, b []byte, s string, bo bool, u8 uint8, r int32, i int, i8 int8,
		i16 int16, i64 int64, u uint, u16 uint16, u32 uint32, u64 uint64, f32 float32, f64 float64) {
		name := strings.TrimPrefix(t.Name(), "FuzzX/")
		vals := []any{b, s, bo, u8, r, i, i8, i16, i64, u, u16, u32, u64, f32, f64}
		seen[name] = true
		w, ok := want[name]
		if !ok {
			t.Fatalf("no manifest line for corpus file %s", name)
		}
		if got := describeAll(vals); got != w {
			t.Errorf("values differ for %s\n got: %s\nwant: %s", name, got, w)
		}
		file, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzX", name))
		if err != nil {
			t.Fatal(err)
		}
		if enc := marshalCorpusFile(vals...); !bytes.Equal(enc, file) {
			t.Errorf("Go encodes %s differently\ncfuzz: %q\n   go: %q", name, file, enc)
		}
	})
	for name := range want {
		if !seen[name] {
			f.Errorf("corpus file %s was never run", name)
		}
	}
}

// TestDecodeVerdicts is the differential check of the decoders. CFUZZ_CANDIDATES names
// a file with one candidate corpus file per line, hex encoded; for each, a line goes to
// CFUZZ_VERDICTS: "error", "empty" (decodes to no values), or "ok " and the hex of Go's
// re-encoding of the decoded values.
func TestDecodeVerdicts(t *testing.T) {
	in, out := os.Getenv("CFUZZ_CANDIDATES"), os.Getenv("CFUZZ_VERDICTS")
	if in == "" || out == "" {
		t.Skip("CFUZZ_CANDIDATES or CFUZZ_VERDICTS not set")
	}
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	for n, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		file, err := hex.DecodeString(line)
		if err != nil {
			t.Fatalf("candidate %d: %v", n+1, err)
		}
		vals, err := unmarshalCorpusFile(file)
		switch {
		case err != nil:
			sb.WriteString("error\n")
		case len(vals) == 0:
			sb.WriteString("empty\n")
		default:
			sb.WriteString("ok " + hex.EncodeToString(marshalCorpusFile(vals...)) + "\n")
		}
	}
	if err := os.WriteFile(out, []byte(sb.String()), 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestWriteEntries is the Go -> cfuzz direction through Go's own encoder: it writes one
// corpus file per value (deliberately awkward ones, then many random ones) into
// CFUZZ_GO_OUT with a manifest, for cfuzz to decode and re-encode.
func TestWriteEntries(t *testing.T) {
	dir := os.Getenv("CFUZZ_GO_OUT")
	if dir == "" {
		t.Skip("CFUZZ_GO_OUT not set")
	}
	var entries [][]any
	for _, v := range awkwardValues() {
		entries = append(entries, []any{v})
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		n := 1 + rng.Intn(4)
		var e []any
		for j := 0; j < n; j++ {
			e = append(e, randomValue(rng))
		}
		entries = append(entries, e)
	}
	var manifest strings.Builder
	for i, e := range entries {
		name := fmt.Sprintf("entry%05d", i)
		if err := os.WriteFile(filepath.Join(dir, name), marshalCorpusFile(e...), 0o666); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&manifest, "%s %s\n", name, describeAll(e))
	}
	if err := os.WriteFile(filepath.Join(dir, "MANIFEST"), []byte(manifest.String()), 0o666); err != nil {
		t.Fatal(err)
	}
}

func awkwardValues() []any {
	var vals []any
	// Every byte and rune value at the edges of Go's escaping rules.
	for b := 0; b < 256; b++ {
		vals = append(vals, byte(b), []byte{byte(b)}, string([]byte{byte(b)}))
	}
	for _, r := range []rune{-1, 0, 7, 0x1f, ' ', '\'', '"', '\\', 0x7f, 0x80, 0x9f, 0xa0, 0xa1,
		0xad, 0xff, 0x100, 0x2028, 0x3000, 0xd7ff, 0xd800, 0xdfff, 0xe000, 0xfeff, 0xfffd,
		0xfffe, 0xffff, 0x10000, 0x1f600, 0xe0001, 0xe0100, 0x10fffd, 0x10ffff, 0x110000,
		math.MinInt32, math.MaxInt32} {
		vals = append(vals, r)
		if utf8.ValidRune(r) {
			vals = append(vals, string(r))
		}
	}
	vals = append(vals, "", []byte{}, "hello\xbd\xb2=\xbc ⌘", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xc0\x80", "\xef\xbf\xbd", "a\x00b", "tab\there", "\a\b\f\n\r\t\v")
	vals = append(vals, true, false,
		int(math.MinInt64), int(math.MaxInt64), int(0), int8(math.MinInt8), int8(math.MaxInt8),
		int16(math.MinInt16), int16(math.MaxInt16), int64(math.MinInt64), int64(math.MaxInt64),
		uint(math.MaxUint64), uint(0), uint16(math.MaxUint16), uint32(math.MaxUint32),
		uint64(math.MaxUint64))
	f64 := []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1e6, 123456, 1234567, 1e-4, 1e-5,
		1e21, 1e20, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308,
		math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff8000000000000), math.Float64frombits(0x7ff0000000000001),
		math.Float64frombits(0xfff8000000000001), math.Float64frombits(0x7fffffffffffffff),
		math.Pi, 1.0 / 3, 2.5, 100, 1e100, 9007199254740993, 0.000123456789}
	for _, f := range f64 {
		vals = append(vals, f, float32(f))
	}
	vals = append(vals, math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00000),
		math.Float32frombits(0x7f800001), math.Float32frombits(1), math.Float32frombits(0x00800000))
	return vals
}

func randomValue(rng *rand.Rand) any {
	randBytes := func() []byte {
		b := make([]byte, rng.Intn(24))
		for i := range b {
			switch rng.Intn(3) {
			case 0:
				b[i] = byte(rng.Intn(256))
			case 1:
				b[i] = byte(0x20 + rng.Intn(0x5f))
			default:
				b[i] = byte(0x80 + rng.Intn(0x80))
			}
		}
		// Sprinkle in whole non-ASCII runes, printable or not.
		if rng.Intn(2) == 0 {
			b = utf8.AppendRune(b, rune(rng.Intn(0x30000)))
		}
		return b
	}
	switch rng.Intn(15) {
	case 0:
		return randBytes()
	case 1:
		return string(randBytes())
	case 2:
		return rng.Intn(2) == 0
	case 3:
		return byte(rng.Intn(256))
	case 4:
		if rng.Intn(2) == 0 {
			return rune(rng.Intn(0x110000))
		}
		return int32(rng.Uint32())
	case 5:
		return int(rng.Uint64())
	case 6:
		return int8(rng.Uint32())
	case 7:
		return int16(rng.Uint32())
	case 8:
		return int64(rng.Uint64())
	case 9:
		return uint(rng.Uint64())
	case 10:
		return uint16(rng.Uint32())
	case 11:
		return uint32(rng.Uint32())
	case 12:
		return rng.Uint64()
	case 13:
		if rng.Intn(2) == 0 {
			return float32(rng.NormFloat64() * math.Pow(10, float64(rng.Intn(60)-30)))
		}
		return math.Float32frombits(rng.Uint32())
	default:
		if rng.Intn(2) == 0 {
			return rng.NormFloat64() * math.Pow(10, float64(rng.Intn(600)-300))
		}
		return math.Float64frombits(rng.Uint64())
	}
}

// FuzzCrash lets the real toolchain write a crasher file (Go -> cfuzz through
// `go test -fuzz`): any input other than the seed fails, so the first mutation Go tries
// is written to testdata/fuzz/FuzzCrash. With CFUZZ_DUMP set it instead appends the
// values of each input it runs (as Go decoded them) to that file.
func FuzzCrash(f *testing.F) {
	seed := []any{[]byte("seed\xff"), "s\u00e9ed\x00", true, byte(0xad), rune(0x2028), int(-1),
		int8(-128), int16(7), int64(math.MinInt64), uint(1), uint16(2), uint32(3), uint64(4),
		math.Float32frombits(0x7fc00001), math.Float64frombits(0xfff8000000000002)}
	f.Add(seed...)
	dump := os.Getenv("CFUZZ_DUMP")
	f.Fuzz(func(t *testing.T, b []byte, s string, bo bool, u8 uint8, r int32, i int, i8 int8,
		i16 int16, i64 int64, u uint, u16 uint16, u32 uint32, u64 uint64, f32 float32, f64 float64) {
		vals := []any{b, s, bo, u8, r, i, i8, i16, i64, u, u16, u32, u64, f32, f64}
		desc := describeAll(vals)
		if dump != "" {
			name := strings.TrimPrefix(t.Name(), "FuzzCrash/")
			fh, err := os.OpenFile(dump, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(fh, "%s %s\n", name, desc)
			fh.Close()
			return
		}
		if desc != describeAll(seed) {
			t.Fatalf("input differs from the seed")
		}
	})
}
