#include "core/structure_mutator.h"

#include <algorithm>
#include <cstring>

namespace cfuzz::core {

namespace {

using corpus::Type;

Type scalar_type(const ShapeNode& n) {
  if (n.kind == ShapeKind::Bool) return Type::Bool;
  if (n.kind == ShapeKind::Float) return n.width == 4 ? Type::Float32 : Type::Float64;
  switch (n.width) {
    case 1: return n.is_signed ? Type::Int8 : Type::Byte;
    case 2: return n.is_signed ? Type::Int16 : Type::Uint16;
    case 4: return n.is_signed ? Type::Rune : Type::Uint32;
    default: return n.is_signed ? Type::Int64 : Type::Uint64;
  }
}

// Little-endian scalars in a slot's form: signed integers sign-extended.
std::uint64_t load_scalar(const std::uint8_t* p, const ShapeNode& n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n.width; ++i) v |= std::uint64_t{p[i]} << (8 * i);
  if (n.kind == ShapeKind::Int && n.is_signed && n.width < 8 && (v >> (8 * n.width - 1)) != 0) {
    v |= ~std::uint64_t{0} << (8 * n.width);
  }
  return v;
}

void store_scalar(std::uint8_t* p, std::uint64_t v, const ShapeNode& n) {
  for (int i = 0; i < n.width; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

void put_le(std::vector<std::uint8_t>& out, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

bool is_container(ShapeKind k) {
  return k == ShapeKind::Sequence || k == ShapeKind::Array || k == ShapeKind::Optional || k == ShapeKind::Variant;
}

// A scalar (slot form) brought into its domain's range: integers wrap around into it, as
// a step past one end comes back at the other; floats are clamped.
std::uint64_t fit_range(const ShapeNode& n, std::uint64_t bits) {
  if (!n.has_range) return bits;
  if (n.kind == ShapeKind::Float) {
    double lo, hi, d;
    std::memcpy(&lo, &n.lo, sizeof lo);
    std::memcpy(&hi, &n.hi, sizeof hi);
    if (n.width == 4) {
      float f;
      auto b = static_cast<std::uint32_t>(bits);
      std::memcpy(&f, &b, sizeof f);
      d = f;
    } else {
      std::memcpy(&d, &bits, sizeof d);
    }
    if (!(d >= lo)) d = lo;  // NaN too
    if (d > hi) d = hi;
    if (n.width == 4) {
      auto f = static_cast<float>(d);
      std::uint32_t b;
      std::memcpy(&b, &f, sizeof b);
      return b;
    }
    std::uint64_t out;
    std::memcpy(&out, &d, sizeof out);
    return out;
  }
  bool inside = n.is_signed ? static_cast<std::int64_t>(n.lo) <= static_cast<std::int64_t>(bits) &&
                                  static_cast<std::int64_t>(bits) <= static_cast<std::int64_t>(n.hi)
                            : n.lo <= bits && bits <= n.hi;
  if (inside) return bits;
  std::uint64_t span = n.hi - n.lo;  // values in range, minus one (two's complement works for both)
  if (span == ~std::uint64_t{0}) return bits;
  return n.lo + (bits - n.lo) % (span + 1);
}

// Brings bytes into a domain's size bounds and alphabet, within `cap`.
void fit_bytes(const ShapeNode& n, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap, Pcg& rng) {
  if (*len > n.max_size) *len = n.max_size;
  if (!n.alphabet.empty()) {
    for (std::uint64_t i = 0; i < *len; ++i) {
      if (n.alphabet.find(static_cast<char>(data[i])) == std::string::npos) {
        data[i] = static_cast<std::uint8_t>(n.alphabet[data[i] % n.alphabet.size()]);
      }
    }
  }
  while (*len < n.min_size && *len < cap) {
    data[(*len)++] = n.alphabet.empty() ? static_cast<std::uint8_t>(rng.below(256))
                                        : static_cast<std::uint8_t>(n.alphabet[rng.below(n.alphabet.size())]);
  }
}

}  // namespace

void StructureMutator::set_shape(std::uint32_t index, ValueShape shape, bool plain) {
  if (shapes_.size() <= index) {
    shapes_.resize(index + 1);
    plain_.resize(index + 1);
  }
  shapes_[index] = std::move(shape);
  plain_[index] = plain;
}

bool StructureMutator::mutate_bits(std::uint32_t index, std::uint64_t* bits, Pcg& rng) {
  delegated_ = !handles(index);
  if (delegated_) return next_ != nullptr && next_->mutate_bits(index, bits, rng);
  const ShapeNode& n = shapes_[index]->node(0);
  if (n.kind != ShapeKind::Int && n.kind != ShapeKind::Float && n.kind != ShapeKind::Bool) return false;
  if (!n.oneof.empty()) {
    const auto& e = n.oneof[rng.below(n.oneof.size())];
    if (e.size() == n.width) {
      *bits = load_scalar(e.data(), n);
      return true;
    }
  }
  *bits = fit_range(n, mutate_scalar(*bits, scalar_type(n), rng, words_));
  return true;
}

void StructureMutator::make_canonical(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap) {
  if (!handles(index) || plain_[index]) return;
  canonicalize(*shapes_[index], data, *len, work_, parts_);
  if (work_.size() > cap) return;
  std::memcpy(data, work_.data(), work_.size());
  *len = work_.size();
}

void StructureMutator::mutate_plain_bytes(const ShapeNode& n, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                                          const std::uint8_t* other, std::uint64_t other_len, Pcg& rng) {
  if (!n.oneof.empty()) {
    const auto& e = n.oneof[rng.below(n.oneof.size())];  // an encoded string: a 4-byte length first
    if (e.size() >= 4 && e.size() - 4 <= cap) {
      std::memcpy(data, e.data() + 4, e.size() - 4);
      *len = e.size() - 4;
      return;
    }
  }
  std::uint64_t room = std::min<std::uint64_t>(cap, n.max_size);
  if (room < *len) room = *len;
  bytes_.mutate_bytes(data, len, room, other, other_len, rng);
  fit_bytes(n, data, len, cap, rng);
}

bool StructureMutator::mutate_value(std::uint32_t index, std::uint8_t* data, std::uint64_t* len, std::uint64_t cap,
                                    const std::uint8_t* other, std::uint64_t other_len, Pcg& rng) {
  delegated_ = !handles(index);
  if (delegated_) return next_ != nullptr && next_->mutate_value(index, data, len, cap, other, other_len, rng);
  const ValueShape& shape = *shapes_[index];
  if (plain_[index]) {
    if (shape.node(0).kind != ShapeKind::Bytes) return false;
    mutate_plain_bytes(shape.node(0), data, len, cap, other, other_len, rng);
    return true;
  }
  canonicalize(shape, data, *len, work_, parts_);
  bool have_other = other != nullptr && other_len > 0 && rng.below(4) == 0;
  if (have_other) canonicalize(shape, other, other_len, other_work_, other_parts_);
  candidates_.clear();
  for (std::uint32_t i = 0; i < parts_.size(); ++i) {
    if (is_container(shape.node(parts_[i].shape).kind)) candidates_.push_back(i);
  }
  for (int attempt = 0; attempt < 16; ++attempt) {
    // Containers are few next to their elements: a third of the draws goes to them.
    std::uint32_t part = !candidates_.empty() && rng.below(3) == 0 ? candidates_[rng.below(candidates_.size())]
                                                                   : rng.below(parts_.size());
    if (!mutate_part(shape, part, cap, have_other, rng) || out_.size() > cap) continue;
    std::memcpy(data, out_.data(), out_.size());
    *len = out_.size();
    return true;
  }
  if (work_.size() <= cap) {  // nothing applied: at least leave it canonical
    std::memcpy(data, work_.data(), work_.size());
    *len = work_.size();
  }
  return true;
}

bool StructureMutator::mutate_part(const ValueShape& shape, std::uint32_t part, std::uint64_t cap, bool have_other,
                                   Pcg& rng) {
  const ValuePart p = parts_[part];
  const ShapeNode& n = shape.node(p.shape);
  if (have_other && rng.below(3) == 0 && copy_from_other(part, rng)) return true;
  if (!n.oneof.empty()) {  // one of the domain's values
    const auto& e = n.oneof[rng.below(n.oneof.size())];
    replace(p.begin, p.end, e.data(), e.size());
    return true;
  }
  switch (n.kind) {
    case ShapeKind::Bool:
    case ShapeKind::Int:
    case ShapeKind::Float: {
      out_ = work_;
      std::uint64_t bits = mutate_scalar(load_scalar(out_.data() + p.begin, n), scalar_type(n), rng, words_);
      store_scalar(out_.data() + p.begin, fit_range(n, bits), n);
      return true;
    }
    case ShapeKind::Bytes: {
      std::uint64_t old_len = p.end - p.begin - 4;
      std::uint64_t rest = work_.size() - old_len;
      std::uint64_t room = cap > rest ? cap - rest : 0;
      room = std::min<std::uint64_t>(room, n.max_size);
      if (room < old_len) room = old_len;
      piece_.assign(work_.begin() + p.begin + 4, work_.begin() + p.end);
      piece_.resize(room);
      std::uint64_t new_len = old_len;
      bytes_.mutate_bytes(piece_.data(), &new_len, room, nullptr, 0, rng);
      fit_bytes(n, piece_.data(), &new_len, room, rng);
      out_.assign(work_.begin(), work_.begin() + p.begin);
      put_le(out_, new_len, 4);
      out_.insert(out_.end(), piece_.begin(), piece_.begin() + static_cast<std::ptrdiff_t>(new_len));
      out_.insert(out_.end(), work_.begin() + p.end, work_.end());
      return true;
    }
    case ShapeKind::Struct: return false;  // its fields are parts of their own
    default: return mutate_container(shape, part, have_other, rng);
  }
}

bool StructureMutator::mutate_container(const ValueShape& shape, std::uint32_t part, bool have_other, Pcg& rng) {
  const ValuePart p = parts_[part];
  const ShapeNode& n = shape.node(p.shape);
  children_of(part);
  auto count = static_cast<std::uint32_t>(children_.size());
  auto bytes_of = [&](std::uint32_t child) {
    const ValuePart& c = parts_[children_[child]];
    piece_.assign(work_.begin() + c.begin, work_.begin() + c.end);
  };
  auto swap_children = [&](std::uint32_t j, std::uint32_t k) {  // j != k
    const ValuePart& a = parts_[children_[j < k ? j : k]];
    const ValuePart& b = parts_[children_[j < k ? k : j]];
    out_.assign(work_.begin(), work_.begin() + a.begin);
    out_.insert(out_.end(), work_.begin() + b.begin, work_.begin() + b.end);
    out_.insert(out_.end(), work_.begin() + a.end, work_.begin() + b.begin);
    out_.insert(out_.end(), work_.begin() + a.begin, work_.begin() + a.end);
    out_.insert(out_.end(), work_.begin() + b.end, work_.end());
  };
  switch (n.kind) {
    case ShapeKind::Sequence: {
      std::uint32_t op = count == 0 ? 0 : rng.below(6);
      if (op == 5 && count < 2) op = 0;
      // Within the domain's size bounds: no growing at the top, no shrinking at the bottom.
      bool can_grow = count<n.max_size, can_shrink = count> n.min_size;
      if ((op <= 2 || op == 4) && !can_grow) op = can_shrink ? 3 : 5;
      if (op == 3 && !can_shrink) op = can_grow ? 0 : 5;
      if (op == 5 && count < 2) return false;
      std::uint32_t new_count = count;
      switch (op) {
        case 0:
        case 1:
        case 2: {  // insert a new element, or one of the partner's
          piece_.clear();
          bool copied = false;
          if (have_other && rng.coin()) {
            matches_.clear();
            for (std::uint32_t i = 0; i < other_parts_.size(); ++i) {
              if (other_parts_[i].shape == n.children[0]) matches_.push_back(i);
            }
            if (!matches_.empty()) {
              const ValuePart& q = other_parts_[matches_[rng.below(matches_.size())]];
              piece_.assign(other_work_.begin() + q.begin, other_work_.begin() + q.end);
              copied = true;
            }
          }
          if (!copied) generate(shape, n.children[0], rng, piece_);
          std::uint32_t k = rng.below(count + 1);
          std::uint32_t at = k < count ? parts_[children_[k]].begin : p.end;
          replace(at, at, piece_.data(), piece_.size());
          new_count = count + 1;
          break;
        }
        case 3: {  // erase one
          const ValuePart& c = parts_[children_[rng.below(count)]];
          replace(c.begin, c.end, nullptr, 0);
          new_count = count - 1;
          break;
        }
        case 4: {  // duplicate one
          bytes_of(rng.below(count));
          std::uint32_t k = rng.below(count + 1);
          std::uint32_t at = k < count ? parts_[children_[k]].begin : p.end;
          replace(at, at, piece_.data(), piece_.size());
          new_count = count + 1;
          break;
        }
        default: {
          std::uint32_t j = rng.below(count);
          swap_children(j, (j + 1 + rng.below(count - 1)) % count);
          break;
        }
      }
      write_u32_le(out_.data() + p.begin, new_count);
      return true;
    }
    case ShapeKind::Array: {
      if (count < 2) return false;
      std::uint32_t j = rng.below(count);
      std::uint32_t k = (j + 1 + rng.below(count - 1)) % count;
      if (rng.coin()) {
        swap_children(j, k);
      } else {  // copy one element over another
        bytes_of(j);
        const ValuePart& c = parts_[children_[k]];
        replace(c.begin, c.end, piece_.data(), piece_.size());
      }
      return true;
    }
    case ShapeKind::Optional: {
      piece_.clear();
      if ((work_[p.begin] & 1) != 0) {
        piece_.push_back(0);
      } else {
        piece_.push_back(1);
        generate(shape, n.children[0], rng, piece_);
      }
      replace(p.begin, p.end, piece_.data(), piece_.size());
      return true;
    }
    case ShapeKind::Variant: {
      auto alternatives = static_cast<std::uint32_t>(n.children.size());
      if (alternatives < 2) return false;
      std::uint32_t index = (work_[p.begin] + 1 + rng.below(alternatives - 1)) % alternatives;
      piece_.assign(1, static_cast<std::uint8_t>(index));
      generate(shape, n.children[index], rng, piece_);
      replace(p.begin, p.end, piece_.data(), piece_.size());
      return true;
    }
    default: return false;
  }
}

bool StructureMutator::copy_from_other(std::uint32_t part, Pcg& rng) {
  matches_.clear();
  for (std::uint32_t i = 0; i < other_parts_.size(); ++i) {
    if (other_parts_[i].shape == parts_[part].shape) matches_.push_back(i);
  }
  if (matches_.empty()) return false;
  const ValuePart& q = other_parts_[matches_[rng.below(matches_.size())]];
  piece_.assign(other_work_.begin() + q.begin, other_work_.begin() + q.end);
  replace(parts_[part].begin, parts_[part].end, piece_.data(), piece_.size());
  return true;
}

void StructureMutator::generate(const ValueShape& shape, std::uint32_t node, Pcg& rng, std::vector<std::uint8_t>& out) {
  const ShapeNode& n = shape.node(node);
  if (!n.oneof.empty()) {
    const auto& e = n.oneof[rng.below(n.oneof.size())];
    out.insert(out.end(), e.begin(), e.end());
    return;
  }
  switch (n.kind) {
    case ShapeKind::Bool: out.push_back(static_cast<std::uint8_t>(rng.below(2))); break;
    case ShapeKind::Int: {
      std::uint64_t v = rng.below(17);
      std::uint32_t choice = rng.below(4);
      // A value the target compared something of this width with, or any value.
      if (choice == 2 && (words_ == nullptr || !words_->integer_for(0, n.width, rng, &v))) choice = 3;
      if (choice == 3) v = rng.next64();
      if (choice < 2 && n.is_signed && rng.below(4) == 0) v = ~v + 1;
      if (n.has_range && choice < 2) v = n.lo + v;  // near the bottom of the range
      if (n.is_signed && n.width < 8 && (v >> (8 * n.width - 1) & 1) != 0) v |= ~std::uint64_t{0} << (8 * n.width);
      put_le(out, fit_range(n, v), n.width);
      break;
    }
    case ShapeKind::Float: {
      double d = static_cast<double>(rng.below(17));
      if (n.has_range) std::memcpy(&d, &n.lo, sizeof d);
      if (n.width == 4) {
        float f = static_cast<float>(d);
        std::uint32_t b;
        std::memcpy(&b, &f, sizeof b);
        put_le(out, b, 4);
      } else {
        std::uint64_t b;
        std::memcpy(&b, &d, sizeof b);
        put_le(out, b, 8);
      }
      break;
    }
    case ShapeKind::Bytes: {
      std::string_view word = words_ != nullptr && rng.coin() ? words_->pick_word(rng) : std::string_view();
      std::size_t at = out.size();
      put_le(out, 0, 4);
      if (!word.empty()) {
        out.insert(out.end(), word.begin(), word.end());
      } else {
        std::uint32_t k = rng.below(9);
        for (std::uint32_t i = 0; i < k; ++i) out.push_back(static_cast<std::uint8_t>(rng.below(256)));
      }
      std::uint64_t len = out.size() - at - 4;
      out.resize(out.size() + n.min_size);  // room to pad to the minimum size
      fit_bytes(n, out.data() + at + 4, &len, len + n.min_size, rng);
      out.resize(at + 4 + len);
      write_u32_le(out.data() + at, static_cast<std::uint32_t>(len));
      break;
    }
    case ShapeKind::Sequence:
      put_le(out, n.min_size, 4);
      for (std::uint64_t i = 0; i < n.min_size; ++i) generate(shape, n.children[0], rng, out);
      break;
    case ShapeKind::Optional: out.push_back(0); break;
    case ShapeKind::Array:
      for (std::uint32_t i = 0; i < n.count; ++i) generate(shape, n.children[0], rng, out);
      break;
    case ShapeKind::Variant: {
      std::uint32_t index = rng.below(n.children.size());
      out.push_back(static_cast<std::uint8_t>(index));
      generate(shape, n.children[index], rng, out);
      break;
    }
    case ShapeKind::Struct:
      for (std::uint32_t child : n.children) generate(shape, child, rng, out);
      break;
  }
}

void StructureMutator::replace(std::uint32_t begin, std::uint32_t end, const std::uint8_t* middle,
                               std::size_t middle_len) {
  out_.assign(work_.begin(), work_.begin() + begin);
  out_.insert(out_.end(), middle, middle + middle_len);
  out_.insert(out_.end(), work_.begin() + end, work_.end());
}

void StructureMutator::children_of(std::uint32_t part) {
  children_.clear();
  // Pre-order: the descendants of a part follow it, and the first part after them has an
  // earlier parent.
  for (std::uint32_t j = part + 1; j < parts_.size() && parts_[j].parent >= static_cast<std::int32_t>(part); ++j) {
    if (parts_[j].parent == static_cast<std::int32_t>(part)) children_.push_back(j);
  }
}

}  // namespace cfuzz::core
