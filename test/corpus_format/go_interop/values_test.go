package gointerop

import (
	"encoding/hex"
	"fmt"
	"math"
	"strings"
)

// describe writes one value in the manifest notation that the C++ tests use as well:
// TYPE:VALUE, with byte strings in hex, integers in decimal and floats as their bit
// pattern in hex, so that comparing two descriptions compares the values bit for bit.
func describe(v any) string {
	switch x := v.(type) {
	case []byte:
		return "bytes:" + hex.EncodeToString(x)
	case string:
		return "string:" + hex.EncodeToString([]byte(x))
	case bool:
		return fmt.Sprintf("bool:%t", x)
	case uint8:
		return fmt.Sprintf("uint8:%d", x)
	case int32:
		return fmt.Sprintf("int32:%d", x)
	case int:
		return fmt.Sprintf("int:%d", x)
	case int8:
		return fmt.Sprintf("int8:%d", x)
	case int16:
		return fmt.Sprintf("int16:%d", x)
	case int64:
		return fmt.Sprintf("int64:%d", x)
	case uint:
		return fmt.Sprintf("uint:%d", x)
	case uint16:
		return fmt.Sprintf("uint16:%d", x)
	case uint32:
		return fmt.Sprintf("uint32:%d", x)
	case uint64:
		return fmt.Sprintf("uint64:%d", x)
	case float32:
		return fmt.Sprintf("float32:%x", math.Float32bits(x))
	case float64:
		return fmt.Sprintf("float64:%x", math.Float64bits(x))
	}
	panic(fmt.Sprintf("describe: unsupported type %T", v))
}

func describeAll(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = describe(v)
	}
	return strings.Join(parts, " ")
}
