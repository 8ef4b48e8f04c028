#include "core/rpc_json.h"

#include <utility>
#include <vector>

namespace cfuzz::core::rpc {

using nlohmann::json;

namespace {

constexpr std::pair<Method, std::string_view> kMethods[] = {
    {Method::Ping, "ping"},         {Method::Fuzz, "fuzz"}, {Method::Exec, "exec"}, {Method::ExecBatch, "exec_batch"},
    {Method::Minimize, "minimize"},
};
constexpr std::pair<Status, std::string_view> kStatuses[] = {
    {Status::Ok, "ok"},           {Status::Interesting, "interesting"},
    {Status::Failure, "failure"}, {Status::Skipped, "skipped"},
    {Status::Done, "done"},       {Status::Budget, "budget"},
};
constexpr std::pair<MinimizeMode, std::string_view> kMinimizeModes[] = {
    {MinimizeMode::Failure, "failure"},
    {MinimizeMode::Coverage, "coverage"},
};

template <class E, std::size_t N>
std::string_view find_name(const std::pair<E, std::string_view> (&table)[N], E value) {
  for (const auto& [v, name] : table) {
    if (v == value) return name;
  }
  return "?";  // not reached: every enumerator is in its table
}

template <class E, std::size_t N>
const E* find_value(const std::pair<E, std::string_view> (&table)[N], std::string_view name) {
  for (const auto& entry : table) {
    if (entry.second == name) return &entry.first;
  }
  return nullptr;
}

template <class E, std::size_t N>
void enum_from_json(const json& j, E& out, const std::pair<E, std::string_view> (&table)[N], const char* what) {
  const auto& name = j.get_ref<const std::string&>();  // not a string: nlohmann's type_error
  const E* v = find_value(table, name);
  if (v == nullptr) throw ProtocolError("unknown " + std::string(what) + " \"" + name.substr(0, 32) + "\"");
  out = *v;
}

}  // namespace

std::string_view wire_name(Method m) { return find_name(kMethods, m); }
std::string_view wire_name(Status s) { return find_name(kStatuses, s); }
std::string_view wire_name(MinimizeMode m) { return find_name(kMinimizeModes, m); }

void to_json(json& j, Method m) { j = wire_name(m); }
void from_json(const json& j, Method& m) { enum_from_json(j, m, kMethods, "method"); }
void to_json(json& j, Status s) { j = wire_name(s); }
void from_json(const json& j, Status& s) { enum_from_json(j, s, kStatuses, "status"); }
void to_json(json& j, MinimizeMode m) { j = wire_name(m); }
void from_json(const json& j, MinimizeMode& m) { enum_from_json(j, m, kMinimizeModes, "minimize mode"); }

void to_json(json& j, const ByteWords& words) {
  j = json::array();
  for (const auto& w : words) j.push_back(to_hex(w));
}
void from_json(const json& j, ByteWords& words) {
  words.clear();
  for (const auto& hex : j.get<std::vector<std::string>>()) words.push_back(from_hex(hex));
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
  const DescribedTest defaults{};  // absent fields keep them, as in the generated converters
  v.name = j.value("name", defaults.name);
  v.error = j.value("error", defaults.error);
  v.types = j.value("types", defaults.types);
  v.seeds = j.value("seeds", defaults.seeds);
  v.shapes = j.value("shapes", defaults.shapes);
}

std::optional<DescribeReply> decode_describe_reply(std::string_view text) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object() || !j.contains("tests")) return std::nullopt;
  DescribeReply reply;
  reply.protocol = j.value("protocol", 0);
  if (reply.protocol != kProtocolVersion) return reply;
  return j.get<DescribeReply>();
}

std::string encode_request(const Request& r) {
  json j{{"jsonrpc", "2.0"}, {"id", r.id}, {"method", wire_name(r.method)}, {"params", r.params}};
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
  const auto name = method->get<std::string>();
  const Method* known = find_value(kMethods, name);
  if (known == nullptr) throw UnknownMethod(r.id, name);
  r.method = *known;
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

}  // namespace cfuzz::core::rpc
