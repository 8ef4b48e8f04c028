package gointerop

import _ "unsafe" // for go:linkname

// Go's corpus file codec lives in internal/fuzz, which no module may import; every test
// binary links it in (through testing), so the tests bind to it by symbol name instead.
// This ties the tests to the Go release they run with, which is the point: they check
// cfuzz against the real encoder and decoder of that release (Go 1.19), not a copy.

//go:linkname marshalCorpusFile internal/fuzz.marshalCorpusFile
func marshalCorpusFile(vals ...any) []byte

//go:linkname unmarshalCorpusFile internal/fuzz.unmarshalCorpusFile
func unmarshalCorpusFile(b []byte) ([]any, error)
