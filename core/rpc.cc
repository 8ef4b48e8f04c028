#include "core/rpc.h"

#include <unistd.h>

#include <cerrno>

namespace cfuzz::core::rpc {

using nlohmann::json;

namespace {

// Reads an optional field: absent or null keeps the default. Type errors throw, and the
// caller turns them into "invalid params".
template <class T>
void get_opt(const json& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end() && !it->is_null()) it->get_to(out);
}

}  // namespace

void to_json(json& j, const PingParams&) { j = json::object(); }
void from_json(const json&, PingParams&) {}

void to_json(json& j, const PingResult& v) {
  j = json{{"protocol", v.protocol}, {"pid", v.pid}, {"test", v.test}, {"types", v.types}, {"counters", v.counters}};
}
void from_json(const json& j, PingResult& v) {
  get_opt(j, "protocol", v.protocol);
  get_opt(j, "pid", v.pid);
  get_opt(j, "test", v.test);
  get_opt(j, "types", v.types);
  get_opt(j, "counters", v.counters);
}

void to_json(json& j, const FuzzParams& v) {
  j = json{{"seed", v.seed},
           {"limit", v.limit},
           {"deadline_ms", v.deadline_ms},
           {"max_len", v.max_len},
           {"paranoid", v.paranoid},
           {"input_to_state", v.input_to_state},
           {"input_to_state_from", v.input_to_state_from},
           {"dictionary", v.dictionary},
           {"only_ascii", v.only_ascii}};
}
void from_json(const json& j, FuzzParams& v) {
  get_opt(j, "seed", v.seed);
  get_opt(j, "limit", v.limit);
  get_opt(j, "deadline_ms", v.deadline_ms);
  get_opt(j, "max_len", v.max_len);
  get_opt(j, "paranoid", v.paranoid);
  get_opt(j, "input_to_state", v.input_to_state);
  get_opt(j, "input_to_state_from", v.input_to_state_from);
  get_opt(j, "dictionary", v.dictionary);
  get_opt(j, "only_ascii", v.only_ascii);
}

void to_json(json& j, const FuzzResult& v) {
  j = json{{"status", v.status},
           {"execs", v.execs},
           {"duration_ns", v.duration_ns},
           {"new_bits", v.new_bits},
           {"exec_ns", v.exec_ns},
           {"new_words", v.new_words},
           {"useful_words", v.useful_words},
           {"input_to_state_next", v.input_to_state_next},
           {"input_to_state_done", v.input_to_state_done},
           {"input_to_state_execs", v.input_to_state_execs}};
}
void from_json(const json& j, FuzzResult& v) {
  j.at("status").get_to(v.status);
  get_opt(j, "execs", v.execs);
  get_opt(j, "duration_ns", v.duration_ns);
  get_opt(j, "new_bits", v.new_bits);
  get_opt(j, "exec_ns", v.exec_ns);
  get_opt(j, "new_words", v.new_words);
  get_opt(j, "useful_words", v.useful_words);
  get_opt(j, "input_to_state_next", v.input_to_state_next);
  get_opt(j, "input_to_state_done", v.input_to_state_done);
  get_opt(j, "input_to_state_execs", v.input_to_state_execs);
}

std::string to_hex(std::string_view bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string from_hex(std::string_view hex) {
  if (hex.size() % 2 != 0) throw ProtocolError("hex string of odd length");
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    throw ProtocolError("not a hex digit in a hex string");
  };
  std::string out(hex.size() / 2, '\0');
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<char>(digit(hex[2 * i]) * 16 + digit(hex[2 * i + 1]));
  }
  return out;
}

void to_json(json& j, const ExecParams&) { j = json::object(); }
void from_json(const json&, ExecParams&) {}

void to_json(json& j, const ExecResult& v) {
  j = json{{"status", v.status}, {"duration_ns", v.duration_ns}, {"new_bits", v.new_bits}};
}
void from_json(const json& j, ExecResult& v) {
  j.at("status").get_to(v.status);
  get_opt(j, "duration_ns", v.duration_ns);
  get_opt(j, "new_bits", v.new_bits);
}

void to_json(json& j, const ExecBatchParams& v) { j = json{{"count", v.count}}; }
void from_json(const json& j, ExecBatchParams& v) { j.at("count").get_to(v.count); }

void to_json(json& j, const ExecBatchResult& v) { j = json{{"status", v.status}, {"done", v.done}}; }
void from_json(const json& j, ExecBatchResult& v) {
  j.at("status").get_to(v.status);
  j.at("done").get_to(v.done);
}

void to_json(json& j, const DescribedTest& v) {
  j = json{{"name", v.name}};
  if (!v.error.empty()) {
    j["error"] = v.error;
  } else {
    j["types"] = v.types;
    j["seeds"] = v.seeds;
    if (!v.shapes.empty()) j["shapes"] = v.shapes;
  }
}
void from_json(const json& j, DescribedTest& v) {
  get_opt(j, "name", v.name);
  get_opt(j, "error", v.error);
  get_opt(j, "types", v.types);
  get_opt(j, "seeds", v.seeds);
  get_opt(j, "shapes", v.shapes);
}

void to_json(json& j, const FailureSignature& v) {
  j = json{{"kind", v.kind}, {"exit_code", v.exit_code}, {"detail", v.detail}, {"site", v.site}};
}
void from_json(const json& j, FailureSignature& v) {
  get_opt(j, "kind", v.kind);
  get_opt(j, "exit_code", v.exit_code);
  get_opt(j, "detail", v.detail);
  get_opt(j, "site", v.site);
}

void to_json(json& j, const MinimizeParams& v) {
  j = json{{"mode", v.mode},   {"limit", v.limit},   {"deadline_ms", v.deadline_ms},
           {"state", v.state}, {"target", v.target}, {"resume_verdict", nullptr}};
  if (v.resume_verdict.has_value()) j["resume_verdict"] = *v.resume_verdict;
}
void from_json(const json& j, MinimizeParams& v) {
  j.at("mode").get_to(v.mode);
  get_opt(j, "limit", v.limit);
  get_opt(j, "deadline_ms", v.deadline_ms);
  get_opt(j, "state", v.state);
  get_opt(j, "target", v.target);
  auto it = j.find("resume_verdict");
  if (it != j.end() && !it->is_null()) v.resume_verdict = it->get<bool>();
}

void to_json(json& j, const MinimizeResult& v) {
  j = json{{"status", v.status}, {"execs", v.execs}, {"duration_ns", v.duration_ns}, {"improved", v.improved}};
}
void from_json(const json& j, MinimizeResult& v) {
  j.at("status").get_to(v.status);
  get_opt(j, "execs", v.execs);
  get_opt(j, "duration_ns", v.duration_ns);
  get_opt(j, "improved", v.improved);
}

std::string encode_request(const Request& r) {
  json j{{"jsonrpc", "2.0"}, {"id", r.id}, {"method", r.method}, {"params", r.params}};
  return j.dump() + "\n";
}

std::string encode_response(const Response& r) {
  json j{{"jsonrpc", "2.0"}, {"id", r.id}};
  if (r.ok) {
    j["result"] = r.result;
  } else {
    j["error"] = json{{"code", r.error_code}, {"message", r.error_message}};
  }
  return j.dump() + "\n";
}

namespace {

json parse_object(std::string_view line) {
  json j = json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) throw ProtocolError("malformed JSON-RPC message: not valid JSON");
  if (!j.is_object()) throw ProtocolError("malformed JSON-RPC message: not a JSON object");
  auto version = j.find("jsonrpc");
  if (version == j.end() || *version != "2.0") {
    throw ProtocolError("malformed JSON-RPC message: \"jsonrpc\" is not \"2.0\"");
  }
  auto id = j.find("id");
  if (id == j.end() || !id->is_number_unsigned()) {
    throw ProtocolError("malformed JSON-RPC message: missing or non-numeric \"id\"");
  }
  return j;
}

}  // namespace

Request decode_request(std::string_view line) {
  json j = parse_object(line);
  Request r;
  r.id = j["id"].get<std::uint64_t>();
  auto method = j.find("method");
  if (method == j.end() || !method->is_string()) {
    throw ProtocolError("malformed JSON-RPC request: missing \"method\"");
  }
  r.method = method->get<std::string>();
  auto params = j.find("params");
  r.params = params == j.end() ? json::object() : *params;
  return r;
}

Response decode_response(std::string_view line) {
  json j = parse_object(line);
  Response r;
  r.id = j["id"].get<std::uint64_t>();
  if (auto result = j.find("result"); result != j.end()) {
    r.ok = true;
    r.result = *result;
    if (!r.result.is_object()) throw ProtocolError("malformed JSON-RPC response: result is not an object");
    return r;
  }
  auto error = j.find("error");
  if (error == j.end() || !error->is_object()) {
    throw ProtocolError("malformed JSON-RPC response: neither \"result\" nor \"error\"");
  }
  r.ok = false;
  auto code = error->find("code");
  auto message = error->find("message");
  if (code == error->end() || !code->is_number_integer() || message == error->end() || !message->is_string()) {
    throw ProtocolError("malformed JSON-RPC response: error without code and message");
  }
  r.error_code = code->get<int>();
  r.error_message = message->get<std::string>();
  return r;
}

std::optional<std::string> LineBuffer::next_line() {
  auto nl = buf_.find('\n');
  if (nl == std::string::npos) {
    if (buf_.size() > kMaxMessageBytes) {
      throw ProtocolError("RPC message longer than " + std::to_string(kMaxMessageBytes) + " bytes without a newline");
    }
    return std::nullopt;
  }
  std::string line = buf_.substr(0, nl);
  buf_.erase(0, nl + 1);
  return line;
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace cfuzz::core::rpc
