// A small INI-style configuration format:
//
//   # comment (also ; comment)
//   port = 8080
//   [tls]
//   cert = "/etc/ssl/cert.pem"   # quoted values may hold escapes: \" \\ \n \t \r \xHH \uHHHH
//
// Keys and section names are made of letters, digits, '_', '-' and '.'. Unquoted values
// run to the end of the line or a '#', with surrounding blanks removed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace config {

struct Entry {
  std::string section;  // "" before the first [section]
  std::string key;
  std::string value;
  bool operator==(const Entry&) const = default;
};

struct Config {
  std::vector<Entry> entries;  // in file order; a repeated key appears twice

  // The value of the last `key` in `section`, or nullptr.
  const std::string* get(std::string_view section, std::string_view key) const;
};

struct ParseError {
  int line = 0;  // 1-based
  std::string message;
};

// Parses `text`. On a syntax error returns nullopt and, if `error` is given, says where.
std::optional<Config> parse(std::string_view text, ParseError* error = nullptr);

// Writes `cfg` back as text that parse() reads as the same entries.
std::string serialize(const Config& cfg);

}  // namespace config
