// This file is intentionally empty. A package with an assembly file may declare Go
// functions without bodies, which linkname_test.go needs to reach Go's own corpus codec.
