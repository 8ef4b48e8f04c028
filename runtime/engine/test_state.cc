// cfuzz::Common / F / T methods and the state behind them.
#include "runtime/engine/test_state.h"

#include <cxxabi.h>
#include <stdlib.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <typeinfo>

#include "core/input_area.h"

namespace cfuzz::detail {

std::string TestState::full_name() const {
  if (!is_input_ || input_name_.empty()) return test_name_;
  return test_name_ + "/" + input_name_;
}

void TestState::reset_for_input(std::string_view input_name) {
  input_name_.assign(input_name);
  failed_ = false;
  skipped_ = false;
  log_.clear();
  failure_site_.clear();
  cleanups_.clear();
}

void TestState::record(std::string_view text, Location where, bool failure) {
  record_at(short_location(where), text, failure);
}

void TestState::record_at(std::string where, std::string_view text, bool failure) {
  if (failure && !failed_) failure_site_ = where;
  if (failure) failed_ = true;
  log_.push_back(LogLine{std::move(where), std::string(text)});
}

void TestState::mark_failed(Location where) {
  if (!failed_) failure_site_ = short_location(where);
  failed_ = true;
}

void TestState::run_cleanups() {
  while (!cleanups_.empty()) {
    auto fn = std::move(cleanups_.back());
    cleanups_.pop_back();
    try {
      fn();
    } catch (const Stop&) {
      // fatal or skip inside a cleanup: already recorded.
    } catch (const std::exception& e) {
      record_at("cleanup", "cleanup threw " + current_exception_type() + ": " + e.what(), true);
    } catch (...) {
      record_at("cleanup", "cleanup threw " + current_exception_type(), true);
    }
  }
}

std::string TestState::format_log(int indent) const {
  std::string out;
  std::string pad(static_cast<std::size_t>(indent), ' ');
  for (const LogLine& l : log_) {
    out += pad + l.where + ": ";
    // Later lines of a multi-line message are indented under the first, as in Go.
    for (char c : l.text) {
      out += c;
      if (c == '\n') out += pad + "    ";
    }
    out += '\n';
  }
  return out;
}

TestState*& running_input() {
  static TestState* current = nullptr;
  return current;
}

std::string short_location(const Location& where) {
  std::string_view file = where.file;
  if (auto slash = file.rfind('/'); slash != std::string_view::npos) file.remove_prefix(slash + 1);
  return std::string(file) + ":" + std::to_string(where.line);
}

std::string vformat(const char* fmt, va_list args) {
  va_list copy;
  va_copy(copy, args);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  if (n < 0) return fmt;
  std::string out(static_cast<std::size_t>(n), '\0');
  std::vsnprintf(out.data(), out.size() + 1, fmt, args);
  return out;
}

std::string current_exception_type() {
  std::type_info* t = abi::__cxa_current_exception_type();
  if (t == nullptr) return "unknown exception";
  int status = 0;
  char* demangled = abi::__cxa_demangle(t->name(), nullptr, nullptr, &status);
  std::string name = status == 0 && demangled != nullptr ? demangled : t->name();
  std::free(demangled);
  return name;
}

namespace {

// F's failure methods called while the fuzz function runs belong to the input, as in Go
// (where they panic); report them there so the input fails with a clear message.
TestState* target_of(TestState* s) {
  if (!s->is_input() && running_input() != nullptr) {
    TestState* input = running_input();
    input->record_at(input->test_name(), "F method called inside the fuzz function; use the T argument instead", true);
    return input;
  }
  return s;
}

corpus::Value value_of(ArgType type, const ArgView& v) {
  auto t = static_cast<corpus::Type>(type);
  if (t == corpus::Type::Bytes) return corpus::Bytes(v.data, v.data + v.size);
  if (t == corpus::Type::String) return std::string(reinterpret_cast<const char*>(v.data), v.size);
  return core::scalar_from_bits(t, v.bits);
}

}  // namespace

ArgView view_of(const corpus::Value& v) {
  if (const auto* b = std::get_if<corpus::Bytes>(&v)) return ArgView{b->data(), b->size(), 0};
  if (const auto* s = std::get_if<std::string>(&v)) {
    return ArgView{reinterpret_cast<const std::uint8_t*>(s->data()), s->size(), 0};
  }
  return ArgView{nullptr, 0, core::scalar_bits(v)};
}

std::string format_parameter_list(const std::vector<corpus::Type>& types, const Shapes& shapes) {
  std::string out;
  for (std::size_t i = 0; i < types.size(); ++i) {
    if (i != 0) out += ", ";
    out += i < shapes.size() && !shapes[i].empty() ? std::string_view(shapes[i]) : corpus::go_type_name(types[i]);
  }
  return out;
}

namespace {

Shapes shapes_of(const char* const* shapes, std::size_t n) {
  Shapes out(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (shapes[i] != nullptr) out[i] = shapes[i];
  }
  return out;
}

}  // namespace

void add_seed(TestState* s, const ArgType* types, const char* const* shapes, const ArgView* values, std::size_t n,
              Location where) {
  if (s->fuzz_called()) {
    s->record("f.add called after f.fuzz", where, true);
    throw Stop{};
  }
  Seed seed;
  for (std::size_t i = 0; i < n; ++i) {
    seed.types.push_back(static_cast<corpus::Type>(types[i]));
    seed.values.push_back(value_of(types[i], values[i]));
  }
  seed.shapes = shapes_of(shapes, n);
  s->seeds().push_back(std::move(seed));
}

// Custom mutators take []byte or string arguments that exist: checked once both the
// mutators and the fuzz function's types are known.
static void check_custom_mutators(TestState* s, Location where) {
  const auto& types = s->fuzz_function()->types;
  for (const auto& [index, fn] : s->custom_mutators()) {
    if (index >= types.size()) {
      s->record("f.custom_mutator: argument " + std::to_string(index) + " does not exist; the fuzz function takes " +
                    corpus::format_type_list(types),
                where, true);
      throw Stop{};
    }
    const auto& shape = s->fuzz_function()->shapes[index];
    if (!shape.empty()) {
      s->record("f.custom_mutator: argument " + std::to_string(index) + " is " + shape +
                    ", which cfuzz mutates by its structure; a custom mutator takes []byte or string",
                where, true);
      throw Stop{};
    }
    if (types[index] != corpus::Type::Bytes && types[index] != corpus::Type::String) {
      s->record("f.custom_mutator: argument " + std::to_string(index) + " is " +
                    std::string(corpus::go_type_name(types[index])) + "; a custom mutator takes []byte or string",
                where, true);
      throw Stop{};
    }
  }
}

// Seeds given with f.add must be in the fuzz function's domains.
static void check_seeds_in_domains(TestState* s, Location where) {
  const FuzzFunction& fn = *s->fuzz_function();
  if (fn.decode == nullptr) return;
  std::vector<ArgView> views(fn.types.size() + 1);
  std::string why;
  for (std::size_t i = 0; i < s->seeds().size(); ++i) {
    const Seed& seed = s->seeds()[i];
    for (std::size_t k = 0; k < seed.values.size(); ++k) views[k] = view_of(seed.values[k]);
    if (!fn.decode(fn.fn, views.data(), &why)) {
      s->record("f.add: seed#" + std::to_string(i) + " is out of the domains: " + why, where, true);
      throw Stop{};
    }
  }
}

void set_fuzz_function(TestState* s, const ArgType* types, const char* const* shapes, const char* const* constraints,
                       std::size_t n, Invoke invoke, Decode decode, void* fn, Destroy destroy, Location where) {
  FuzzFunction f;
  f.invoke = invoke;
  f.decode = decode;
  f.fn = fn;
  f.destroy = destroy;
  f.where = short_location(where);
  for (std::size_t i = 0; i < n; ++i) f.types.push_back(static_cast<corpus::Type>(types[i]));
  f.shapes = shapes_of(shapes, n);
  f.constraints = shapes_of(constraints, n);
  if (s->fuzz_called()) {
    s->record("f.fuzz called more than once", where, true);
    throw Stop{};
  }
  s->set_fuzz_called();
  for (std::size_t i = 0; i < s->seeds().size(); ++i) {
    const Seed& seed = s->seeds()[i];
    if (seed.types != f.types || seed.shapes != f.shapes) {
      s->record("mismatched types in seed#" + std::to_string(i) + ": " +
                    format_parameter_list(seed.types, seed.shapes) + ", want " +
                    format_parameter_list(f.types, f.shapes),
                where, true);
      throw Stop{};
    }
  }
  s->fuzz_function().emplace();
  FuzzFunction& slot = *s->fuzz_function();
  slot.types = std::move(f.types);
  slot.shapes = std::move(f.shapes);
  slot.constraints = std::move(f.constraints);
  slot.invoke = f.invoke;
  slot.decode = f.decode;
  slot.fn = f.fn;
  slot.destroy = f.destroy;
  slot.where = std::move(f.where);
  f.destroy = nullptr;  // ownership moved to the slot
  check_custom_mutators(s, where);
  check_seeds_in_domains(s, where);
}

void set_domain_mutator(TestState* s, std::size_t index, DomainMutator fn, const void* domain) {
  s->domain_mutators().push_back(TestState::OwnMutator{index, fn, domain});
}

void set_custom_mutator(TestState* s, std::size_t index, CustomMutator fn, Location where) {
  auto& all = s->custom_mutators();
  for (const auto& m : all) {
    if (m.first == index) {
      s->record("f.custom_mutator called twice for argument " + std::to_string(index), where, true);
      throw Stop{};
    }
  }
  if (fn == nullptr) {
    s->record("f.custom_mutator: no function given", where, true);
    throw Stop{};
  }
  all.emplace_back(index, fn);
  if (s->fuzz_function()) check_custom_mutators(s, where);
}

}  // namespace cfuzz::detail

namespace cfuzz {

using detail::Stop;
using detail::target_of;
using detail::vformat;

void Common::log(std::string_view msg, Location where) { state_->record(msg, where, false); }

void Common::logf(Format fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt.text, args);
  va_end(args);
  state_->record(msg, fmt.where, false);
}

void Common::error(std::string_view msg, Location where) { target_of(state_)->record(msg, where, true); }

void Common::errorf(Format fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt.text, args);
  va_end(args);
  target_of(state_)->record(msg, fmt.where, true);
}

void Common::fatal(std::string_view msg, Location where) {
  target_of(state_)->record(msg, where, true);
  throw Stop{};
}

void Common::fatalf(Format fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt.text, args);
  va_end(args);
  target_of(state_)->record(msg, fmt.where, true);
  throw Stop{};
}

void Common::skip(std::string_view msg, Location where) {
  detail::TestState* s = target_of(state_);
  if (!msg.empty()) s->record(msg, where, false);
  s->mark_skipped();
  throw Stop{};
}

void Common::skipf(Format fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt.text, args);
  va_end(args);
  detail::TestState* s = target_of(state_);
  if (!msg.empty()) s->record(msg, fmt.where, false);
  s->mark_skipped();
  throw Stop{};
}

void Common::fail(Location where) { target_of(state_)->mark_failed(where); }

void Common::fail_now(Location where) {
  target_of(state_)->mark_failed(where);
  throw Stop{};
}

bool Common::failed() const { return state_->failed(); }
bool Common::skipped() const { return state_->skipped(); }
std::string Common::name() const { return state_->full_name(); }

void Common::cleanup(std::function<void()> fn) { state_->add_cleanup(std::move(fn)); }

std::string Common::tempdir() {
  std::string base = std::filesystem::temp_directory_path().string();
  std::string name = state_->full_name();
  for (char& c : name) {
    if (c == '/' || c == '#') c = '_';
  }
  std::string pattern = base + "/" + name + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) {
    fatal("tempdir: cannot create a directory in " + base);
  }
  std::string dir = pattern;
  state_->add_cleanup([dir] {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  });
  return dir;
}

}  // namespace cfuzz
