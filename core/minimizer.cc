#include "core/minimizer.h"

#include <cmath>
#include <cstring>
#include <string>
#include <string_view>

namespace cfuzz::core {

namespace {

using corpus::Type;

enum Stage : std::uint64_t {
  kStart = 0,  // a fresh minimizer: set up the first value's first stage
  kTailCut,
  kHeadCut,
  kRemoveChunk,
  kRemoveUnit,
  kRemoveRange,
  kPrintable,
  kNumZero,
  kNumHalve,
  kNumStep,
  kTypedCanonical,  // a typed value's canonical form
  kTypedPart,       // then its parts, `a` the index of the part tried
  kValueDone,
};

constexpr std::uint64_t kMaxPasses = 3;
constexpr std::uint64_t kMaxNumberSteps = 16;
// Go's replacement characters, tried in this order.
constexpr std::string_view kPrintableChars = "012789ABCXYZabcxyz !\"#$%&'()*+,.";

bool is_bytes(const corpus::Value& v) {
  return std::holds_alternative<corpus::Bytes>(v) || std::holds_alternative<std::string>(v);
}

std::string_view bytes_of(const corpus::Value& v) {
  if (const auto* b = std::get_if<corpus::Bytes>(&v)) {
    return {reinterpret_cast<const char*>(b->data()), b->size()};
  }
  return std::get<std::string>(v);
}

void set_bytes(corpus::Value& v, std::string_view s) {
  if (auto* b = std::get_if<corpus::Bytes>(&v)) {
    b->assign(s.begin(), s.end());
  } else {
    std::get<std::string>(v).assign(s);
  }
}

// Length of the UTF-8 sequence starting with byte c, or 0 if c cannot start one.
int utf8_sequence_length(unsigned char c) {
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return 2;
  if (c >= 0xe0 && c <= 0xef) return 3;
  if (c >= 0xf0 && c <= 0xf4) return 4;
  return 0;
}

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    int n = utf8_sequence_length(c);
    if (n == 0 || i + static_cast<std::size_t>(n) > s.size()) return false;
    for (int k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0xc0) != 0x80) {
        return false;
      }
    }
    auto c1 = static_cast<unsigned char>(n > 1 ? s[i + 1] : 0);
    if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 > 0x9f) || (c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 > 0x8f)) {
      return false;  // overlong, surrogate, or beyond U+10FFFF
    }
    i += static_cast<std::size_t>(n);
  }
  return true;
}

// Strings that are valid UTF-8 stay valid: a shorter string of the same kind is what the
// user expects to read in the report.
bool keeps_utf8(const corpus::Value& v) {
  return std::holds_alternative<std::string>(v) && valid_utf8(std::get<std::string>(v));
}

std::uint64_t highest_power_of_two_below(std::uint64_t n) {
  if (n <= 1) return 0;
  std::uint64_t p = 1;
  while (p * 2 < n) p *= 2;
  return p;
}

// Numbers are shrunk through their 64-bit pattern; the helpers below read and write them
// as signed, unsigned or floating values.
struct Number {
  enum Kind { Signed, Unsigned, Floating, Boolean } kind;
  long double value;
};

Number number_of(const corpus::Value& v) {
  return std::visit(
      [](const auto& x) -> Number {
        using V = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<V, corpus::Bytes> || std::is_same_v<V, std::string>) {
          return {Number::Unsigned, 0};
        } else if constexpr (std::is_same_v<V, bool>) {
          return {Number::Boolean, x ? 1.0L : 0.0L};
        } else if constexpr (std::is_floating_point_v<V>) {
          return {Number::Floating, static_cast<long double>(x)};
        } else if constexpr (std::is_signed_v<V>) {
          return {Number::Signed, static_cast<long double>(x)};
        } else {
          return {Number::Unsigned, static_cast<long double>(x)};
        }
      },
      v);
}

bool is_positive_zero(const corpus::Value& v) {
  if (const auto* f = std::get_if<float>(&v)) return *f == 0 && !std::signbit(*f);
  if (const auto* d = std::get_if<double>(&v)) return *d == 0 && !std::signbit(*d);
  return number_of(v).value == 0;
}

// Replaces the number in `v` by f(old) computed on its own type; false if not a number.
template <class F>
void set_number(corpus::Value& v, F f) {
  std::visit(
      [&](auto& x) {
        using V = std::decay_t<decltype(x)>;
        if constexpr (!std::is_same_v<V, corpus::Bytes> && !std::is_same_v<V, std::string>) {
          x = f(x);
        }
      },
      v);
}

// The best entry with one of its values edited: a candidate.
template <class Edit>
bool edited_copy(const corpus::Entry& best, std::uint64_t value, corpus::Entry* out, Edit&& edit) {
  *out = best;
  edit((*out)[value]);
  return true;
}

}  // namespace

Minimizer::Minimizer(corpus::Entry start, MinimizerState state) : best_(std::move(start)), state_(state) {}

void Minimizer::set_shapes(const std::vector<std::string>& shapes) {
  shapes_.assign(shapes.size(), std::nullopt);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (!shapes[i].empty()) shapes_[i] = ValueShape::parse(shapes[i]);
  }
}

const ValueShape* Minimizer::shape_of(std::uint64_t value) const {
  if (value >= shapes_.size() || !shapes_[value] || value >= best_.size()) return nullptr;
  return std::holds_alternative<corpus::Bytes>(best_[value]) ? &*shapes_[value] : nullptr;
}

std::uint64_t Minimizer::first_stage(std::uint64_t value) const {
  if (shape_of(value) != nullptr) return kTypedCanonical;
  return is_bytes(best_[value]) ? kTailCut : kNumZero;
}

bool Minimizer::typed_candidate(corpus::Entry* out) {
  const ValueShape& shape = *shape_of(state_.value);
  const auto& bytes = std::get<corpus::Bytes>(best_[state_.value]);
  canonicalize(shape, bytes.data(), bytes.size(), work_, parts_);
  auto offer = [&](std::vector<std::uint8_t> c) {
    *out = best_;
    std::get<corpus::Bytes>((*out)[state_.value]) = std::move(c);
    return true;
  };
  if (state_.stage == kTypedCanonical) {
    if (work_ != bytes) return offer(work_);
    next_stage();
    return false;
  }
  if (state_.a >= parts_.size()) {
    next_stage();
    return false;
  }
  const ValuePart& p = parts_[state_.a];
  const ShapeNode& n = shape.node(p.shape);
  auto spliced = [&](std::vector<std::uint8_t> middle) {  // this part's bytes replaced by `middle`
    std::vector<std::uint8_t> c(work_.begin(), work_.begin() + p.begin);
    c.insert(c.end(), middle.begin(), middle.end());
    c.insert(c.end(), work_.begin() + p.end, work_.end());
    return c;
  };
  if (p.parent >= 0 && shape.node(parts_[static_cast<std::size_t>(p.parent)].shape).kind == ShapeKind::Sequence) {
    // Drop this element, and count one fewer.
    std::vector<std::uint8_t> c = spliced({});
    std::uint32_t at = parts_[static_cast<std::size_t>(p.parent)].begin;
    write_u32_le(c.data() + at, read_u32_le(c.data() + at) - 1);
    return offer(std::move(c));
  }
  bool nonzero = false;
  for (std::uint32_t i = p.begin; i < p.end; ++i) nonzero |= work_[i] != 0;
  if (n.kind == ShapeKind::Optional && nonzero) return offer(spliced({0}));
  if (n.kind == ShapeKind::Bytes && p.end - p.begin > 4) return offer(spliced({0, 0, 0, 0}));
  if ((n.kind == ShapeKind::Int || n.kind == ShapeKind::Float || n.kind == ShapeKind::Bool) && nonzero) {
    return offer(spliced(std::vector<std::uint8_t>(p.end - p.begin, 0)));
  }
  ++state_.a;  // nothing to make smaller here
  return false;
}

void Minimizer::next_stage() {
  state_.a = 0;
  state_.b = 0;
  if (state_.value >= best_.size()) {
    state_.stage = kValueDone;
    return;
  }
  const corpus::Value& v = best_[state_.value];
  if (state_.stage == kTypedCanonical) {
    state_.stage = kTypedPart;
    return;
  }
  if (state_.stage == kTypedPart) {
    // done with this value: on to the next one below
  } else if (is_bytes(v)) {
    switch (state_.stage) {
      case kTailCut:
        state_.stage = kHeadCut;
        state_.a = highest_power_of_two_below(bytes_of(v).size());
        return;
      case kHeadCut:
        state_.stage = kRemoveChunk;
        state_.a = highest_power_of_two_below(bytes_of(v).size() / 2);
        return;
      case kRemoveChunk: state_.stage = kRemoveUnit; return;
      case kRemoveUnit:
        state_.stage = kRemoveRange;
        state_.b = bytes_of(v).size();
        return;
      case kRemoveRange: state_.stage = kPrintable; return;
      default: break;
    }
  } else if (state_.stage < kNumZero) {
    state_.stage = kNumZero;
    return;
  } else if (state_.stage < kNumStep && !std::holds_alternative<bool>(v)) {
    ++state_.stage;
    return;
  }
  // This value is done: the next one, or the next pass.
  ++state_.value;
  if (state_.value >= best_.size()) {
    if (state_.improved != 0 && state_.pass + 1 < kMaxPasses) {
      ++state_.pass;
      state_.value = 0;
      state_.improved = 0;
    } else {
      state_.stage = kValueDone;
      return;
    }
  }
  const corpus::Value& nv = best_[state_.value];
  state_.stage = first_stage(state_.value);
  if (state_.stage == kTailCut) state_.a = highest_power_of_two_below(bytes_of(nv).size());
}

bool Minimizer::next(corpus::Entry* candidate) {
  if (has_pending_) report(false);
  if (state_.stage == kStart) {
    if (best_.empty()) return false;
    state_.value = 0;
    state_.stage = first_stage(0);
    state_.a = state_.stage == kTailCut ? highest_power_of_two_below(bytes_of(best_[0]).size()) : 0;
  }
  while (state_.stage != kValueDone && state_.value < best_.size()) {
    if (candidate_for_state(candidate)) {
      pending_ = *candidate;
      has_pending_ = true;
      return true;
    }
  }
  return false;
}

void Minimizer::report(bool qualified) {
  if (qualified) {
    if (has_pending_) best_ = std::move(pending_);
    state_.improved = 1;
  }
  has_pending_ = false;
  advance(qualified);
}

// Produces the candidate for the current position, or moves the position on (returning
// false) when the current stage has nothing (more) to offer.
bool Minimizer::candidate_for_state(corpus::Entry* out) {
  if (shape_of(state_.value) != nullptr) return typed_candidate(out);
  return is_bytes(best_[state_.value]) ? bytes_candidate(out) : number_candidate(out);
}

// Shortening and simplifying a []byte or string value, stage by stage.
bool Minimizer::bytes_candidate(corpus::Entry* out) {
  const corpus::Value& v = best_[state_.value];
  auto make = [&](auto&& edit) { return edited_copy(best_, state_.value, out, edit); };
  std::string_view s = bytes_of(v);
  bool utf8 = keeps_utf8(v);
  auto acceptable = [&](const std::string& c) { return !c.empty() && (!utf8 || valid_utf8(c)); };
  switch (state_.stage) {
    case kTailCut:
    case kHeadCut: {
      std::uint64_t n = state_.a;
      if (n == 0) {
        next_stage();
        return false;
      }
      if (s.size() <= n) {
        state_.a = n / 2;
        return false;
      }
      std::string c = state_.stage == kTailCut ? std::string(s.substr(0, s.size() - n)) : std::string(s.substr(n));
      if (!acceptable(c)) {
        state_.a = n / 2;
        return false;
      }
      return make([&](corpus::Value& x) { set_bytes(x, c); });
    }
    case kRemoveChunk: {
      // Aligned chunks of a halving size, down to 2 bytes (units come next): a failure that
      // depends on a few bytes in the middle loses the rest in a few dozen candidates,
      // where removing byte by byte would take one per byte. That matters when each
      // candidate that still fails costs a worker restart or a whole timeout.
      std::uint64_t size = state_.a, at = state_.b;
      if (size < 2) {
        next_stage();
        return false;
      }
      if (at >= s.size()) {
        state_.a = size / 2;
        state_.b = 0;
        return false;
      }
      std::string c =
          std::string(s.substr(0, at)) + std::string(s.substr(std::min<std::uint64_t>(s.size(), at + size)));
      if (!acceptable(c)) {
        state_.b += size;
        return false;
      }
      return make([&](corpus::Value& x) { set_bytes(x, c); });
    }
    case kRemoveUnit: {
      std::uint64_t i = state_.a;
      if (s.size() <= 1 || i >= s.size()) {
        next_stage();
        return false;
      }
      std::size_t unit = 1;
      if (utf8) {
        int n = utf8_sequence_length(static_cast<unsigned char>(s[i]));
        unit = n > 0 ? static_cast<std::size_t>(n) : 1;
      }
      std::string c = std::string(s.substr(0, i)) + std::string(s.substr(i + unit));
      if (!acceptable(c)) {
        state_.a += unit;
        return false;
      }
      return make([&](corpus::Value& x) { set_bytes(x, c); });
    }
    case kRemoveRange: {
      std::uint64_t i = state_.a, j = state_.b;
      if (s.size() <= 2 || i + 1 >= s.size()) {
        next_stage();
        return false;
      }
      if (j > s.size()) j = state_.b = s.size();
      if (j <= i + 1) {
        ++state_.a;
        state_.b = s.size();
        return false;
      }
      std::string c = std::string(s.substr(0, i)) + std::string(s.substr(j));
      if (!acceptable(c)) {
        --state_.b;
        return false;
      }
      return make([&](corpus::Value& x) { set_bytes(x, c); });
    }
    case kPrintable: {
      std::uint64_t i = state_.a;
      if (i >= s.size()) {
        next_stage();
        return false;
      }
      auto byte = static_cast<unsigned char>(s[i]);
      bool printable = byte >= 0x20 && byte < 0x7f;
      if (printable || (utf8 && byte >= 0x80) || state_.b >= kPrintableChars.size()) {
        ++state_.a;
        state_.b = 0;
        return false;
      }
      std::string c(s);
      c[i] = kPrintableChars[state_.b];
      return make([&](corpus::Value& x) { set_bytes(x, c); });
    }
    default: next_stage(); return false;
  }
}

// Numbers and bools, towards zero.
bool Minimizer::number_candidate(corpus::Entry* out) {
  const corpus::Value& v = best_[state_.value];
  auto make = [&](auto&& edit) { return edited_copy(best_, state_.value, out, edit); };
  switch (state_.stage) {
    case kNumZero:
      if (is_positive_zero(v)) {
        next_stage();
        return false;
      }
      return make([](corpus::Value& x) { set_number(x, [](auto) { return 0; }); });
    case kNumHalve: {
      Number n = number_of(v);
      // Halving stops at magnitude 2 (integers) or 1 (floats: halving further would walk
      // through ever smaller fractions down to denormals, which nobody wants to read).
      double magnitude = std::fabs(static_cast<double>(n.value));
      if (n.value == 0 || std::isnan(static_cast<double>(n.value)) ||
          magnitude < (n.kind == Number::Floating ? 1.0 : 2.0)) {
        next_stage();
        return false;
      }
      return make([](corpus::Value& x) {
        set_number(x, [](auto y) {
          using Y = decltype(y);
          if constexpr (std::is_floating_point_v<Y>) {
            return std::isinf(y) ? std::numeric_limits<Y>::max() * (y < 0 ? -1 : 1) : y / 2;
          } else {
            return static_cast<Y>(y / 2);
          }
        });
      });
    }
    case kNumStep: {
      Number n = number_of(v);
      if (state_.a >= kMaxNumberSteps || n.value == 0 || std::isnan(static_cast<double>(n.value))) {
        next_stage();
        return false;
      }
      if (n.kind == Number::Floating) {
        // Floats: drop the fraction, once.
        if (std::trunc(n.value) == n.value || std::isinf(static_cast<double>(n.value))) {
          next_stage();
          return false;
        }
        return make([](corpus::Value& x) {
          set_number(x, [](auto y) {
            using Y = decltype(y);
            if constexpr (std::is_floating_point_v<Y>) {
              return std::trunc(y);
            } else {
              return y;
            }
          });
        });
      }
      bool negative = n.value < 0;
      return make([negative](corpus::Value& x) {
        set_number(x, [negative](auto y) {
          using Y = decltype(y);
          return static_cast<Y>(negative ? y + 1 : y - 1);
        });
      });
    }
    default: next_stage(); return false;
  }
}

void Minimizer::advance(bool qualified) {
  if (state_.stage == kValueDone || state_.value >= best_.size()) return;
  const corpus::Value& v = best_[state_.value];
  switch (state_.stage) {
    case kTailCut:
    case kHeadCut:
      // Keep cutting the same amount while it works, then halve it (Go's tail cut).
      if (!qualified) state_.a /= 2;
      break;
    case kRemoveChunk:
      // After a removal the next chunk has moved to the same offset: test it there.
      if (!qualified) state_.b += state_.a;
      break;
    case kRemoveUnit:
      // After a removal the next unit has moved to the same index: test it there.
      if (!qualified) {
        std::size_t unit = 1;
        if (keeps_utf8(v) && state_.a < bytes_of(v).size()) {
          int n = utf8_sequence_length(static_cast<unsigned char>(bytes_of(v)[state_.a]));
          unit = n > 0 ? static_cast<std::size_t>(n) : 1;
        }
        state_.a += unit;
      }
      break;
    case kRemoveRange:
      if (qualified) {
        state_.b = bytes_of(v).size();
      } else {
        --state_.b;
      }
      break;
    case kPrintable:
      if (qualified) {
        ++state_.a;
        state_.b = 0;
      } else {
        ++state_.b;
      }
      break;
    case kNumZero: next_stage(); break;
    case kTypedCanonical: next_stage(); break;
    case kTypedPart:
      // After a dropped element the next one has moved to the same index: test it there.
      if (!qualified) ++state_.a;
      break;
    case kNumHalve:
      if (!qualified) next_stage();
      break;
    case kNumStep:
      if (qualified) {
        ++state_.a;
      } else {
        next_stage();
      }
      break;
    default: break;
  }
}

}  // namespace cfuzz::core
