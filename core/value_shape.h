// The shape of a typed value (cfuzz/typed_values.h): the Go-like type text the target's
// header writes for each encoded parameter (`[]int32`, `map[string]optional[uint8]`,
// `struct{bool; [4]uint16}`), parsed into nodes, and the walk that finds each part of an
// encoded value. The walk reads bytes exactly as the header's decoder does; a unit test
// holds the two together (test/core/value_shape_test.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "corpus_format/value.h"

namespace cfuzz::core {

// clang-format off
enum class ShapeKind : std::uint8_t {
  Bool,      // 1 byte, low bit
  Int,       // `width` bytes, little-endian
  Float,     // `width` bytes, the IEEE-754 bits, little-endian
  Bytes,     // string or []byte: a 4-byte count, then the bytes
  Sequence,  // []T, set[T], map[K]V (whose element is struct{K; V}): a 4-byte count, then the elements
  Array,     // [N]T: N elements
  Optional,  // a tag byte (low bit: present), then the value if present
  Variant,   // an index byte (modulo the alternatives), then that alternative
  Struct,    // the fields in order
};
// clang-format on

struct ShapeNode {
  ShapeKind kind;
  std::uint8_t width = 0;               // Int, Float
  bool is_signed = false;               // Int
  std::uint32_t count = 0;              // Array: its length
  std::vector<std::uint32_t> children;  // element, alternatives or fields
  bool is_map = false;                  // Sequence: a map (its element is struct{K; V})

  // Constraints of a domain (cfuzz/domains.h), written before the type in angle brackets:
  // `<range -5 9>int32`, `<size 1 4>[]int8`, `<size 0 8; alphabet 616263>string`,
  // `<oneof 0100 0200>uint16` (the allowed values' encodings, in hex; "-" is empty).
  bool has_range = false;
  std::uint64_t lo = 0, hi = 0;  // Int: the slot form (signed: sign-extended); Float: a double's bits
  std::vector<std::vector<std::uint8_t>> oneof;
  std::uint64_t min_size = 0, max_size = UINT64_MAX;  // Bytes, Sequence
  std::string alphabet;                               // Bytes: the allowed bytes (empty: any)
};

class ValueShape {
 public:
  // Parses a shape text; throws std::invalid_argument saying where it is malformed.
  static ValueShape parse(std::string_view text);

  const ShapeNode& node(std::uint32_t i) const { return nodes_[i]; }
  std::uint32_t root() const { return 0; }
  const std::string& text() const { return text_; }

 private:
  std::uint32_t parse_node(std::string_view text, std::size_t& pos);
  std::uint32_t parse_type(std::string_view text, std::size_t& pos);
  void parse_constraints(std::string_view text, std::size_t& pos, ShapeNode& n);
  std::string text_;
  std::vector<ShapeNode> nodes_;
};

// One part of an encoded value: the bytes [begin, end) of a value of shape node `shape`,
// inside its parent part (-1 for the whole value).
struct ValuePart {
  std::uint32_t shape;
  std::uint32_t begin;
  std::uint32_t end;
  std::int32_t parent;
};

// Re-encodes data[0, len) into `out` in canonical form, listing its parts in `parts` in
// pre-order (a part before its children). Canonical: counts equal the elements present,
// tags and indices are 0 or in range, bytes missing at the end are written as zeros and
// bytes left over are dropped. The header decodes `data` and `out` to the same value.
void canonicalize(const ValueShape& shape, const std::uint8_t* data, std::size_t len, std::vector<std::uint8_t>& out,
                  std::vector<ValuePart>& parts);

// An entry's typed values (shapes[i] non-empty) must be encodings of their shapes with no
// bytes missing and none left over: what cfuzz writes always is, and a file that is not was
// most likely written for another signature of the fuzz function. Throws corpus::CorpusError
// naming the file, the value's line and what does not fit.
void check_shapes(const corpus::Entry& entry, const std::vector<std::string>& shapes, std::string_view filename);

// The value an encoding holds, as text for people: numbers, Go-quoted strings, [a, b] for
// lists, sets and arrays, {k: v} for maps, {a, b} for structs, none for an absent optional.
// At most `max_chars` characters ("..." after).
std::string render_value(const ValueShape& shape, const std::uint8_t* data, std::size_t len,
                         std::size_t max_chars = 300);

// A container's 4-byte count.
std::uint32_t read_u32_le(const std::uint8_t* p);
void write_u32_le(std::uint8_t* p, std::uint32_t v);

}  // namespace cfuzz::core
