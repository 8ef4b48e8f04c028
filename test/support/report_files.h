// Reading back the files `cfuzz run --junit` and `--sarif` write, with the checks a CI system
// would make: Python's XML parser and a JUnit schema, and a schema written from the SARIF
// 2.1.0 specification (test/e2e/schemas/, run by test/e2e/validate_json.py).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cfuzz::test {

// The XML file as JSON: {"tag", "attrib", "text", "children"} per element (the test fails
// if it is not well-formed XML).
nlohmann::json read_xml(const std::filesystem::path& file);

// The child elements of `element` (as read_xml gives it) with the tag `tag`, in order.
std::vector<nlohmann::json> children_named(const nlohmann::json& element, const std::string& tag);

// What the schemas find wrong with the file: empty if it conforms.
std::string junit_schema_violations(const std::filesystem::path& file);
std::string sarif_schema_violations(const std::filesystem::path& file);

}  // namespace cfuzz::test
