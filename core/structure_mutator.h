// Mutations of typed values by their structure (cfuzz/typed_values.h): a value is walked
// by its shape, and one part of it changes: a scalar by the mutator's scalar operators
// (which use the target's comparison operands), a string by the byte mutator (which uses
// the dictionary), and a container by inserting, erasing, duplicating or swapping whole
// elements, an optional by appearing or vanishing, a variant by switching alternative.
// With a splice partner, a part may be replaced by (or a container gain) a copy of a part
// of the same shape from the partner. What comes out is always a canonical encoding.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/mutator.h"
#include "core/value_shape.h"

namespace cfuzz::core {

class StructureMutator : public ValueMutator {
 public:
  // `bytes` mutates strings inside values; its words (dictionary, comparison operands)
  // are used for scalars too.
  explicit StructureMutator(Mutator& bytes) : bytes_(bytes) {}

  // `plain`: the value is one of Go's types kept as is (a scalar's bits, a string's bytes),
  // whose shape only carries its domain's constraints; otherwise it is an encoded value.
  void set_shape(std::uint32_t index, ValueShape shape, bool plain = false);
  bool handles(std::uint32_t index) const { return index < shapes_.size() && shapes_[index].has_value(); }
  // Values without a shape go to `next` (a target's custom mutators), if any.
  void set_next(ValueMutator* next) { next_ = next; }
  void set_words(const WordSource* words) { words_ = words; }

  bool mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                    const std::uint8_t* other, std::uint64_t other_len, Pcg& rng) override;
  bool mutate_bits(std::uint32_t index, std::uint64_t* bits, Pcg& rng) override;
  // Rewrites an encoded value in canonical form (after something else changed its bytes),
  // when that fits in `cap`.
  void make_canonical(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap);
  // Only when the value was next's (this mutator is the runtime's own code).
  bool ran_target_code() const override { return delegated_; }

 private:
  // One attempt at a mutation of work_ into out_; false when the picked part has nothing
  // to offer (a struct, a one-alternative variant, a one-element array).
  bool mutate_part(const ValueShape& shape, std::uint32_t part, std::uint64_t cap, bool have_other, Pcg& rng);
  bool mutate_container(const ValueShape& shape, std::uint32_t part, bool have_other, Pcg& rng);
  bool copy_from_other(std::uint32_t part, Pcg& rng);
  // A fresh value of shape node `node`, appended to `out`.
  void generate(const ValueShape& shape, std::uint32_t node, Pcg& rng, std::vector<std::uint8_t>& out);
  // out_ = work_ with bytes [begin, end) replaced by `middle`.
  void replace(std::uint32_t begin, std::uint32_t end, const std::uint8_t* middle, std::size_t middle_len);
  // The parts whose parent is `part`, in order.
  void children_of(std::uint32_t part);
  // A plain string or []byte with constraints.
  void mutate_plain_bytes(const ShapeNode& n, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                          const std::uint8_t* other, std::uint64_t other_len, Pcg& rng);

  Mutator& bytes_;
  const WordSource* words_ = nullptr;
  ValueMutator* next_ = nullptr;
  bool delegated_ = false;  // the last value went to next_
  std::vector<std::optional<ValueShape>> shapes_;
  std::vector<bool> plain_;
  std::vector<std::uint8_t> work_, out_, other_work_, piece_;
  std::vector<ValuePart> parts_, other_parts_;
  std::vector<std::uint32_t> children_, candidates_, matches_;  // containers; partner's parts of a shape
};

}  // namespace cfuzz::core
