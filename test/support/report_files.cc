#include "test/support/report_files.h"

#include <gtest/gtest.h>

#include "test/support/test_support.h"

namespace cfuzz::test {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The validator's complaints about `file` against the schema test/e2e/schemas/`schema`.
std::string schema_violations(const std::string& schema, const fs::path& file) {
  auto r = run({"/usr/bin/python3", source_dir() + "/test/e2e/validate_json.py",
                source_dir() + "/test/e2e/schemas/" + schema, file.string()});
  return r.exit_code == 0 ? "" : "exit " + std::to_string(r.exit_code) + ": " + r.all();
}

}  // namespace

json read_xml(const fs::path& file) {
  auto r = run({"/usr/bin/python3", source_dir() + "/test/e2e/xml_to_json.py", file.string()});
  EXPECT_EQ(r.exit_code, 0) << r.all();
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

std::string junit_schema_violations(const fs::path& file) {
  auto r = run({"/usr/bin/python3", source_dir() + "/test/e2e/xml_to_json.py", file.string()});
  if (r.exit_code != 0) return "not well-formed XML: " + r.all();
  fs::path as_json = file.string() + ".json";
  write_file(as_json, r.out);
  return schema_violations("junit.schema.json", as_json);
}

std::string sarif_schema_violations(const fs::path& file) {
  return schema_violations("sarif-2.1.0-subset.schema.json", file);
}

std::vector<nlohmann::json> children_named(const nlohmann::json& element, const std::string& tag) {
  std::vector<nlohmann::json> out;
  for (const auto& c : element["children"]) {
    if (c["tag"] == tag) out.push_back(c);
  }
  return out;
}

}  // namespace cfuzz::test
