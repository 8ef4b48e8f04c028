#include "core/failure_record.h"

#include <cstring>

namespace cfuzz::core {

std::string_view failure_kind_name(FailureKind k) {
  switch (k) {
    case FailureKind::None: return "none";
    case FailureKind::Returned: return "failure";
    case FailureKind::Exception: return "exception";
    case FailureKind::Signal: return "signal";
    case FailureKind::Sanitizer: return "sanitizer";
    case FailureKind::Exit: return "exit";
    case FailureKind::Timeout: return "timeout";
    case FailureKind::OutOfMemory: return "out-of-memory";
    case FailureKind::RpcCorrupted: return "rpc-corrupted";
    case FailureKind::StackLimit: return "stack-limit";
  }
  return "unknown";
}

void failure_set_text(char* field, std::size_t field_size, std::string_view text) {
  std::size_t n = text.size() < field_size - 1 ? text.size() : field_size - 1;
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

void failure_clear(FailureRecord& r) {
  r.kind = static_cast<std::uint32_t>(FailureKind::None);
  r.signal = 0;
  r.exit_code = 0;
  r.flags = 0;
  r.detail[0] = '\0';
  r.site[0] = '\0';
  r.message[0] = '\0';
}

namespace {

template <std::size_t N>
void make_printable(char (&field)[N]) {
  field[N - 1] = '\0';
  for (std::size_t i = 0; i < N && field[i] != '\0'; ++i) {
    auto c = static_cast<unsigned char>(field[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) field[i] = '?';
  }
}

}  // namespace

FailureRecord failure_from_worker(const FailureRecord& shared) {
  FailureRecord r;
  std::memcpy(&r, &shared, sizeof r);
  make_printable(r.detail);
  make_printable(r.site);
  make_printable(r.message);
  if (r.kind > static_cast<std::uint32_t>(FailureKind::StackLimit)) {  // the last kind
    failure_clear(r);
    r.kind = static_cast<std::uint32_t>(FailureKind::RpcCorrupted);
    failure_set(r.detail, "shm-corrupted");
    failure_set(r.message, "the target wrote over cfuzz's shared memory");
  }
  return r;
}

namespace {

// The innermost frame of a site: crash sites are compared by the frame that faulted, not
// the whole stack, so that a shorter input reaching the same bug by a slightly different
// path still counts as the same failure.
std::string_view first_word(const char* s) {
  std::string_view v(s);
  auto space = v.find(' ');
  return space == std::string_view::npos ? v : v.substr(0, space);
}

}  // namespace

namespace {

// A stack overflow's site moves with the stack's starting alignment (the environment's
// size): it says nothing about the bug.
bool site_matters(const FailureRecord& r) { return std::strstr(r.detail, "stack-overflow") == nullptr; }

std::string signature(const FailureRecord& r, bool with_site) {
  std::string key = std::to_string(r.kind) + "|" + r.detail;
  if (r.kind == static_cast<std::uint32_t>(FailureKind::Exit)) key += "|exit " + std::to_string(r.exit_code);
  if (with_site && site_matters(r)) key += "|" + std::string(first_word(r.site));
  return key;
}

}  // namespace

std::string failure_signature(const FailureRecord& r) { return signature(r, true); }

bool same_failure(const FailureRecord& a, const FailureRecord& b) {
  bool both_sites = a.site[0] != '\0' && b.site[0] != '\0';
  return signature(a, both_sites) == signature(b, both_sites);
}

std::string failure_summary(const FailureRecord& r, bool with_site) {
  auto kind = static_cast<FailureKind>(r.kind);
  std::string site = with_site && r.site[0] != '\0' ? " at " + std::string(first_word(r.site)) : "";
  std::string message(r.message);
  if (auto nl = message.find('\n'); nl != std::string::npos) message.resize(nl);
  switch (kind) {
    case FailureKind::None: return "no failure";
    case FailureKind::Returned:  // the message's lines already start with "file.cc:12: "
      return message.empty() ? std::string(r.site) : message;
    case FailureKind::Exception:
      return "uncaught exception " + std::string(r.detail) + (message.empty() ? "" : ": " + message);
    case FailureKind::Signal: return "deadly signal " + std::string(r.detail) + site;
    case FailureKind::Sanitizer: return std::string(r.detail) + site;
    case FailureKind::Exit: return "target called exit(" + std::to_string(r.exit_code) + ")";
    case FailureKind::Timeout:
    case FailureKind::OutOfMemory:
    case FailureKind::RpcCorrupted: return message.empty() ? std::string(r.detail) : message;
    case FailureKind::StackLimit: return message + site;
  }
  return message;
}

}  // namespace cfuzz::core
